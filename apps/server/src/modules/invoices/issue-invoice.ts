/**
 * Issuing an invoice: for a cn VAT invoice an operator types the number the tax system gave it (back office, CLI),
 * or — with INVOICE_AUTO_ISSUE for electronic general invoices — a job issues it with a generated number; a global
 * tax invoice is numbered by the platform unless the operator gives a number. Issuing renders the PDF, keeps it in
 * the generated-files store and e-mails it (attachment) to the invoice's address in the applicant's language; the
 * status change, the audit line and the e-mail job commit together. Failing it records the reason and gives the
 * amount back to the payments.
 */
import { writeFile } from "node:fs/promises";
import { formatMoney, type Locale, vmsg } from "@moonport/contracts";
import { randomString, schema, type Tx } from "@moonport/db";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { withTransaction } from "../../lib/transaction.ts";
import { enqueueMail } from "../../mail/enqueue-mail.ts";
import { renderMail } from "../../mail/templates.ts";
import { recordOperatorAction } from "../admin/index.ts";
import { editionDate, invoiceStateError, lockInvoice, releaseInvoiceAmount } from "./apply-invoice.ts";
import { renderInvoicePdf } from "./invoice-pdf.ts";
import type { InvoiceRow } from "./invoice-view.ts";

/** What issuing needs of the app (the CLI builds just this). */
export type IssueContext = Pick<AppContext, "db" | "log" | "clock" | "config" | "exportFiles" | "jobs">;

/** Who issues automatically, in the audit log and as the deciding party. */
export const SYSTEM_ACTOR = "system";

/** A 20-digit number in the shape of a fully digitalised e-invoice (two digits of the year, then 18 random). */
export function generateInvoiceNo(now: Date): string {
  return `${String(now.getUTCFullYear()).slice(2)}${randomString(18, "0123456789")}`;
}

/** A global document's number: prefix, the date in the edition's zone, 6 random characters (INV-20261126-7K2Q9D). */
export function generateDocumentNo(prefix: "INV" | "CN", now: Date): string {
  return `${prefix}-${editionDate("global", now).replaceAll("-", "")}-${randomString(6, "0123456789ABCDEFGHJKLMNPQRSTUVWXYZ")}`;
}

/** The number an operator gave, or the platform's for a global document; cn documents need the tax system's. */
export function documentNumber(inv: InvoiceRow, given: string | undefined, prefix: "INV" | "CN", now: Date): string {
  const trimmed = given?.trim();
  if (trimmed) return trimmed;
  if (inv.currency === "CNY") {
    throw new AppError("validation_failed", { details: [{ path: "invoiceNo", message: vmsg("required") }] });
  }
  return generateDocumentNo(prefix, now);
}

/** What the e-mails call the invoice, in the applicant's language. */
export function invoiceKindWord(inv: InvoiceRow, locale: Locale): string {
  if (inv.currency !== "CNY") return locale === "zh-CN" ? "税务发票" : "tax invoice";
  return TYPE_WORD[locale][inv.invoiceType];
}
const TYPE_WORD: Record<Locale, Record<"general" | "special", string>> = {
  "en-US": { general: "general VAT invoice", special: "special VAT invoice" },
  "zh-CN": { general: "增值税普通发票", special: "增值税专用发票" },
};

/** The invoice records in the console of the invoice's edition. */
export function invoicesUrl(ctx: Pick<AppContext, "config">, inv: InvoiceRow): string {
  const site = inv.currency === "CNY" ? ctx.config.sites.cn : ctx.config.sites.global;
  return `${(site ?? "").replace(/\/$/, "")}/console/billing/invoices`;
}

/**
 * E-mails an invoice's document (the invoice, its red-letter invoice or credit note) to the invoice's address in
 * the applicant's language, the stored PDF attached; in the caller's transaction, so it leaves only if that commits.
 */
export async function mailInvoiceDocument(
  ctx: Pick<AppContext, "db" | "clock" | "config">,
  tx: Tx,
  inv: InvoiceRow,
  doc: {
    template: "invoice_issued" | "invoice_voided";
    params: (locale: Locale) => Record<string, string>;
    file: { name: string; key: string };
  },
): Promise<void> {
  const locale = inv.locale === "zh-CN" ? "zh-CN" : "en-US";
  const msg = renderMail({
    template: doc.template,
    locale,
    brand: ctx.config.brandName,
    to: [inv.email],
    params: {
      amount: formatMoney(inv.amount, inv.currency, 2),
      title: inv.title,
      consoleUrl: invoicesUrl(ctx, inv),
      ...doc.params(locale),
    },
  });
  const attachment = { filename: doc.file.name, contentType: "application/pdf", storageKey: doc.file.key };
  await enqueueMail(ctx, { ...msg, attachments: [attachment] }, { tx });
}

/** Renders a document and keeps it in the generated-files store under `key`. */
export async function storePdf(ctx: Pick<AppContext, "exportFiles">, key: string, pdf: Buffer): Promise<void> {
  const scratch = await ctx.exportFiles.scratchPath(`${key.replaceAll("/", "-")}-${randomString(6)}`);
  await writeFile(scratch, pdf);
  await ctx.exportFiles.put(key, scratch);
}

