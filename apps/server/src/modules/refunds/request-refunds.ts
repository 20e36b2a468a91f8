/**
 * An organization admin asks for unused cash to be refunded: one refund per picked recharge. Each amount is at
 * most what is left of its payment (amount − invoiced − refunded: an issued invoice holds its part until it is
 * voided), and together they are at most the cash not already asked for by other requests. Vouchers are never
 * refunded: only the cash balance counts.
 *
 * Everything is checked under the organization's lock and the payments' row locks (organization first, then the
 * payments in id order, like the billing core), so concurrent requests cannot promise the same money twice. The
 * request holds its amount on the payment (`refunded_amount`) at once, so neither another refund nor an invoice
 * can take it meanwhile; a rejection or cancellation releases it.
 */
import { type CreateRefundRequest, formatMoney, type Locale, parseMoney, type Refund } from "@moonport/contracts";
import { newId, schema, type Tx } from "@moonport/db";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { withTransaction } from "../../lib/transaction.ts";
import { getOrganizationBalance, lockOrganizations } from "../billing/index.ts";
import { enqueueRefundMail } from "./refund-mail.ts";
import { type PaymentRow, type RefundRow, refundableOf, toRefund } from "./refund-view.ts";

/** Cash asked for by refunds an operator has not approved yet (approved ones already left the balance). */
export async function requestedCash(tx: Pick<Tx, "select">, orgId: string): Promise<bigint> {
  const [row] = await tx
    .select({ n: sql<string>`coalesce(sum(${schema.refunds.amount}), 0)` })
    .from(schema.refunds)
    .where(and(eq(schema.refunds.orgId, orgId), eq(schema.refunds.status, "requested")));
  return BigInt(row?.n ?? 0);
}

/** The refusal when `amount` is more than what is left of payment `p`, naming an invoice when that is what holds it. */
export function paymentRefusal(p: PaymentRow, amount: bigint): AppError | null {
  const left = refundableOf(p);
  if (amount <= left) return null;
  if (p.invoicedAmount > 0n && amount <= p.amount - p.refundedAmount) {
    return new AppError("refund_invoice_held", { params: { held: formatMoney(p.invoicedAmount, p.currency) } });
  }
  return new AppError("refund_exceeds_payment", { params: { available: formatMoney(left, p.currency) } });
}

/** Moves `delta` into (positive) or out of (negative) a payment's refunded amount; the caller holds its row lock. */
export async function holdOnPayment(tx: Tx, paymentId: string, delta: bigint) {
  await tx
    .update(schema.payments)
    .set({ refundedAmount: sql`${schema.payments.refundedAmount} + ${delta.toString()}::bigint` })
    .where(eq(schema.payments.id, paymentId));
}

export async function requestRefunds(opts: {
  ctx: AppContext;
  access: OrgAccess;
  body: CreateRefundRequest;
  locale: Locale;
}): Promise<{ items: Refund[] }> {
  const { ctx, access, body } = opts;
  const org = access.org;
  const items = body.items.map((i) => ({ paymentId: i.paymentId, amount: parseMoney(i.amount) }));
  const ids = items.map((i) => i.paymentId);
  // Only paid recharges of this organization; refused before any lock, so a payment still settling (its
  // notification locks the payment, then the organization) is never waited on here.
  const paid = await ctx.db
    .select({ id: schema.payments.id })
    .from(schema.payments)
    .where(
      and(inArray(schema.payments.id, ids), eq(schema.payments.orgId, org.id), eq(schema.payments.status, "success")),
    );
  const paidIds = new Set(paid.map((p) => p.id));
  const unknown = items.findIndex((i) => !paidIds.has(i.paymentId));
  if (unknown >= 0) {
    throw new AppError("refund_not_refundable", {
      details: [{ path: `items.${unknown}.paymentId`, message: "refund_not_refundable" }],
    });
  }
  const now = ctx.clock.now();
  return withTransaction(ctx, async (tx) => {
    await lockOrganizations(tx, [org.id]);
    const payments = await tx
      .select()
      .from(schema.payments)
      .where(inArray(schema.payments.id, ids))
      .orderBy(asc(schema.payments.id))
      .for("update");
    const byId = new Map(payments.map((p) => [p.id, p]));
    for (const item of items) {
      const refusal = paymentRefusal(byId.get(item.paymentId)!, item.amount);
      if (refusal) throw refusal;
    }
    const total = items.reduce((s, i) => s + i.amount, 0n);
    const cash = (await getOrganizationBalance({ db: tx, orgId: org.id }))?.cash ?? 0n;
    const available = cash - (await requestedCash(tx, org.id));
    if (total > available) {
      throw new AppError("refund_exceeds_balance", {
        params: { available: formatMoney(available > 0n ? available : 0n, org.currency) },
      });
    }
    const rows: RefundRow[] = [];
    for (const item of items) {
      await holdOnPayment(tx, item.paymentId, item.amount);
      const [row] = await tx
        .insert(schema.refunds)
        .values({
          id: newId("rfd"),
          orgId: org.id,
          paymentId: item.paymentId,
          amount: item.amount,
          currency: org.currency,
          reason: body.reason || null,
          requestedBy: access.userId,
          email: body.email,
          locale: opts.locale,
          createdAt: now,
        })
        .returning();
      rows.push(row!);
    }
    await enqueueRefundMail(ctx, tx, "refund_requested", rows);
    return {
      items: rows.map((r) => {
        const p = byId.get(r.paymentId)!;
        return toRefund({ refund: r, paymentType: p.payType, paymentCreatedAt: p.createdAt });
      }),
    };
  });
}
