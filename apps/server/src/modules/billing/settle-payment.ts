/**
 * Applying a payment provider's verdict (billing core: the only place a recharge becomes cash). One transaction:
 * record the provider's event id (unique per provider: a repeated delivery inserts nothing and stops here), lock
 * the payment, move it out of `waiting`, credit the cash through `creditCash` (ledger reference = payment id, a
 * second guard) and, when the cumulative recharge first reaches the reward threshold, issue the first-recharge
 * voucher (reference `first-recharge:<org>`, once per organization). A crash before the commit leaves nothing:
 * the provider retries and the whole step runs again.
 */
import { FIRST_RECHARGE_REWARD, parseMoney } from "@moonport/contracts";
import { newId, schema, type Tx } from "@moonport/db";
import * as money from "@moonport/db/money-schema";
import { eq, sql } from "drizzle-orm";
import { withTransaction } from "../../lib/transaction.ts";
import { type BillingScope, creditCash, issueVoucher } from "./credit.ts";

export type SettleOutcome = "credited" | "failed" | "flagged" | "ignored" | "duplicate";

const DAY_MS = 24 * 60 * 60 * 1000;

export async function settlePayment(
  opts: BillingScope & {
    provider: string;
    /** The provider's event or transaction id: the idempotency key of this notification. */
    eventId: string;
    paymentId: string;
    verdict: "paid" | "failed";
    /** The amount the provider says was paid (must equal the order's). */
    amount?: bigint;
    reason?: string;
    /** The provider's id of the charge, kept when the order has none yet (a refund needs it). */
    providerRef?: string;
    now: Date;
  },
): Promise<SettleOutcome> {
  return withTransaction({ db: opts.tx ?? opts.ctx.db, log: opts.ctx.log }, async (tx) => {
    const [payment] = await tx
      .select()
      .from(schema.payments)
      .where(eq(schema.payments.id, opts.paymentId))
      .for("update");
    if (!payment) return "ignored";
    const record = async (outcome: Exclude<SettleOutcome, "duplicate">) => {
      const inserted = await tx
        .insert(schema.paymentEvents)
        .values({ id: newId("pev"), provider: opts.provider, eventId: opts.eventId, paymentId: payment.id, outcome })
        .onConflictDoNothing()
        .returning({ id: schema.paymentEvents.id });
      return inserted.length > 0;
    };
    if (opts.verdict === "failed") {
      if (payment.status !== "waiting") return (await record("ignored")) ? "ignored" : "duplicate";
      if (!(await record("failed"))) return "duplicate";
      await tx
        .update(schema.payments)
        .set({ status: "failed", failureReason: opts.reason ?? null, finishedAt: opts.now })
        .where(eq(schema.payments.id, payment.id));
      return "failed";
    }
    if (opts.amount !== undefined && opts.amount !== payment.amount) {
      // A paid amount that differs from the order is never credited automatically.
      if (!(await record("flagged"))) return "duplicate";
      await tx.update(schema.payments).set({ flag: "amount_mismatch" }).where(eq(schema.payments.id, payment.id));
      opts.ctx.log.warn({ paymentId: payment.id }, "payment notification amount differs from the order; flagged");
      return "flagged";
    }
    if (payment.status === "success") return (await record("ignored")) ? "ignored" : "duplicate";
    const closedByTimer = payment.status === "closed" && payment.failureReason === "timeout";
    if ((payment.status === "closed" && !closedByTimer) || payment.status === "failed") {
      // Money arrived for an order someone ended (cancelled, refused by the provider, declined): flag it for an
      // operator (who refunds it at the provider or credits it with confirmPayment), never credit it silently.
      // An order only our own timer closed is credited below: nobody withdrew it, and its notification may simply
      // have waited out a server that was down when the provider charged.
      if (!(await record("flagged"))) return "duplicate";
      await tx.update(schema.payments).set({ flag: "paid_after_close" }).where(eq(schema.payments.id, payment.id));
      opts.ctx.log.warn({ paymentId: payment.id }, "payment paid after it was closed; flagged for an operator");
      return "flagged";
    }
    if (!(await record("credited"))) return "duplicate";
    if (closedByTimer)
      opts.ctx.log.info({ paymentId: payment.id }, "payment paid after its unpaid order timed out; credited");
    if (opts.providerRef && !payment.providerRef) {
      await tx.update(schema.payments).set({ providerRef: opts.providerRef }).where(eq(schema.payments.id, payment.id));
    }
    await creditPaidOrder({ ...opts, tx }, payment, opts.now);
    return "credited";
  });
}

