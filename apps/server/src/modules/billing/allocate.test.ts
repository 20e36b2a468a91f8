import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AllocationVoucher, allocateCharges } from "./allocate.ts";

const T0 = Date.parse("2026-01-01T00:00:00Z");
const voucherArb = fc.record({
  id: fc.string({ minLength: 1, maxLength: 4 }),
  remaining: fc.bigInt({ min: 0n, max: 5_000_000_000n }),
  expiresAt: fc.integer({ min: T0, max: T0 + 10_000 }),
});
const chargeArb = fc.record({
  amount: fc.bigInt({ min: 0n, max: 3_000_000_000n }),
  at: fc.integer({ min: T0 - 100, max: T0 + 10_100 }),
});
const input = fc.record({
  vouchers: fc.uniqueArray(voucherArb, { selector: (v) => v.id, maxLength: 6 }),
  charges: fc.array(chargeArb, { maxLength: 12 }),
});

describe("allocateCharges (vouchers first, soonest-expiring first, valid at the charge's time, then cash)", () => {
  it("splits every charge exactly, never overdraws a voucher, and uses only vouchers valid at the charge", () => {
    fc.assert(
      fc.property(input, ({ vouchers, charges }) => {
        const { allocations, remaining } = allocateCharges(vouchers, charges);
        expect(allocations).toHaveLength(charges.length);
        const byId = new Map(vouchers.map((v) => [v.id, v]));
        const drawn = new Map<string, bigint>();
        allocations.forEach((a, i) => {
          const charge = charges[i]!;
          expect(a.cash + a.voucher).toBe(charge.amount);
          expect(a.cash >= 0n && a.voucher >= 0n).toBe(true);
          expect(a.fromVouchers.reduce((s, f) => s + f.amount, 0n)).toBe(a.voucher);
          for (const f of a.fromVouchers) {
            expect(f.amount > 0n).toBe(true);
            expect(byId.get(f.voucherId)!.expiresAt > charge.at).toBe(true);
            drawn.set(f.voucherId, (drawn.get(f.voucherId) ?? 0n) + f.amount);
          }
        });
        for (const [id, amount] of drawn) {
          expect(amount <= byId.get(id)!.remaining).toBe(true);
          expect(remaining.get(id)).toBe(byId.get(id)!.remaining - amount);
        }
        // Money is conserved: what the vouchers lost is what the charges took from vouchers.
        const lost = [...remaining].reduce((s, [id, r]) => s + byId.get(id)!.remaining - r, 0n);
        expect(lost).toBe(allocations.reduce((s, a) => s + a.voucher, 0n));
      }),
    );
  });

  it("takes cash only when no valid voucher has anything left, and draws a later-expiring voucher only after the sooner ones are spent", () => {
    fc.assert(
      fc.property(input, ({ vouchers, charges }) => {
        const { allocations } = allocateCharges(vouchers, charges);
        const left = new Map(vouchers.map((v) => [v.id, v.remaining]));
        const order = [...vouchers].sort(
          (a, b) => a.expiresAt - b.expiresAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
        );
        allocations.forEach((a, i) => {
          const at = charges[i]!.at;
          const valid = order.filter((v) => v.expiresAt > at);
          for (const f of a.fromVouchers) {
            // Every valid voucher ordered before this one was emptied before it was touched.
            for (const earlier of valid) {
              if (earlier.id === f.voucherId) break;
              expect(left.get(earlier.id)).toBe(0n);
            }
            left.set(f.voucherId, left.get(f.voucherId)! - f.amount);
          }
          if (a.cash > 0n) for (const v of valid) expect(left.get(v.id)).toBe(0n);
        });
      }),
    );
  });

  it("is the documented example: soonest-expiring first, an expired voucher skipped, the rest from cash", () => {
    const vouchers: AllocationVoucher[] = [
      { id: "later", remaining: 5n, expiresAt: T0 + 2000 },
      { id: "soon", remaining: 3n, expiresAt: T0 + 1000 },
      { id: "expired", remaining: 100n, expiresAt: T0 - 1 },
    ];
    const { allocations, remaining } = allocateCharges(vouchers, [
      { amount: 4n, at: T0 },
      { amount: 6n, at: T0 + 1500 },
    ]);
    expect(allocations).toEqual([
      {
        cash: 0n,
        voucher: 4n,
        fromVouchers: [
          { voucherId: "soon", amount: 3n },
          { voucherId: "later", amount: 1n },
        ],
      },
      { cash: 2n, voucher: 4n, fromVouchers: [{ voucherId: "later", amount: 4n }] },
    ]);
    expect(Object.fromEntries(remaining)).toEqual({ soon: 0n, later: 0n });
  });
});
