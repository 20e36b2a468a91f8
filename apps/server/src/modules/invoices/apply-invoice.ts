/**
 * Applying for an invoice over paid recharges (§5) — a cn VAT invoice under a saved title, or a global tax invoice
 * with GST to the organization's invoice information — and withdrawing an application before it is issued.
 *
 * The available amount of a payment is amount − invoiced − refunded (`payments.invoiced_amount` is written only
 * here and by the release below, `refunded_amount` only by modules/refunds). The check and the increase happen
 * under row locks on the payments, taken in id order, in the invoice's transaction: two applications racing for
 * the same payment serialize, and the second sees what the first took.
 */
import {
  type ApplyInvoiceRequest,
  type ApplyTaxInvoiceRequest,
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
import type { OrgAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { withTransaction } from "../../lib/transaction.ts";
import { type InvoiceRow, toInvoices } from "./invoice-view.ts";

/** The job that issues an applied invoice (issue-invoice.ts runs it); named here, where it is enqueued. */
export const AUTO_ISSUE_JOB = "invoices.auto-issue";

/** Invoicing needs identity verification, personal or company (§6). */
export function assertInvoicingAllowed(org: OrgAccess["org"]): void {
  if (org.verification === "unverified") throw new AppError("invoice_needs_verification");
}

export type Problem = { path: string; message: string };
export type Wanted = { index: number; paymentId: string; amount: bigint };
type InvoiceValues = Omit<
  typeof schema.invoices.$inferInsert,
  "id" | "orgId" | "currency" | "amount" | "net" | "tax" | "taxRateBp" | "locale" | "createdBy" | "createdAt"
>;

/** The typed amounts of an application's items, with their field problems. */
export function readItems(items: ApplyInvoiceRequest["items"], problems: Problem[]): Wanted[] {
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
 * The part both editions share: under the payments' row locks, checks each amount against what is still
 * available (`checkAvailable`), records the invoice at `rateBp` (the split computed once, here) and holds the
 * amounts on the payments (`holdInvoiceAmount`; an operator's import does the same).
 */
async function recordApplication(opts: {
  ctx: AppContext;
  access: OrgAccess;
  locale: Locale;
  wanted: Wanted[];
  rateBp: number;
  values: InvoiceValues;
  ownInvoice?: (tx: Tx, paymentIds: string[]) => Promise<Set<string>>;
  afterInsert?: (tx: Tx, id: string) => Promise<void>;
}): Promise<Invoice> {
  const { ctx, access, wanted } = opts;
  const { org } = access;
  const gross = wanted.reduce((s, w) => s + w.amount, 0n);
  const { net, tax } = splitTax(gross, opts.rateBp);
  const id = newId("inv");
  const row = await withTransaction(ctx, async (tx) => {
    await checkAvailable(tx, org.id, wanted, opts.ownInvoice);
    const [inserted] = await tx
      .insert(schema.invoices)
      .values({
        ...opts.values,
        id,
        orgId: org.id,
        currency: org.currency,
        amount: gross,
        net,
        tax,
        taxRateBp: opts.rateBp,
        locale: opts.locale,
        createdBy: access.userId,
        createdAt: ctx.clock.now(),
      })
      .returning();
    await holdInvoiceAmount(tx, id, wanted);
    await opts.afterInsert?.(tx, id);
    return inserted!;
  });
  const [view] = await toInvoices(ctx.db, [row]);
  return view!;
}

/** cn: a VAT invoice under a saved title (§5). */
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
  const wanted = readItems(body.items, problems);
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

  return recordApplication({
    ctx,
    access,
    locale: opts.locale,
    wanted,
    rateBp: VAT_RATE_BP,
    values: {
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
    },
    // Electronic general invoices may be issued without an operator (INVOICE_AUTO_ISSUE): a job after the commit.
    afterInsert: async (tx, id) => {
      if (ctx.config.invoices.autoIssue && body.method === "electronic" && body.invoiceType === "general") {
        await ctx.jobs.enqueue({ name: AUTO_ISSUE_JOB, payload: { invoiceId: id } }, { tx });
      }
    },
  });
}

/**
 * global: a tax invoice with GST over paid orders without an invoice of their own (corporate transfers). The
 * bill-to block is the organization's invoice information as it is now; an operator issues it (§2 records).
 * The buyer is a company (voiding then needs both sides' confirmation, §4 02/03) when the organization is verified
 * as one or a tax ID is on record, else a person (01).
 */
export async function applyTaxInvoice(opts: {
  ctx: AppContext;
  access: OrgAccess;
  body: ApplyTaxInvoiceRequest;
  locale: Locale;
}): Promise<Invoice> {
  const { ctx, access, body } = opts;
  const { org } = access;
  if (org.edition !== "global") throw new AppError("not_found");
  assertInvoicingAllowed(org);
  const problems: Problem[] = [];
  const wanted = readItems(body.items, problems);
  if (problems.length) throw new AppError("validation_failed", { details: problems });
  const [info] = await ctx.db.select().from(schema.invoiceInfos).where(eq(schema.invoiceInfos.orgId, org.id));
  if (!info) throw new AppError("invoice_info_missing");
  const { updatedAt: _u, updatedBy: _b, orgId: _o, ...fields } = info;
  const billTo = {
    name: fields.name,
    email: fields.email,
    tax_id: fields.taxId,
    street: fields.street,
    address_line1: fields.addressLine1,
    address_line2: fields.addressLine2,
    city: fields.city,
    state: fields.state,
    postal_code: fields.postalCode,
    country_code: fields.countryCode,
  };
  return recordApplication({
    ctx,
    access,
    locale: opts.locale,
    wanted,
    rateBp: ctx.config.invoices.gstRateBp,
    values: {
      method: "electronic",
      titleType: info.taxId || org.verification === "company" ? "company" : "personal",
      invoiceType: "general",
      title: info.name,
      uscc: info.taxId,
      email: body.email,
      billTo,
    },
    ownInvoice: async (tx, ids) => {
      const rows = await tx
        .select({ id: schema.orderInvoices.paymentId })
        .from(schema.orderInvoices)
        .where(inArray(schema.orderInvoices.paymentId, ids));
      return new Set(rows.map((r) => r.id));
    },
  });
}

/**
 * Locks the organization's payments an invoice is to cover (in id order) and checks each amount against what is
 * still available (amount − invoiced − refunded); field problems as a validation error. The caller's transaction
 * keeps the locks until `holdInvoiceAmount` has taken the amounts (applications and operator imports alike).
 * `ownInvoice` names payments that already have an invoice of their own (global card orders): not available.
 */
export async function checkAvailable(
  tx: Tx,
  orgId: string,
  wanted: Wanted[],
  ownInvoice?: (tx: Tx, paymentIds: string[]) => Promise<Set<string>>,
): Promise<void> {
  const problems: Problem[] = [];
  const ids = [...new Set(wanted.map((w) => w.paymentId))].sort();
  const payments = await tx
    .select()
    .from(schema.payments)
    .where(and(inArray(schema.payments.id, ids), eq(schema.payments.orgId, orgId)))
    .orderBy(asc(schema.payments.id))
    .for("update");
  const own = ownInvoice ? await ownInvoice(tx, ids) : new Set<string>();
  for (const w of wanted) {
    const p = payments.find((x) => x.id === w.paymentId);
    if (p?.status !== "success") {
      problems.push({ path: `items.${w.index}.paymentId`, message: vmsg("invoice_payment_unavailable") });
      continue;
    }
    if (own.has(p.id)) {
      problems.push({ path: `items.${w.index}.paymentId`, message: vmsg("invoice_order_has_invoice") });
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
export async function holdInvoiceAmount(tx: Tx, invoiceId: string, wanted: Wanted[]): Promise<void> {
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