export async function issueInvoice(opts: {
  ctx: IssueContext;
  invoiceId: string;
  /** cn: the tax system's number (required); global: optional, the platform numbers it otherwise. */
  invoiceNo: string | undefined;
  operator: string;
  locale?: Locale;
}): Promise<InvoiceRow> {
  const { ctx } = opts;
  try {
    return await withTransaction(ctx, async (tx) => {
      const inv = await lockInvoice(tx, opts.invoiceId);
      if (inv.status !== "waiting") throw invoiceStateError(inv.status, opts.locale);
      const issuedAt = ctx.clock.now();
      const invoiceNo = documentNumber(inv, opts.invoiceNo, "INV", issuedAt);
      const issued: InvoiceRow = { ...inv, status: "success", invoiceNo, issuedAt };
      // Rendered under the invoice's lock: nothing else can change it meanwhile, and a failure leaves it waiting.
      const pdfKey = `invoices/${inv.orgId}/${inv.id}.pdf`;
      await storePdf(ctx, pdfKey, await renderInvoicePdf(ctx.config, issued));
      const [row] = await tx
        .update(schema.invoices)
        .set({ status: "success", invoiceNo, issuedAt, pdfKey })
        .where(eq(schema.invoices.id, inv.id))
        .returning();
      await mailInvoiceDocument(ctx, tx, inv, {
        template: "invoice_issued",
        params: (locale) => ({ invoiceNo, invoiceType: invoiceKindWord(inv, locale) }),
        file: { name: `invoice-${invoiceNo}.pdf`, key: pdfKey },
      });
      await recordOperatorAction(tx, {
        actor: opts.operator,
        action: "invoice.issue",
        target: inv.id,
        before: { status: inv.status },
        after: { status: "success", invoiceNo },
        details: {
          orgId: inv.orgId,
          amount: inv.amount.toString(),
          issuedOn: editionDate(inv.currency === "CNY" ? "cn" : "global", issuedAt),
        },
      });
      return row!;
    });
  } catch (err) {
    if (isUniqueViolation(err, "invoices_invoice_no_uq")) throw new AppError("invoice_no_taken");
    throw err;
  }
}

export async function failInvoice(opts: {
  ctx: IssueContext;
  invoiceId: string;
  reason: string;
  operator: string;
  locale?: Locale;
}): Promise<InvoiceRow> {
  const { ctx } = opts;
  return withTransaction(ctx, async (tx) => {
    const inv = await lockInvoice(tx, opts.invoiceId);
    if (inv.status !== "waiting") throw invoiceStateError(inv.status, opts.locale);
    await releaseInvoiceAmount(tx, inv.id);
    const [row] = await tx
      .update(schema.invoices)
      .set({ status: "failed", failReason: opts.reason.trim(), finishedAt: ctx.clock.now() })
      .where(eq(schema.invoices.id, inv.id))
      .returning();
    await recordOperatorAction(tx, {
      actor: opts.operator,
      action: "invoice.fail",
      target: inv.id,
      before: { status: inv.status },
      after: { status: "failed" },
      details: { orgId: inv.orgId, reason: opts.reason.trim() },
    });
    return row!;
  });
}

/** The auto-issue job: an invoice withdrawn or issued meanwhile is left alone (the job may run twice). */
export async function autoIssueInvoice(ctx: AppContext, invoiceId: string): Promise<void> {
  const [inv] = await ctx.db.select().from(schema.invoices).where(eq(schema.invoices.id, invoiceId));
  if (inv?.status !== "waiting") return;
  try {
    await issueInvoice({ ctx, invoiceId, invoiceNo: generateInvoiceNo(ctx.clock.now()), operator: SYSTEM_ACTOR });
  } catch (err) {
    if (err instanceof AppError && err.code === "invoice_state") return;
    throw err;
  }
}

/** The stored PDF of an issued (or later voided) invoice, or of the red-letter invoice / credit note voiding it. */
export async function openInvoicePdf(opts: {
  ctx: AppContext;
  orgId?: string;
  invoiceId: string;
  document?: "invoice" | "void";
}) {
  const [inv] = await opts.ctx.db.select().from(schema.invoices).where(eq(schema.invoices.id, opts.invoiceId));
  if (!inv || (opts.orgId !== undefined && inv.orgId !== opts.orgId)) throw new AppError("not_found");
  const key = opts.document === "void" ? inv.voidPdfKey : inv.pdfKey;
  if (!key) throw new AppError("invoice_pdf_unavailable");
  const no = opts.document === "void" ? inv.redInvoiceNo : inv.invoiceNo;
  const name = opts.document === "void" ? (inv.currency === "CNY" ? "red-invoice" : "credit-note") : "invoice";
  return { stream: await opts.ctx.exportFiles.open(key), fileName: `${name}-${no}.pdf` };
}
