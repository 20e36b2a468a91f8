/**
 * Applying for a cn VAT invoice over paid recharges (§5), and withdrawing an application before it is issued.
 *
 * The available amount of a payment is amount − invoiced − refunded (`payments.invoiced_amount` is written only
 * here and by the release below, `refunded_amount` only by modules/refunds). The check and the increase happen
 * under row locks on the payments, taken in id order, in the invoice's transaction: two applications racing for
 * the same payment serialize, and the second sees what the first took.
 */
import {
  type ApplyInvoiceRequest,
  EDITION_TIME_ZONE,
  formatMoney,
  type Invoice,
  type Locale,
  parseMoney,
  specialInvoiceProblems,
  splitTax,
  VAT_RATE_BP,
  vmsg,
} from "@moonport/contracts";
import { newId, schema, type Tx } from "@moonport/db";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { withTransaction } from "../../lib/transaction.ts";
import type { OrgAccess } from "../orgs/access.ts";
import { type InvoiceRow, toInvoices } from "./invoice-view.ts";
import { AUTO_ISSUE_JOB } from "./issue-invoice.ts";

/** Invoicing needs identity verification, personal or company (§6). */
export function assertInvoicingAllowed(org: OrgAccess["org"]): void {
  if (org.verification === "unverified") throw new AppError("invoice_needs_verification");
}

export type Problem = { path: string; message: string };

export async function applyInvoice(opts: {
  ctx: AppContext;
  access: OrgAccess;
  body: ApplyInvoiceRequest;
  locale: Locale;
}): Promise<Invoice> {
  const { ctx, access, body } = opts;
  const { org } = access;
  if (org.edition !== "cn") throw new AppError("not_found");
  assertInvoicingAllowed(org);

  const problems: Problem[] = [];
  const wanted = readWantedItems(body.items, problems);

  const [title] = await ctx.db
    .select()
    .from(schema.invoiceTitles)
    .where(and(eq(schema.invoiceTitles.id, body.titleId), eq(schema.invoiceTitles.orgId, org.id)));
  if (!title) problems.push({ path: "titleId", message: vmsg("required") });
  else if (title.status !== "normal") problems.push({ path: "titleId", message: vmsg("invoice_title_invalid") });
  else if (body.invoiceType === "special") {
    const missing = specialInvoiceProblems(title);
    if (missing.includes("titleType")) problems.push({ path: "invoiceType", message: vmsg("special_needs_company") });
    else if (missing.length) problems.push({ path: "titleId", message: vmsg("special_needs_field") });
  }
  if (problems.length) throw new AppError("validation_failed", { details: problems });

  const gross = wanted.reduce((s, w) => s + w.amount, 0n);
  const { net, tax } = splitTax(gross, VAT_RATE_BP);
  const id = newId("inv");
  const row = await withTransaction(ctx, async (tx) => {
    await checkAvailable(tx, org.id, wanted);
    const [inserted] = await tx
      .insert(schema.invoices)
      .values({
        id,
        orgId: org.id,
        titleId: title!.id,
        method: body.method,
        titleType: title!.titleType,
        invoiceType: body.invoiceType,
        title: title!.title,
        uscc: title!.uscc,
        bankName: title!.bankName,
        bankAccount: title!.bankAccount,
        companyAddress: title!.companyAddress,
        companyPhone: title!.companyPhone,
        email: body.email,
        currency: org.currency,
        amount: gross,
        net,
        tax,
        taxRateBp: VAT_RATE_BP,
        locale: opts.locale,
        createdBy: access.userId,
        createdAt: ctx.clock.now(),
      })
      .returning();
    await holdInvoiceAmount(tx, id, wanted);
    // Electronic general invoices may be issued without an operator (INVOICE_AUTO_ISSUE): a job after the commit.
    if (ctx.config.invoices.autoIssue && body.method === "electronic" && body.invoiceType === "general") {
      await ctx.jobs.enqueue({ name: AUTO_ISSUE_JOB, payload: { invoiceId: id } }, { tx });
    }
    return inserted!;
  });
  const [view] = await toInvoices(ctx.db, [row]);
  return view!;
}

/** One recharge an invoice covers: `index` is its place in the request, for field problems. */
export interface WantedItem {
  index: number;
  paymentId: string;
  amount: bigint;
}

/** The requested recharges as exact amounts; a non-positive amount or a payment listed twice is a problem. */
export function readWantedItems(items: { paymentId: string; amount: string }[], problems: Problem[]): WantedItem[] {
  const seen = new Set<string>();
  return items.map((item, i) => {
    const amount = parseMoney(item.amount);
    if (amount <= 0n) problems.push({ path: `items.${i}.amount`, message: vmsg("invoice_amount_positive") });
    if (seen.has(item.paymentId))
      problems.push({ path: `items.${i}.paymentId`, message: vmsg("invoice_duplicate_payment") });
    seen.add(item.paymentId);
    return { index: i, paymentId: item.paymentId, amount };
  });
}

/**
 * Locks the organization's payments an invoice is to cover (in id order) and checks each amount against what is
 * available (amount − invoiced − refunded); field problems as a validation error. The caller's transaction keeps
 * the locks until `holdInvoiceAmount` has taken the amounts.
 */
