/**
 * The refund state machine (modules/refunds/README.md):
 *
 *   requested ──approve──► refunding ──provider refunds──► refunded (a card order's invoice: voided or credited)
 *                              │   └──provider answers pending: stays refunding until its notification or a poll
 *       │                      │   └──(manual) operator marks done with a reference──► refunded
 *       ├──reject (reason)──► rejected
 *       └──cancel (org admin)─► cancelled     refunding ──provider refuses──► failed ──retry──► refunding
 *
 * Ledger first: approving debits the cash (billing core, kind `refund`, reference `refund:<id>:<attempt>`) in the
 * same transaction as the move to `refunding`, and only then is the provider asked, by the durable job
 * `refunds.execute` enqueued in that transaction. Taking the cash first means it can never be spent by the gateway
 * and refunded too; a refusal gives it back with a reversal entry. The provider call carries the idempotency key
 * `moonport-refund-<id>-<attempt>`, so a job run again after a crash between the provider's answer and our commit
 * (its lease expires, another run claims it) gets the same refund back instead of a second one.
 *
 * Every move locks the organization, then the payment, then the refund (the order requests lock in), and checks the
 * state under those locks: two operators approving at once approve once.
 */
import { formatMoney } from "@moonport/contracts";
import { schema, type Tx } from "@moonport/db";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { enqueueJob } from "../../jobs/runner.ts";
import { AppError } from "../../lib/app-error.ts";
import { withTransaction } from "../../lib/transaction.ts";
import { recordOperatorAction } from "../admin/index.ts";
import { debitCash, getOrganizationBalance, lockOrganizations, reverseRefundDebit } from "../billing/index.ts";
import { cancelOrderInvoiceCredit, creditOrderInvoice } from "../invoices/index.ts";
import type { RefundOutcome } from "../payments/index.ts";
import { providerNamed } from "../payments/index.ts";
import { enqueueRefundMail } from "./refund-mail.ts";
import type { PaymentRow, RefundRow } from "./refund-view.ts";
import { holdOnPayment, paymentRefusal } from "./request-refunds.ts";

export const EXECUTE_JOB = "refunds.execute";
/** Provider attempts before a refund that keeps failing to reach the provider is marked failed. */
export const EXECUTE_ATTEMPTS = 8;

/** What the state changes need: the CLI has these too (the job it enqueues runs in a server). */
type Ctx = Pick<AppContext, "db" | "log" | "clock" | "keyEvents">;
const debitReference = (r: Pick<RefundRow, "id" | "attempt">) => `refund:${r.id}:${r.attempt}`;
/** The provider's idempotency key of one attempt (WeChat Pay's `out_refund_no`, by which it is looked up too). */
const refundIdempotencyKey = (refundId: string, attempt: number) => `moonport-refund-${refundId}-${attempt}`;

/** Whether the payment's provider refunds through its API; otherwise an operator pays back by hand. */
export function refundsByHand(ctx: AppContext, payment: Pick<PaymentRow, "provider">): boolean {
  return !providerNamed(ctx, payment.provider)?.refund;
}

/** Locks the refund's organization, payment and the refund itself, in that order. */
async function lockRefund(
  tx: Tx,
  refundId: string,
  orgId?: string,
): Promise<{ refund: RefundRow; payment: PaymentRow }> {
  const [head] = await tx
    .select({ orgId: schema.refunds.orgId, paymentId: schema.refunds.paymentId })
    .from(schema.refunds)
    .where(and(eq(schema.refunds.id, refundId), orgId ? eq(schema.refunds.orgId, orgId) : undefined));
  if (!head) throw new AppError("not_found");
  await lockOrganizations(tx, [head.orgId]);
  const [payment] = await tx.select().from(schema.payments).where(eq(schema.payments.id, head.paymentId)).for("update");
  const [refund] = await tx.select().from(schema.refunds).where(eq(schema.refunds.id, refundId)).for("update");
  return { refund: refund!, payment: payment! };
}

function inTx<T>(ctx: Ctx, fn: (tx: Tx) => Promise<T>) {
  return withTransaction({ db: ctx.db, log: ctx.log }, fn);
}

/** requested → cancelled, by an organization admin: the held amount goes back to the payment. */
export async function cancelRefund(opts: { ctx: Ctx; access: OrgAccess; refundId: string }): Promise<RefundRow> {
  return inTx(opts.ctx, async (tx) => {
    const { refund } = await lockRefund(tx, opts.refundId, opts.access.org.id);
    if (refund.status !== "requested") throw new AppError("refund_not_requested");
    await holdOnPayment(tx, refund.paymentId, -refund.amount);
    const [row] = await tx
      .update(schema.refunds)
      .set({ status: "cancelled", finishedAt: opts.ctx.clock.now() })
      .where(eq(schema.refunds.id, refund.id))
      .returning();
    return row!;
  });
}

