/** Reads of the ledger (the back office's recent entries of an organization; tests' sums against the balances). */
import type { Db, Tx } from "@moonport/db";
import * as money from "@moonport/db/money-schema";
import { and, desc, eq, type SQL, sql } from "drizzle-orm";

type LedgerEntry = typeof money.ledgerEntries.$inferSelect;

/** Newest first; every filter given must match. */
export async function listLedgerEntries(opts: {
  db: Db | Tx;
  orgId?: string;
  kind?: LedgerEntry["kind"];
  reference?: string;
  limit?: number;
}): Promise<LedgerEntry[]> {
  const l = money.ledgerEntries;
  const where: SQL[] = [];
  if (opts.orgId !== undefined) where.push(eq(l.orgId, opts.orgId));
  if (opts.kind !== undefined) where.push(eq(l.kind, opts.kind));
  if (opts.reference !== undefined) where.push(eq(l.reference, opts.reference));
  const query = opts.db
    .select()
    .from(l)
    .where(and(...where))
    .orderBy(desc(l.createdAt), desc(l.id));
  return opts.limit === undefined ? query : query.limit(opts.limit);
}

/**
 * The ledger's sums next to the balances they must equal (Σ cash_delta = cash, Σ voucher_delta = Σ remaining of
 * every voucher, expired ones included until written off): the invariant the billing and gateway tests check.
 */
export async function auditOrganizationLedger(opts: { db: Db | Tx; orgId: string }) {
  const l = money.ledgerEntries;
  const [row] = await opts.db
    .select({
      cash: sql<string>`(select cash_balance from org_balances where org_id = ${opts.orgId})::text`,
      ledgerCash: sql<string>`coalesce(sum(${l.cashDelta}), 0)::text`,
      ledgerVoucher: sql<string>`coalesce(sum(${l.voucherDelta}), 0)::text`,
      voucherRemaining: sql<string>`(select coalesce(sum(remaining), 0) from vouchers where org_id = ${opts.orgId})::text`,
    })
    .from(l)
    .where(eq(l.orgId, opts.orgId));
  return {
    cash: BigInt(row?.cash ?? 0),
    ledgerCash: BigInt(row?.ledgerCash ?? 0),
    ledgerVoucher: BigInt(row?.ledgerVoucher ?? 0),
    voucherRemaining: BigInt(row?.voucherRemaining ?? 0),
  };
}