export async function checkAvailable(tx: Tx, orgId: string, wanted: WantedItem[]): Promise<void> {
  const problems: Problem[] = [];
  const ids = [...new Set(wanted.map((w) => w.paymentId))].sort();
  const payments = await tx
    .select()
    .from(schema.payments)
    .where(and(inArray(schema.payments.id, ids), eq(schema.payments.orgId, orgId)))
    .orderBy(asc(schema.payments.id))
    .for("update");
  for (const w of wanted) {
    const p = payments.find((x) => x.id === w.paymentId);
    if (p?.status !== "success") {
      problems.push({ path: `items.${w.index}.paymentId`, message: vmsg("invoice_payment_unavailable") });
      continue;
    }
    const available = p.amount - p.invoicedAmount - p.refundedAmount;
    if (w.amount > available) {
      problems.push({
        path: `items.${w.index}.amount`,
        message: vmsg("invoice_amount_exceeds", { available: formatMoney(available, p.currency) }),
      });
    }
  }
  if (problems.length) throw new AppError("validation_failed", { details: problems });
}

/** Records which payments the (inserted) invoice covers and adds the amounts to their invoiced amount. */
export async function holdInvoiceAmount(tx: Tx, invoiceId: string, wanted: WantedItem[]): Promise<void> {
  await tx
    .insert(schema.invoicePayments)
    .values(wanted.map((w) => ({ invoiceId, paymentId: w.paymentId, amount: w.amount })));
  for (const w of wanted) {
    await tx
      .update(schema.payments)
      .set({ invoicedAmount: sql`${schema.payments.invoicedAmount} + ${w.amount}` })
      .where(eq(schema.payments.id, w.paymentId));
  }
}

/** Locks an invoice of the organization (any organization when `orgId` is undefined: operators). */
export async function lockInvoice(tx: Tx, invoiceId: string, orgId?: string): Promise<InvoiceRow> {
  const [row] = await tx
    .select()
    .from(schema.invoices)
    .where(
      orgId === undefined
        ? eq(schema.invoices.id, invoiceId)
        : and(eq(schema.invoices.id, invoiceId), eq(schema.invoices.orgId, orgId)),
    )
    .for("update");
  if (!row) throw new AppError("not_found");
  return row;
}

/**
 * Gives an invoice's amounts back to its payments' available amount (failed, withdrawn or voided invoices). The
 * caller holds the invoice's lock; the payments are locked in id order like an application takes them.
 */
export async function releaseInvoiceAmount(tx: Tx, invoiceId: string): Promise<void> {
  const items = await tx
    .select()
    .from(schema.invoicePayments)
    .where(eq(schema.invoicePayments.invoiceId, invoiceId))
    .orderBy(asc(schema.invoicePayments.paymentId));
  if (!items.length) return;
  await tx
    .select({ id: schema.payments.id })
    .from(schema.payments)
    .where(
      inArray(
        schema.payments.id,
        items.map((i) => i.paymentId),
      ),
    )
    .orderBy(asc(schema.payments.id))
    .for("update");
  for (const item of items) {
    await tx
      .update(schema.payments)
      .set({ invoicedAmount: sql`${schema.payments.invoicedAmount} - ${item.amount}` })
      .where(eq(schema.payments.id, item.paymentId));
  }
}

/** The status label of §4 in the caller's language, for "not possible while …" messages. */
export function invoiceStateError(status: InvoiceRow["status"], locale: Locale = "en-US"): AppError {
  return new AppError("invoice_state", { params: { status: STATUS_WORD[status][locale] } });
}
const STATUS_WORD: Record<InvoiceRow["status"], Record<Locale, string>> = {
  waiting: { "en-US": "processing", "zh-CN": "开票中" },
  success: { "en-US": "issued", "zh-CN": "已开票" },
  failed: { "en-US": "failed", "zh-CN": "开票失败" },
  refunding: { "en-US": "being voided", "zh-CN": "红冲中" },
  refunded: { "en-US": "voided", "zh-CN": "已红冲" },
  imported: { "en-US": "imported", "zh-CN": "已导入" },
  invalid: { "en-US": "withdrawn", "zh-CN": "已作废" },
};

/** The applicant withdraws an application the platform has not issued yet: waiting → invalid, amount released. */
export async function withdrawInvoice(opts: { ctx: AppContext; access: OrgAccess; invoiceId: string; locale: Locale }) {
  const { ctx } = opts;
  const row = await withTransaction(ctx, async (tx) => {
    const inv = await lockInvoice(tx, opts.invoiceId, opts.access.org.id);
    if (inv.status !== "waiting") throw invoiceStateError(inv.status, opts.locale);
    await releaseInvoiceAmount(tx, inv.id);
    const [updated] = await tx
      .update(schema.invoices)
      .set({ status: "invalid", finishedAt: ctx.clock.now() })
      .where(eq(schema.invoices.id, inv.id))
      .returning();
    return updated!;
  });
  const [view] = await toInvoices(ctx.db, [row]);
  return view!;
}

/** Local date (YYYY-MM-DD) of a time in the edition's zone, for documents. */
export function editionDate(edition: "cn" | "global", at: Date): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: EDITION_TIME_ZONE[edition] }).format(at);
}
