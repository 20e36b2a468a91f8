/**
 * Balance reads and the balance row's birth. An organization's spendable money is its cash plus the remaining
 * amount of its vouchers that are unexpired at the moment in question. Every reader outside this module — the
 * gateway's admission views (metering/accounts.ts), the console, the back office, refunds — reads it through
 * here, so "usable voucher" has one definition and the money tables have one importer.
 */
import type { Currency, TierBasis } from "@moonport/contracts";
import { type Db, schema, type Tx } from "@moonport/db";
import * as money from "@moonport/db/money-schema";
import { eq, inArray, type SQL, sql } from "drizzle-orm";

export interface OrgBalance {
  currency: Currency;
  cash: bigint;
  voucher: bigint;
  available: bigint;
  /** Sum of cash recharges ever (net of refunds): the basis of the rate-limit tier. */
  cumulativeRecharge: bigint;
}

/**
 * A scalar subquery: the organization's usable voucher balance at `at` (the database's now() when omitted).
 * Spelled out: drizzle renders columns unqualified inside sql``, which is ambiguous in a subquery.
 */
function usableVoucherSql(orgId: string, at?: Date): SQL<string> {
  const moment = at ? sql`${at.toISOString()}::timestamptz` : sql`now()`;
  return sql<string>`(select coalesce(sum(v.remaining), 0) from vouchers v
    where v.org_id = ${orgId} and v.remaining > 0 and v.expires_at > ${moment})`;
}

/**
 * The organization's cash, cumulative recharge and usable vouchers (at the database's now()) as scalar subqueries,
 * for a caller's own select: the gateway's account view reads them with the organization's other columns in one
 * query, as it did when they were columns of `organizations`.
 */
export function balanceColumnsSql(orgId: string) {
  const b = money.orgBalances;
  return {
    cash: sql`(select ${b.cashBalance} from ${b} where ${b.orgId} = ${orgId})`.mapWith(b.cashBalance),
    cumulativeRecharge: sql`(select ${b.cumulativeRecharge} from ${b} where ${b.orgId} = ${orgId})`.mapWith(
      b.cumulativeRecharge,
    ),
    voucher: usableVoucherSql(orgId).mapWith(BigInt),
  };
}

/** Cash may be negative (arrears); vouchers never are; with negative cash the vouchers alone are available. */
export function availableBalance(cash: bigint, voucher: bigint): bigint {
  return cash < 0n ? voucher : cash + voucher;
}

/** The zero balance row every organization has; created in the organization's own transaction. */
export async function openOrganizationBalance(opts: { db: Db | Tx; orgId: string }): Promise<void> {
  await opts.db.insert(money.orgBalances).values({ orgId: opts.orgId });
}

export async function getOrganizationBalance(opts: {
  db: Db | Tx;
  orgId: string;
  now?: Date;
}): Promise<OrgBalance | null> {
  const b = money.orgBalances;
  const [org] = await opts.db
    .select({
      cash: b.cashBalance,
      cumulativeRecharge: b.cumulativeRecharge,
      currency: schema.organizations.currency,
      voucher: usableVoucherSql(opts.orgId, opts.now ?? new Date()),
    })
    .from(schema.organizations)
    .innerJoin(b, eq(b.orgId, schema.organizations.id))
    .where(eq(schema.organizations.id, opts.orgId));
  if (!org) return null;
  const voucher = BigInt(org.voucher);
  return {
    currency: org.currency,
    cash: org.cash,
    voucher,
    available: availableBalance(org.cash, voucher),
    cumulativeRecharge: org.cumulativeRecharge,
  };
}

/**
 * What the rate-limit tier is computed from (`tierFor`): the organization's own settings plus its cumulative
 * recharge, which lives with the balance.
 */
export async function getTierBasis<O extends Omit<TierBasis, "cumulativeRecharge"> & { id: string }>(opts: {
  db: Db | Tx;
  org: O;
}): Promise<O & { cumulativeRecharge: bigint }> {
  const b = money.orgBalances;
  const [row] = await opts.db
    .select({ cumulativeRecharge: b.cumulativeRecharge })
    .from(b)
    .where(eq(b.orgId, opts.org.id));
  return { ...opts.org, cumulativeRecharge: row?.cumulativeRecharge ?? 0n };
}

/** Balances of many organizations (a page of a list) in one query, keyed by organization id. */
export async function getOrganizationBalances(opts: {
  db: Db | Tx;
  orgIds: string[];
  now: Date;
}): Promise<Map<string, Omit<OrgBalance, "currency">>> {
  const out = new Map<string, Omit<OrgBalance, "currency">>();
  if (!opts.orgIds.length) return out;
  const b = money.orgBalances;
  const rows = await opts.db
    .select({
      orgId: b.orgId,
      cash: b.cashBalance,
      cumulativeRecharge: b.cumulativeRecharge,
      // Correlated: the outer row named in full (drizzle leaves a single-table select's columns bare).
      voucher: sql<string>`(select coalesce(sum(v.remaining), 0) from vouchers v
        where v.org_id = org_balances.org_id and v.remaining > 0 and v.expires_at > ${opts.now.toISOString()}::timestamptz)::text`,
    })
    .from(b)
    .where(inArray(b.orgId, opts.orgIds));
  for (const r of rows) {
    const voucher = BigInt(r.voucher);
    out.set(r.orgId, {
      cash: r.cash,
      voucher,
      available: availableBalance(r.cash, voucher),
      cumulativeRecharge: r.cumulativeRecharge,
    });
  }
  return out;
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
