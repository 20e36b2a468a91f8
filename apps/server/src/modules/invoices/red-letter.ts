/**
 * Red-letter voiding of an issued invoice (§4 confirmation states 01–09). The platform is the seller (an operator
 * acts in the back office or the CLI), the organization the buyer (its admins act in the console).
 *
 *   start      personal title → 01 (no confirmation needed); company title: seller starts → 02, buyer → 03.
 *              The invoice becomes `refunding`.
 *   answer     the other side of 02/03: confirm → 04; deny → 05 (the buyer denied the seller's 02) or 06 (the
 *              seller denied the buyer's 03). A denial ends the round; the invoice is `success` again.
 *   timeout    02/03 unanswered for 72 hours → 07 (the `invoices.red-letter-timeout` job, clock-driven).
 *   withdraw   by the initiator: 01/02/03 → 08, after both confirmed 04 → 09. The invoice is `success` again.
 *   complete   01 or 04: the seller issues the red-letter invoice (global: a credit note) → the invoice is
 *              `refunded`, its amount goes back to the payments' available amount (it can be invoiced again or
 *              refunded), and the document's PDF is e-mailed.
 *
 * Every move locks the invoice first; a round is open while `closed_at` is null (at most one per invoice).
 */
import { type Locale, RED_LETTER_TIMEOUT_MS } from "@moonport/contracts";
import { newId, schema, type Tx } from "@moonport/db";
import { and, asc, eq, inArray, isNull, lte } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { withTransaction } from "../../lib/transaction.ts";
import { recordOperatorAction } from "../admin/index.ts";
import { invoiceStateError, lockInvoice, releaseInvoiceAmount } from "./apply-invoice.ts";
import { renderVoidPdf } from "./invoice-pdf.ts";
import type { InvoiceRow, RedLetterRow } from "./invoice-view.ts";
import { documentNumber, type IssueContext, mailInvoiceDocument, storePdf } from "./issue-invoice.ts";

export const RED_LETTER_TIMEOUT_JOB = "invoices.red-letter-timeout";

export type Side = "seller" | "buyer";

/** Who acts: the buyer is an organization admin (its orgId scopes the invoice), the seller an operator. */
export type RedLetterActor = { side: "buyer"; orgId: string; userId: string } | { side: "seller"; operator: string };

async function openRound(tx: Tx, invoiceId: string): Promise<RedLetterRow | undefined> {
  const [round] = await tx
    .select()
    .from(schema.redLetterRequests)
    .where(and(eq(schema.redLetterRequests.invoiceId, invoiceId), isNull(schema.redLetterRequests.closedAt)))
    .for("update");
  return round;
}

const stateError = (state: string) => new AppError("red_letter_state", { params: { state } });

async function audit(tx: Tx, actor: RedLetterActor, inv: InvoiceRow, action: string, before: unknown, after: unknown) {
  if (actor.side !== "seller") return;
  await recordOperatorAction(tx, {
    actor: actor.operator,
    action: `invoice.red_letter.${action}`,
    target: inv.id,
    before,
    after,
    details: { orgId: inv.orgId },
  });
}

/** Runs one red-letter move on the locked invoice and its open round. */
async function move<T>(
  ctx: Pick<AppContext, "db" | "clock">,
  invoiceId: string,
  actor: RedLetterActor,
  fn: (tx: Tx, inv: InvoiceRow, round: RedLetterRow | undefined) => Promise<T>,
): Promise<T> {
  return withTransaction(ctx, async (tx) => {
    const inv = await lockInvoice(tx, invoiceId, actor.side === "buyer" ? actor.orgId : undefined);
    return fn(tx, inv, await openRound(tx, inv.id));
  });
}

async function setInvoice(tx: Tx, id: string, values: Partial<typeof schema.invoices.$inferInsert>) {
  await tx.update(schema.invoices).set(values).where(eq(schema.invoices.id, id));
}

export async function startRedLetter(opts: {
  ctx: IssueContext;
  invoiceId: string;
  actor: RedLetterActor;
  reason: string;
  locale?: Locale;
}) {
  const { ctx, actor } = opts;
  return move(ctx, opts.invoiceId, actor, async (tx, inv) => {
    if (inv.status !== "success") throw invoiceStateError(inv.status, opts.locale);
    const state = inv.titleType === "personal" ? "01" : actor.side === "seller" ? "02" : "03";
    const now = ctx.clock.now();
    await tx.insert(schema.redLetterRequests).values({
      id: newId("rlr"),
      invoiceId: inv.id,
      orgId: inv.orgId,
      initiator: actor.side,
      state,
      reason: opts.reason.trim(),
      createdBy: actor.side === "seller" ? actor.operator : actor.userId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + RED_LETTER_TIMEOUT_MS),
    });
    await setInvoice(tx, inv.id, { status: "refunding" });
    await audit(tx, actor, inv, "start", { status: inv.status }, { status: "refunding", state });
    return state;
  });
}