/**
 * requested → rejected with the operator's reason; the held amount goes back to the payment and the requester is
 * e-mailed the reason.
 */
export async function rejectRefund(opts: {
  ctx: Ctx & Pick<AppContext, "config">;
  refundId: string;
  reason: string;
  operator: string;
}) {
  const reason = opts.reason.trim();
  if (!reason) throw new AppError("validation_failed", { details: [{ path: "reason", message: "required" }] });
  return inTx(opts.ctx, async (tx) => {
    const { refund } = await lockRefund(tx, opts.refundId);
    if (refund.status !== "requested") throw new AppError("refund_not_requested");
    await holdOnPayment(tx, refund.paymentId, -refund.amount);
    const [row] = await tx
      .update(schema.refunds)
      .set({ status: "rejected", rejectReason: reason, decidedBy: opts.operator, finishedAt: opts.ctx.clock.now() })
      .where(eq(schema.refunds.id, refund.id))
      .returning();
    await enqueueRefundMail(opts.ctx, tx, "refund_rejected", [row!]);
    await recordOperatorAction(tx, {
      actor: opts.operator,
      action: "refund.reject",
      target: refund.id,
      before: { status: refund.status },
      after: { status: "rejected", reason },
      details: { orgId: refund.orgId, paymentId: refund.paymentId, amount: refund.amount.toString() },
    });
    return row!;
  });
}

/**
 * requested → refunding (approve) or failed → refunding (retry): the cash leaves the balance now (never below
 * zero: cash spent since the request cannot be refunded), then the provider is asked by the job, or an operator
 * pays back by hand. A retry holds the amount on the payment again, so it re-checks what is left of it.
 */
export async function approveRefund(opts: { ctx: Ctx; refundId: string; operator: string; retry?: boolean }) {
  const { ctx } = opts;
  return inTx(ctx, async (tx) => {
    const { refund, payment } = await lockRefund(tx, opts.refundId);
    if (opts.retry) {
      if (refund.status !== "failed") throw new AppError("refund_not_failed");
      const refusal = paymentRefusal(payment, refund.amount);
      if (refusal) throw refusal;
      await holdOnPayment(tx, payment.id, refund.amount);
    } else if (refund.status !== "requested") {
      throw new AppError("refund_not_requested");
    }
    const next = { ...refund, attempt: refund.attempt + 1 };
    try {
      await debitCash({
        ctx,
        tx,
        orgId: refund.orgId,
        amount: refund.amount,
        kind: "refund",
        reference: debitReference(next),
        note: `refund of payment ${payment.id}`,
        createdBy: opts.operator,
      });
    } catch (err) {
      if (!(err instanceof RangeError)) throw err;
      const balance = await getOrganizationBalance({ db: tx, orgId: refund.orgId });
      throw new AppError("refund_exceeds_balance", {
        params: { available: formatMoney(balance?.cash ?? 0n, refund.currency) },
      });
    }
    const [row] = await tx
      .update(schema.refunds)
      .set({
        status: "refunding",
        attempt: next.attempt,
        failureReason: null,
        decidedBy: opts.operator,
        approvedAt: ctx.clock.now(),
      })
      .where(eq(schema.refunds.id, refund.id))
      .returning();
    // Enqueued for every refund: for one paid back by hand the job finds no refund API and leaves it to the
    // operator, so approving needs no provider configuration (the CLI approves too).
    await enqueueJob(
      ctx,
      {
        name: EXECUTE_JOB,
        payload: { refundId: refund.id, attempt: next.attempt },
        key: debitReference(next),
        maxAttempts: EXECUTE_ATTEMPTS,
      },
      { tx },
    );
    await recordOperatorAction(tx, {
      actor: opts.operator,
      action: opts.retry ? "refund.retry" : "refund.approve",
      target: refund.id,
      before: { status: refund.status },
      after: { status: "refunding", attempt: next.attempt },
      details: { orgId: refund.orgId, paymentId: payment.id, amount: refund.amount.toString() },
    });
    return row!;
  });
}