async function creditPaidOrder(
  scope: BillingScope & { tx: Tx },
  payment: typeof schema.payments.$inferSelect,
  now: Date,
  createdBy?: string,
) {
  const tx = scope.tx;
  await tx
    .update(schema.payments)
    .set({ status: "success", finishedAt: now, flag: null })
    .where(eq(schema.payments.id, payment.id));
  const [before] = await tx
    .select({ cumulative: money.orgBalances.cumulativeRecharge })
    .from(money.orgBalances)
    .where(eq(money.orgBalances.orgId, payment.orgId));
  await creditCash({
    ...scope,
    orgId: payment.orgId,
    amount: payment.amount,
    kind: "recharge",
    reference: payment.id,
    note: `recharge ${payment.payType}`,
    createdBy,
  });
  const threshold = parseMoney(FIRST_RECHARGE_REWARD.threshold);
  if (before && before.cumulative < threshold && before.cumulative + payment.amount >= threshold) {
    await issueVoucher({
      ...scope,
      orgId: payment.orgId,
      type: "recharge",
      amount: parseMoney(FIRST_RECHARGE_REWARD.amount),
      expiresAt: new Date(now.getTime() + FIRST_RECHARGE_REWARD.days * DAY_MS),
      reference: `first-recharge:${payment.orgId}`,
      note: "first recharge reward",
    });
  }
}

/**
 * An operator confirms money received outside a PSP's notification: a corporate transfer, or a flagged payment
 * they checked. Waiting, closed and failed orders can be confirmed (a transfer often arrives after the order
 * closed); a successful one answers `already`.
 */
export async function confirmPayment(
  opts: BillingScope & { paymentId: string; operator: string; now: Date },
): Promise<"credited" | "already" | "not_found"> {
  return withTransaction({ db: opts.tx ?? opts.ctx.db, log: opts.ctx.log }, async (tx) => {
    const [payment] = await tx
      .select()
      .from(schema.payments)
      .where(eq(schema.payments.id, opts.paymentId))
      .for("update");
    if (!payment) return "not_found";
    if (payment.status === "success") return "already";
    await tx
      .insert(schema.paymentEvents)
      .values({
        id: newId("pev"),
        provider: "operator",
        eventId: `confirm:${payment.id}`,
        paymentId: payment.id,
        outcome: "credited",
      })
      .onConflictDoNothing();
    await tx.insert(schema.operatorActions).values({
      id: newId("opa"),
      actor: opts.operator,
      action: "payment.confirm",
      target: payment.id,
      details: { amount: payment.amount.toString(), payType: payment.payType, previous: payment.status },
    });
    await creditPaidOrder({ ...opts, tx }, payment, opts.now, opts.operator);
    return "credited";
  });
}

/** Closes waiting orders older than `before` (the 1-day auto-close job). Returns how many closed. */
export async function closeUnpaidPayments(opts: BillingScope & { before: Date; now: Date }): Promise<number> {
  const db = opts.tx ?? opts.ctx.db;
  const rows = await db
    .update(schema.payments)
    .set({ status: "closed", finishedAt: opts.now, failureReason: "timeout" })
    .where(
      sql`${schema.payments.status} = 'waiting' and ${schema.payments.createdAt} <= ${opts.before.toISOString()}::timestamptz`,
    )
    .returning({ id: schema.payments.id });
  return rows.length;
}
