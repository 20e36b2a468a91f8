/**
 * Who pays for a charge: the organization's vouchers first — soonest-expiring first, only those still valid at the
 * moment the charge was incurred — then cash. Pure: it takes the vouchers' remaining amounts and returns the split
 * of every charge and the vouchers' new remaining amounts, so it can be tested exhaustively (allocate.test.ts) and
 * the SQL around it stays set-based. Cash has no floor: a charge the vouchers cannot cover is taken from cash in
 * full, which may go below zero (requests in flight when the balance ran out still settle).
 */
export interface AllocationVoucher {
  id: string;
  remaining: bigint;
  /** Epoch ms; a voucher is usable for a charge made strictly before it expires. */
  expiresAt: number;
}

export interface AllocationCharge {
  amount: bigint;
  /** Epoch ms of the request the charge is for. */
  at: number;
}

export interface Allocation {
  cash: bigint;
  voucher: bigint;
  /** The vouchers drawn on, in the order they were used. */
  fromVouchers: { voucherId: string; amount: bigint }[];
}

export interface AllocationResult {
  /** One per charge, in the order given. */
  allocations: Allocation[];
  /** New remaining amount of every voucher that was drawn on. */
  remaining: Map<string, bigint>;
}

/** Charges are applied in the order given (callers pass them oldest first); vouchers in any order. */
export function allocateCharges(
  vouchers: readonly AllocationVoucher[],
  charges: readonly AllocationCharge[],
): AllocationResult {
  const pool = vouchers
    .filter((v) => v.remaining > 0n)
    .map((v) => ({ ...v }))
    .sort((a, b) => a.expiresAt - b.expiresAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const remaining = new Map<string, bigint>();
  const allocations: Allocation[] = [];
  for (const charge of charges) {
    if (charge.amount < 0n) throw new RangeError("a charge cannot be negative");
    let due = charge.amount;
    const fromVouchers: Allocation["fromVouchers"] = [];
    for (const v of pool) {
      if (due === 0n) break;
      if (v.remaining === 0n || v.expiresAt <= charge.at) continue;
      const take = v.remaining < due ? v.remaining : due;
      v.remaining -= take;
      due -= take;
      fromVouchers.push({ voucherId: v.id, amount: take });
      remaining.set(v.id, v.remaining);
    }
    allocations.push({ cash: due, voucher: charge.amount - due, fromVouchers });
  }
  return { allocations, remaining };
}
