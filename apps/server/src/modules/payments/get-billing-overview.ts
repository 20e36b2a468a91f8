import {
  type BillingOverview,
  EDITION_TIME_ZONE,
  MONTHLY_RECHARGE_ORDERS,
  PAY_TYPES_BY_EDITION,
  RECHARGE_BOUNDS,
  type RechargeOptions,
  type Tier,
  tierProgress,
} from "@moonport/contracts";
import { schema } from "@moonport/db";
import { desc, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { localDate, monthPeriod } from "../../lib/edition-time.ts";
import { getOrganizationBalance, testRecharge } from "../billing/index.ts";
import { sumSpend } from "../usage/index.ts";
import { blockingPayment, ordersThisMonth } from "./create-payment.ts";
import { paymentMethod } from "./payment-methods.ts";
import { toPayment } from "./payment-view.ts";
import { providerForPayType } from "./providers/index.ts";
import { SANDBOX } from "./sandbox-psp.ts";
import { transferAllowed } from "./transfer-eligibility.ts";

const row = (t: Tier) => ({
  tier: t.tier,
  name: t.name,
  recharge: t.cumulativeRecharge.toString(),
  concurrency: t.concurrency,
  rpm: t.rpm,
  tpm: t.tpm,
  tpd: t.tpd,
});

/** Account overview: balances, tier and the recharge still needed for the next, this month's spend, recent payments. */
export async function getBillingOverview(opts: { ctx: AppContext; access: OrgAccess }): Promise<BillingOverview> {
  const { ctx } = opts;
  const { org } = opts.access;
  const now = ctx.clock.now();
  const balance = await getOrganizationBalance({ db: ctx.db, orgId: org.id, now });
  const cumulativeRecharge = balance?.cumulativeRecharge ?? 0n;
  const { tier, source, next, toNext } = tierProgress({ ...org, cumulativeRecharge });
  const tz = EDITION_TIME_ZONE[org.edition];
  const today = localDate(now, tz);
  const spend = await sumSpend(ctx.db, { orgId: org.id, projectIds: null }, monthPeriod(today.year, today.month), tz);
  const recent = await ctx.db
    .select()
    .from(schema.payments)
    .where(eq(schema.payments.orgId, org.id))
    .orderBy(desc(schema.payments.createdAt))
    .limit(5);
  const cash = balance?.cash ?? 0n;
  const voucher = balance?.voucher ?? 0n;
  return {
    currency: org.currency,
    available: (balance?.available ?? cash + voucher).toString(),
    cash: cash.toString(),
    voucher: voucher.toString(),
    cumulativeRecharge: cumulativeRecharge.toString(),
    tier: row(tier),
    tierSource: source,
    nextTier: next ? row(next) : null,
    toNextTier: toNext !== null ? toNext.toString() : null,
    monthSpend: spend.toString(),
    testRecharge: (await testRecharge({ db: ctx.db, orgId: org.id, testProvider: SANDBOX })).toString(),
    recentPayments: recent.map((p) => toPayment(ctx, p, null)),
  };
}

/**
 * The edition's pay types split into those this server offers (test ones marked: the sandbox serves them) and
 * those it does not, so the screen explains a missing method instead of hiding it.
 */
export async function getRechargeOptions(opts: { ctx: AppContext; access: OrgAccess }): Promise<RechargeOptions> {
  const { ctx } = opts;
  const { org } = opts.access;
  const methods = PAY_TYPES_BY_EDITION[org.edition].map((t) => paymentMethod(ctx.config, t));
  const payTypes = methods.flatMap((m) => (m.offered ? [m.payType] : []));
  return {
    edition: org.edition,
    currency: org.currency,
    ...RECHARGE_BOUNDS[org.edition],
    payTypes,
    testPayTypes: methods.flatMap((m) => (m.offered && m.test ? [m.payType] : [])),
    unavailablePayTypes: methods.flatMap((m) => (m.offered ? [] : [m.payType])),
    cardProvider: providerForPayType(ctx, "credit_card")?.cardClient ?? {
      name: "",
      tokenizeUrl: null,
      publishableKey: null,
    },
    companyVerificationNeeded: !transferAllowed(org) && payTypes.includes("b2btransfer") ? ["b2btransfer"] : [],
    blockingPaymentId: (await blockingPayment(ctx, org.id))?.id ?? null,
    ordersThisMonth: await ordersThisMonth(ctx, org),
    monthlyLimit: MONTHLY_RECHARGE_ORDERS,
  };
}