export async function answerRedLetter(opts: {
  ctx: IssueContext;
  invoiceId: string;
  actor: RedLetterActor;
  answer: "confirm" | "deny";
}) {
  const { ctx, actor } = opts;
  return move(ctx, opts.invoiceId, actor, async (tx, inv, round) => {
    if (!round) throw invoiceStateError(inv.status);
    if (round.state !== "02" && round.state !== "03") throw stateError(round.state);
    // 02 waits for the buyer, 03 for the seller.
    if ((round.state === "02") !== (actor.side === "buyer")) throw new AppError("red_letter_not_yours");
    const now = ctx.clock.now();
    const state = opts.answer === "confirm" ? "04" : round.state === "02" ? "05" : "06";
    await tx
      .update(schema.redLetterRequests)
      .set(opts.answer === "confirm" ? { state, confirmedAt: now } : { state, closedAt: now })
      .where(eq(schema.redLetterRequests.id, round.id));
    if (opts.answer === "deny") await setInvoice(tx, inv.id, { status: "success" });
    await audit(tx, actor, inv, opts.answer, { state: round.state }, { state });
    return state;
  });
}

export async function withdrawRedLetter(opts: { ctx: IssueContext; invoiceId: string; actor: RedLetterActor }) {
  const { ctx, actor } = opts;
  return move(ctx, opts.invoiceId, actor, async (tx, inv, round) => {
    if (!round) throw invoiceStateError(inv.status);
    if (round.initiator !== actor.side) throw new AppError("red_letter_not_yours");
    const state = round.state === "04" ? "09" : "08";
    await tx
      .update(schema.redLetterRequests)
      .set({ state, closedAt: ctx.clock.now() })
      .where(eq(schema.redLetterRequests.id, round.id));
    await setInvoice(tx, inv.id, { status: "success" });
    await audit(tx, actor, inv, "withdraw", { state: round.state }, { state });
    return state;
  });
}

/**
 * The seller issues the voiding document of a round in 01 or 04 — the red-letter invoice (cn, with the tax
 * system's number) or the credit note (global, numbered by the platform unless given): the invoice is voided
 * (`refunded`), its amount is available again, and the document's PDF is stored and e-mailed like the invoice's.
 */
export async function completeRedLetter(opts: {
  ctx: IssueContext;
  invoiceId: string;
  redInvoiceNo: string | undefined;
  operator: string;
}) {
  const { ctx } = opts;
  const actor: RedLetterActor = { side: "seller", operator: opts.operator };
  return move(ctx, opts.invoiceId, actor, async (tx, inv, round) => {
    if (!round) throw invoiceStateError(inv.status);
    if (round.state !== "01" && round.state !== "04") throw stateError(round.state);
    const now = ctx.clock.now();
    const redInvoiceNo = documentNumber(inv, opts.redInvoiceNo, "CN", now);
    const voided: InvoiceRow = { ...inv, status: "refunded", redInvoiceNo, finishedAt: now };
    const voidPdfKey = `invoices/${inv.orgId}/${inv.id}-void.pdf`;
    await storePdf(ctx, voidPdfKey, await renderVoidPdf(ctx.config, voided, now));
    await tx.update(schema.redLetterRequests).set({ closedAt: now }).where(eq(schema.redLetterRequests.id, round.id));
    await releaseInvoiceAmount(tx, inv.id);
    await setInvoice(tx, inv.id, { status: "refunded", redInvoiceNo, voidPdfKey, finishedAt: now });
    await mailInvoiceDocument(ctx, tx, inv, {
      template: "invoice_voided",
      params: (locale) => ({
        invoiceNo: inv.invoiceNo ?? "-",
        voidNo: redInvoiceNo,
        document: VOID_DOCUMENT[inv.currency === "CNY" ? "cn" : "global"][locale],
      }),
      file: { name: `${inv.currency === "CNY" ? "red-invoice" : "credit-note"}-${redInvoiceNo}.pdf`, key: voidPdfKey },
    });
    await audit(tx, actor, inv, "complete", { status: inv.status }, { status: "refunded", redInvoiceNo });
    return round.state;
  });
}

const VOID_DOCUMENT = {
  cn: { "en-US": "red-letter invoice", "zh-CN": "红字发票" },
  global: { "en-US": "credit note", "zh-CN": "贷项通知单（credit note）" },
} as const;

/** 02/03 rounds unanswered for 72 hours become 07 and their invoices `success` again. Returns how many. */
export async function expireRedLetters(opts: { ctx: AppContext; now: Date }): Promise<number> {
  const { ctx, now } = opts;
  const due = await ctx.db
    .select({ invoiceId: schema.redLetterRequests.invoiceId })
    .from(schema.redLetterRequests)
    .where(
      and(
        inArray(schema.redLetterRequests.state, ["02", "03"]),
        isNull(schema.redLetterRequests.closedAt),
        lte(schema.redLetterRequests.expiresAt, now),
      ),
    )
    .orderBy(asc(schema.redLetterRequests.expiresAt))
    .limit(500);
  let n = 0;
  for (const { invoiceId } of due) {
    // Each invoice on its own: an answer that won the race in the meantime stands.
    const expired = await withTransaction(ctx, async (tx) => {
      const inv = await lockInvoice(tx, invoiceId);
      const round = await openRound(tx, inv.id);
      if (!round || (round.state !== "02" && round.state !== "03") || round.expiresAt > now) return false;
      await tx
        .update(schema.redLetterRequests)
        .set({ state: "07", closedAt: now })
        .where(eq(schema.redLetterRequests.id, round.id));
      await setInvoice(tx, inv.id, { status: "success" });
      return true;
    });
    if (expired) n++;
  }
  return n;
}