/** refunding → refunded for a refund paid back by hand (corporate transfer): the operator's bank reference. */
export async function completeManualRefund(opts: {
  ctx: AppContext;
  refundId: string;
  reference: string;
  operator: string;
}) {
  const reference = opts.reference.trim();
  if (!reference) throw new AppError("validation_failed", { details: [{ path: "reference", message: "required" }] });
  return inTx(opts.ctx, async (tx) => {
    const { refund, payment } = await lockRefund(tx, opts.refundId);
    if (refund.status !== "refunding" || !refundsByHand(opts.ctx, payment)) throw new AppError("refund_not_manual");
    const [row] = await tx
      .update(schema.refunds)
      .set({ status: "refunded", transferReference: reference, finishedAt: opts.ctx.clock.now() })
      .where(eq(schema.refunds.id, refund.id))
      .returning();
    await creditOrderInvoice(opts.ctx, tx, refund, payment);
    await enqueueRefundMail(opts.ctx, tx, "refund_completed", [row!]);
    await recordOperatorAction(tx, {
      actor: opts.operator,
      action: "refund.complete",
      target: refund.id,
      before: { status: refund.status },
      after: { status: "refunded", reference },
      details: { orgId: refund.orgId, paymentId: payment.id, amount: refund.amount.toString() },
    });
    return row!;
  });
}

/**
 * The `refunds.execute` job: asks the provider to refund (idempotency key per attempt) and records its answer. A
 * throw (network, 5xx) retries the job with backoff; on the last attempt the refund is marked failed and the cash
 * given back, so nothing waits forever. A stale job (the refund moved on, or another attempt) does nothing.
 */
export async function executeRefund(ctx: AppContext, job: { refundId: string; attempt: number; lastAttempt: boolean }) {
  const [row] = await ctx.db
    .select({ refund: schema.refunds, payment: schema.payments })
    .from(schema.refunds)
    .innerJoin(schema.payments, eq(schema.payments.id, schema.refunds.paymentId))
    .where(eq(schema.refunds.id, job.refundId));
  if (row?.refund.status !== "refunding" || row.refund.attempt !== job.attempt) return;
  const provider = providerNamed(ctx, row.payment.provider);
  if (!provider?.refund) return;
  const [card] = row.payment.cardId
    ? await ctx.db.select().from(schema.paymentCards).where(eq(schema.paymentCards.id, row.payment.cardId))
    : [];
  let outcome: RefundOutcome;
  try {
    outcome = await provider.refund(
      row.payment,
      {
        idempotencyKey: refundIdempotencyKey(row.refund.id, job.attempt),
        refundId: row.refund.id,
        amount: row.refund.amount,
      },
      card ?? null,
    );
  } catch (err) {
    ctx.log.warn({ refundId: row.refund.id, err: (err as Error).name }, "refund provider call failed; will retry");
    if (!job.lastAttempt) throw err;
    outcome = { status: "refused", reason: "the payment provider could not be reached" };
  }
  await recordRefundOutcome(ctx, row.refund.id, job.attempt, outcome);
}

/**
 * refunding → refunded | failed, once: a second answer for the same attempt finds the refund moved on. A `pending`
 * answer keeps it `refunding` (nothing is counted as refunded yet) with the provider's refund id, and polls the
 * provider until it settles, unless its notification comes first. `providerRef` (a notification's) must name the
 * refund we recorded; with it, a refund the provider reported done and later failed (Stripe: `succeeded`, then
 * `failed` by `charge.refund.updated`) goes refunded → failed and its cash comes back.
 */
export async function recordRefundOutcome(
  ctx: AppContext,
  refundId: string,
  attempt: number,
  outcome: RefundOutcome,
  providerRef?: string,
) {
  await inTx(ctx, async (tx) => {
    const { refund, payment } = await lockRefund(tx, refundId);
    if (refund.attempt !== attempt) return;
    if (providerRef !== undefined && refund.providerRef !== providerRef) return;
    const failedAfterwards = refund.status === "refunded" && providerRef !== undefined && outcome.status === "refused";
    if (refund.status !== "refunding" && !failedAfterwards) return;
    const now = ctx.clock.now();
    if (outcome.status === "pending") {
      if (refund.providerRef === outcome.providerRef) return; // already waiting for it
      await tx.update(schema.refunds).set({ providerRef: outcome.providerRef }).where(eq(schema.refunds.id, refund.id));
      await enqueuePoll(ctx, tx, { refundId: refund.id, attempt, polls: 0 });
      return;
    }
    if (outcome.status === "refunded") {
      const [row] = await tx
        .update(schema.refunds)
        .set({ status: "refunded", providerRef: outcome.providerRef, finishedAt: now })
        .where(eq(schema.refunds.id, refund.id))
        .returning();
      // The money is back with the customer: the order's invoice must not still say it was paid.
      await creditOrderInvoice(ctx, tx, refund, payment);
      await enqueueRefundMail(ctx, tx, "refund_completed", [row!]);
      return;
    }
    if (failedAfterwards) await cancelOrderInvoiceCredit(ctx, tx, refund.id);
    await reverseRefundDebit({
      ctx,
      tx,
      orgId: refund.orgId,
      amount: refund.amount,
      debitReference: debitReference(refund),
      note: `refund ${refund.id} refused by the provider`,
    });
    await holdOnPayment(tx, refund.paymentId, -refund.amount);
    await tx
      .update(schema.refunds)
      .set({ status: "failed", failureReason: outcome.reason.slice(0, 200), finishedAt: now })
      .where(eq(schema.refunds.id, refund.id));
  });
}

