/**
 * Balance reads. An organization's spendable money is its cash plus the remaining amount of its vouchers that are
 * unexpired at the moment in question. The gateway's admission views (metering/accounts.ts) and the balance
 * endpoint read it through here, so "usable voucher" has one definition.
 */
import type { Currency } from "@moonport/contracts";
import { type Db, schema, type Tx } from "@moonport/db";
import { eq, type SQL, sql } from "drizzle-orm";

export interface OrgBalance {
  currency: Currency;
  cash: bigint;
  voucher: bigint;
  available: bigint;
}

/**
 * A scalar subquery: the organization's usable voucher balance at `at` (the database's now() when omitted).
 * Spelled out: drizzle renders columns unqualified inside sql``, which is ambiguous in a subquery.
 */
export function usableVoucherSql(orgId: string, at?: Date): SQL<string> {
  const moment = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
  return sql<string>`(select coalesce(sum(v.remaining), 0) from vouchers v
    where v.org_id = ${orgId} and v.remaining > 0 and v.expires_at > ${moment})`;
}

/** Cash may be negative (arrears); vouchers never are; with negative cash the vouchers alone are available. */
export function availableBalance(cash: bigint, voucher: bigint): bigint {
  return cash < 0n ? voucher : cash + voucher;
}

export async function getOrgBalance(opts: { db: Db | Tx; orgId: string; now?: Date }): Promise<OrgBalance | null> {
  const [org] = await opts.db
    .select({
      cash: schema.organizations.cashBalance,
      currency: schema.organizations.currency,
      voucher: usableVoucherSql(opts.orgId, opts.now ?? new Date()),
    })
    .from(schema.organizations)
    .where(eq(schema.organizations.id, opts.orgId));
  if (!org) return null;
  const voucher = BigInt(org.voucher);
  return { currency: org.currency, cash: org.cash, voucher, available: availableBalance(org.cash, voucher) };
}

/**
 * How much of the organization's recharges came from test payments (the sandbox provider's: no real money moved),
 * net of refunds. The overview says so next to the balance, so a sandbox-made balance is never mistaken for money.
 */
export async function testRecharge(opts: { db: Db | Tx; orgId: string; testProvider: string }): Promise<bigint> {
  const p = schema.payments;
  const [row] = await opts.db
    .select({ total: sql<string>`coalesce(sum(${p.amount} - ${p.refundedAmount}), 0)` })
    .from(p)
    .where(sql`${p.orgId} = ${opts.orgId} and ${p.provider} = ${opts.testProvider} and ${p.status} = 'success'`);
  return BigInt(row?.total ?? 0);
}
