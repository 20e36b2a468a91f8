/**
 * The balance an API key's organization can spend (api-compat §6): cash plus unexpired vouchers. Cash may be
 * negative (arrears); vouchers never are; when cash is negative the available balance is the voucher balance.
 */
import { type Currency, moneyToNumber } from "@moonport/contracts";
import { type Db, schema } from "@moonport/db";
import { and, eq, gt, sql } from "drizzle-orm";

export interface OrgBalance {
  currency: Currency;
  cash: bigint;
  voucher: bigint;
  available: bigint;
}

export async function getOrgBalance(opts: { db: Db; orgId: string; now?: Date }): Promise<OrgBalance | null> {
  const { db, orgId } = opts;
  const [org] = await db
    .select({ cash: schema.organizations.cashBalance, currency: schema.organizations.currency })
    .from(schema.organizations)
    .where(eq(schema.organizations.id, orgId));
  if (!org) return null;
  const [v] = await db
    .select({ total: sql<string>`coalesce(sum(${schema.vouchers.remaining}), 0)` })
    .from(schema.vouchers)
    .where(and(eq(schema.vouchers.orgId, orgId), gt(schema.vouchers.expiresAt, opts.now ?? new Date())));
  const voucher = BigInt(v?.total ?? 0);
  const cash = org.cash;
  return { currency: org.currency, cash, voucher, available: cash < 0n ? voucher : cash + voucher };
}

/** The wire envelope of GET /v1/users/me/balance (not OpenAI-style: success is code 0). */
export function balanceEnvelope(b: OrgBalance) {
  return {
    code: 0,
    data: {
      available_balance: moneyToNumber(b.available),
      voucher_balance: moneyToNumber(b.voucher),
      cash_balance: moneyToNumber(b.cash),
    },
    scode: "0x0",
    status: true,
  };
}
