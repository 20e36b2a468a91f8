import type { RefundOptions, RefundPage, RefundStatus } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, count, desc, eq, gt, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { getOrganizationBalance } from "../billing/index.ts";
import { refundableOf, refundColumns, toRefund } from "./refund-view.ts";
import { requestedCash } from "./request-refunds.ts";

/** The organization's refunds, newest first. */
export async function listRefunds(opts: {
  ctx: Pick<AppContext, "db">;
  access: OrgAccess;
  page: number;
  pageSize: number;
  status?: RefundStatus;
}): Promise<RefundPage> {
  const r = schema.refunds;
  const where = and(eq(r.orgId, opts.access.org.id), opts.status ? eq(r.status, opts.status) : undefined);
  const [[total], rows] = await Promise.all([
    opts.ctx.db.select({ n: count() }).from(r).where(where),
    opts.ctx.db
      .select(refundColumns)
      .from(r)
      .innerJoin(schema.payments, eq(schema.payments.id, r.paymentId))
      .where(where)
      .orderBy(desc(r.createdAt), desc(r.id))
      .limit(opts.pageSize)
      .offset((opts.page - 1) * opts.pageSize),
  ]);
  return { items: rows.map(toRefund), total: total?.n ?? 0, page: opts.page, pageSize: opts.pageSize };
}

/**
 * What may be refunded now: the cash not already asked for, and each paid recharge with what is left of it
 * (recharges fully invoiced or refunded are listed too, so the screen can say why they cannot be picked).
 */
export async function getRefundOptions(opts: {
  ctx: Pick<AppContext, "db">;
  access: OrgAccess;
}): Promise<RefundOptions> {
  const { db } = opts.ctx;
  const org = opts.access.org;
  const p = schema.payments;
  const [balance, requested, payments] = await Promise.all([
    getOrganizationBalance({ db, orgId: org.id }),
    requestedCash(db, org.id),
    db
      .select()
      .from(p)
      .where(and(eq(p.orgId, org.id), eq(p.status, "success"), gt(p.amount, sql`0`)))
      .orderBy(desc(p.createdAt), desc(p.id))
      .limit(100),
  ]);
  const cash = balance?.cash ?? 0n;
  const available = cash - requested;
  return {
    currency: org.currency,
    cash: cash.toString(),
    requested: requested.toString(),
    available: (available > 0n ? available : 0n).toString(),
    payments: payments.map((x) => ({
      id: x.id,
      paymentType: x.payType,
      createdAt: x.createdAt.toISOString(),
      amount: x.amount.toString(),
      invoicedAmount: x.invoicedAmount.toString(),
      refundedAmount: x.refundedAmount.toString(),
      refundable: refundableOf(x).toString(),
    })),
  };
}
