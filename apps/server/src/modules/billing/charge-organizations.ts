/**
 * Charges for metered usage, many organizations at a time: the gateway's bill writer calls this inside its batch
 * transaction. The statement count is fixed whatever the number of charges or organizations (metering/README.md,
 * "Billing"): one lock of every organization involved (in id order, so instances and the voucher write-off lock
 * in the same order), one read of their usable vouchers (locked), the allocation in memory (allocate.ts), then
 * one statement for every write: the set-based UPDATEs of vouchers and cash and the INSERT of the ledger entries
 * (one per organization) as data-modifying CTEs, with the caller's own writes (`alongside`) in the same statement.
 *
 * It tells nobody: the bill writer applies the result to this instance's admission views itself, and other
 * instances pick it up with their next refresh (about a second), as before.
 */
import type { Edition } from "@moonport/contracts";
import type { Tx } from "@moonport/db";
import * as money from "@moonport/db/money-schema";
import { asc, inArray, type SQL, sql } from "drizzle-orm";
import { type Allocation, type AllocationVoucher, allocateCharges } from "./allocate.ts";
import { type LedgerRow, ledgerInsertSql, newLedgerId } from "./ledger.ts";
import { lockOrganizations } from "./lock-organizations.ts";

export interface UsageCharge {
  orgId: string;
  amount: bigint;
  /** Epoch ms of the request: vouchers must be valid then. */
  at: number;
  /** The bill line charged (the ledger entry's reference). */
  reference: string;
  note: string;
}

/**
 * One ledger entry per organization per batch: the bill rows (request_bills, with their cash and voucher
 * deductions) are the per-request record, and a ledger row per request doubled the rows and index entries the
 * batch writes, which with PGlite is gateway CPU. A single charge keeps its bill line as reference and note; a
 * batch names how many lines it covers and the first and last (the lines are in request_bills).
 */
function chargeEntry(orgId: string, charged: UsageCharge[], cash: bigint, voucher: bigint): LedgerRow {
  const first = charged[0]!;
  const last = charged[charged.length - 1]!;
  return {
    id: newLedgerId(),
    orgId,
    kind: "charge",
    cashDelta: -cash,
    voucherDelta: -voucher,
    reference: charged.length === 1 ? first.reference : null,
    note: charged.length === 1 ? first.note : `${charged.length} bill lines, ${first.reference} … ${last.reference}`,
    createdAt: new Date(last.at),
  };
}

/**
 * Runs data-modifying statements as one: `with w0 as (…), w1 as (…) select 1`. They must touch different tables
 * (a row may be changed only once per statement); each round trip, and with PGlite each statement (its fixed cost
 * is most of a batch's), is gateway CPU.
 */
async function executeTogether(tx: Tx, writes: SQL[]) {
  if (!writes.length) return;
  if (writes.length === 1) {
    await tx.execute(writes[0]!);
    return;
  }
  const ctes = sql.join(
    writes.map((w, i) => sql`${sql.raw(`w${i}`)} as (${w})`),
    sql`, `,
  );
  await tx.execute(sql`with ${ctes} select 1`);
}

/**
 * Returns one allocation per charge, in the order given. Charges of one organization are applied oldest first.
 * `alongside` lets the caller add its own writes of other tables, built from the allocations and the charged
 * organizations' editions (the bill writer's bill rows, project spend and keys), to the one statement that writes
 * vouchers, cash and the ledger.
 */
export async function chargeOrganizations(
  tx: Tx,
  charges: UsageCharge[],
  alongside?: (allocations: Allocation[], editions: ReadonlyMap<string, Edition>) => SQL[],
): Promise<Allocation[]> {
  const out: Allocation[] = new Array(charges.length);
  if (!charges.length) {
    await executeTogether(tx, alongside?.(out, new Map()) ?? []);
    return out;
  }
  const byOrg = new Map<string, number[]>();
  let earliest = Number.POSITIVE_INFINITY;
  charges.forEach((c, i) => {
    const list = byOrg.get(c.orgId);
    if (list) list.push(i);
    else byOrg.set(c.orgId, [i]);
    if (c.at < earliest) earliest = c.at;
  });
  const orgIds = [...byOrg.keys()].sort();
  const editions = await lockOrganizations(tx, orgIds);
  const vouchers = await tx
    .select({
      id: money.vouchers.id,
      orgId: money.vouchers.orgId,
      remaining: money.vouchers.remaining,
      expiresAt: money.vouchers.expiresAt,
    })
    .from(money.vouchers)
    .where(
      sql`${inArray(money.vouchers.orgId, orgIds)} and ${money.vouchers.remaining} > 0 and ${money.vouchers.expiresAt} > ${new Date(earliest).toISOString()}::timestamptz`,
    )
    .orderBy(asc(money.vouchers.orgId), asc(money.vouchers.expiresAt), asc(money.vouchers.id))
    .for("update");
  const vouchersByOrg = new Map<string, AllocationVoucher[]>();
  for (const v of vouchers) {
    const av = { id: v.id, remaining: v.remaining, expiresAt: v.expiresAt.getTime() };
    const list = vouchersByOrg.get(v.orgId);
    if (list) list.push(av);
    else vouchersByOrg.set(v.orgId, [av]);
  }
  const voucherUpdates: [string, bigint][] = [];
  const cash: [string, bigint][] = [];
  const ledger: LedgerRow[] = [];
  for (const orgId of orgIds) {
    // Stable: charges of the same instant keep their order.
    const indexes = byOrg.get(orgId)!.sort((a, b) => charges[a]!.at - charges[b]!.at);
    const { allocations, remaining } = allocateCharges(
      vouchersByOrg.get(orgId) ?? [],
      indexes.map((i) => charges[i]!),
    );
    for (const [id, r] of remaining) voucherUpdates.push([id, r]);
    let cashTotal = 0n;
    let voucherTotal = 0n;
    const charged: UsageCharge[] = [];
    indexes.forEach((i, k) => {
      const a = allocations[k]!;
      const c = charges[i]!;
      out[i] = a;
      cashTotal += a.cash;
      voucherTotal += a.voucher;
      if (a.cash !== 0n || a.voucher !== 0n) charged.push(c);
    });
    if (charged.length) ledger.push(chargeEntry(orgId, charged, cashTotal, voucherTotal));
    if (cashTotal !== 0n) cash.push([orgId, cashTotal]);
  }
  const writes: SQL[] = [];
  if (voucherUpdates.length) {
    const values = sql.join(
      voucherUpdates.map(([id, r]) => sql`(${id}, ${r.toString()}::bigint)`),
      sql`, `,
    );
    writes.push(
      sql`update ${money.vouchers} as v set remaining = x.remaining from (values ${values}) as x(id, remaining) where v.id = x.id`,
    );
  }
  if (cash.length) {
    const values = sql.join(
      cash.map(([id, amount]) => sql`(${id}, ${amount.toString()}::bigint)`),
      sql`, `,
    );
    writes.push(
      sql`update ${money.orgBalances} as b set cash_balance = b.cash_balance - x.amount from (values ${values}) as x(id, amount) where b.org_id = x.id`,
    );
  }
  if (ledger.length) writes.push(ledgerInsertSql(ledger));
  if (alongside) writes.push(...alongside(out, editions));
  await executeTogether(tx, writes);
  return out;
}