export const POLL_JOB = "refunds.poll";
/** Polls of a pending refund before it is left to the provider's notification (about three days, then hourly). */
export const MAX_POLLS = 72;
const pollDelayMs = (polls: number) => Math.min(3_600_000, 60_000 * 2 ** polls);

async function enqueuePoll(ctx: Pick<AppContext, "db" | "clock">, tx: Tx, p: PollPayload) {
  await enqueueJob(
    ctx,
    {
      name: POLL_JOB,
      payload: p,
      key: `refund-poll:${p.refundId}:${p.attempt}:${p.polls}`,
      runAt: new Date(ctx.clock.now().getTime() + pollDelayMs(p.polls)),
    },
    { tx },
  );
}

export interface PollPayload {
  refundId: string;
  attempt: number;
  polls: number;
}

/**
 * The `refunds.poll` job: asks the provider where a pending refund stands. Still pending → asked again later (1,
 * 2, 4 … minutes, at most hourly, MAX_POLLS times); settled → recorded. A notification that settled it first makes
 * this a no-op. A throw (network) is retried by the runner.
 */
export async function pollRefund(ctx: AppContext, p: PollPayload) {
  const [row] = await ctx.db
    .select({ refund: schema.refunds, payment: schema.payments })
    .from(schema.refunds)
    .innerJoin(schema.payments, eq(schema.payments.id, schema.refunds.paymentId))
    .where(eq(schema.refunds.id, p.refundId));
  if (row?.refund.status !== "refunding" || row.refund.attempt !== p.attempt || !row.refund.providerRef) return;
  const provider = providerNamed(ctx, row.payment.provider);
  if (!provider?.refundStatus) return;
  const outcome = await provider.refundStatus(row.payment, {
    providerRef: row.refund.providerRef,
    idempotencyKey: refundIdempotencyKey(p.refundId, p.attempt),
  });
  if (outcome.status !== "pending") {
    await recordRefundOutcome(ctx, p.refundId, p.attempt, outcome, row.refund.providerRef);
    return;
  }
  if (p.polls + 1 >= MAX_POLLS) {
    ctx.log.warn({ refundId: p.refundId }, "refund still pending at the provider; waiting for its notification");
    return;
  }
  await withTransaction(ctx, (tx) => enqueuePoll(ctx, tx, { ...p, polls: p.polls + 1 }));
}

/**
 * A provider's authenticated refund notification: settles the refund it names if it is the one we recorded
 * (same provider refund id, current attempt); anything else (stale, unknown, still pending) changes nothing.
 */
export async function settleRefundNotification(
  ctx: AppContext,
  n: { refundId: string; providerRef: string; outcome: RefundOutcome },
): Promise<"settled" | "ignored"> {
  const [refund] = await ctx.db.select().from(schema.refunds).where(eq(schema.refunds.id, n.refundId));
  if (!refund || refund.providerRef !== n.providerRef || n.outcome.status === "pending") return "ignored";
  await recordRefundOutcome(ctx, refund.id, refund.attempt, n.outcome, n.providerRef);
  return "settled";
}

/** The operator's queue: open refunds (requested, refunding, failed) oldest first, or those of one status. */
export async function listRefundQueue(opts: { ctx: Pick<AppContext, "db">; status?: RefundRow["status"] }) {
  const r = schema.refunds;
  const rows = await opts.ctx.db
    .select({
      refund: r,
      paymentType: schema.payments.payType,
      paymentCreatedAt: schema.payments.createdAt,
      provider: schema.payments.provider,
      orgName: schema.organizations.name,
    })
    .from(r)
    .innerJoin(schema.payments, eq(schema.payments.id, r.paymentId))
    .innerJoin(schema.organizations, eq(schema.organizations.id, r.orgId))
    .where(opts.status ? eq(r.status, opts.status) : inArray(r.status, ["requested", "refunding", "failed"]))
    .orderBy(asc(r.createdAt), asc(r.id))
    .limit(200);
  return rows;
}
