/**
 * Issuing a cn VAT invoice: an operator types the number the tax system gave it (back office, CLI), or — with
 * INVOICE_AUTO_ISSUE for electronic general invoices — a job issues it with a generated number. Issuing renders
 * the PDF, keeps it in the generated-files store and e-mails it (attachment) to the invoice's address in the
 * applicant's language; the status change, the audit line and the e-mail job commit together. Failing it records
 * the reason and gives the amount back to the payments.
 */
import { writeFile } from "node:fs/promises";
import { formatMoney, type Locale } from "@moonport/contracts";
import { randomString, schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { withTransaction } from "../../lib/transaction.ts";
import { enqueueMail } from "../../mail/enqueue-mail.ts";
import { renderMail } from "../../mail/templates.ts";
import { recordOperatorAction } from "../admin/record-operator-action.ts";
import { editionDate, invoiceStateError, lockInvoice, releaseInvoiceAmount } from "./apply-invoice.ts";
import { renderVatInvoicePdf } from "./invoice-pdf.ts";
import type { InvoiceRow } from "./invoice-view.ts";

export const AUTO_ISSUE_JOB = "invoices.auto-issue";
/** What issuing needs of the app (the CLI builds just this). */
export type IssueContext = Pick<AppContext, "db" | "log" | "clock" | "config" | "exportFiles" | "jobs">;

/** Who issues automatically, in the audit log and as the deciding party. */
export const SYSTEM_ACTOR = "system";

/** A 20-digit number in the shape of a fully digitalised e-invoice (two digits of the year, then 18 random). */
export function generateInvoiceNo(now: Date): string {
  return `${String(now.getUTCFullYear()).slice(2)}${randomString(18, "0123456789")}`;
}

const TYPE_WORD: Record<Locale, Record<"general" | "special", string>> = {
  "en-US": { general: "general VAT invoice", special: "special VAT invoice" },
  "zh-CN": { general: "增值税普通发票", special: "增值税专用发票" },
};

function consoleUrl(ctx: IssueContext, path: string) {
  return `${(ctx.config.sites.cn ?? "").replace(/\/$/, "")}${path}`;
}

export async function issueInvoice(opts: {
  ctx: IssueContext;
  invoiceId: string;
  invoiceNo: string;
  operator: string;
  locale?: Locale;
}): Promise<InvoiceRow> {
  const { ctx } = opts;
  const invoiceNo = opts.invoiceNo.trim();
  try {
    return await withTransaction(ctx, async (tx) => {
      const inv = await lockInvoice(tx, opts.invoiceId);
      if (inv.status !== "waiting") throw invoiceStateError(inv.status, opts.locale);
      const issuedAt = ctx.clock.now();
      const issued: InvoiceRow = { ...inv, status: "success", invoiceNo, issuedAt };
      // Rendered under the invoice's lock: nothing else can change it meanwhile, and a failure leaves it waiting.
      const pdf = await renderVatInvoicePdf(ctx.config, issued);
      const pdfKey = `invoices/${inv.orgId}/${inv.id}.pdf`;
      const scratch = await ctx.exportFiles.scratchPath(`${inv.id}-${randomString(6)}.pdf`);
      await writeFile(scratch, pdf);
      await ctx.exportFiles.put(pdfKey, scratch);
      const [row] = await tx
        .update(schema.invoices)
        .set({ status: "success", invoiceNo, issuedAt, pdfKey })
        .where(eq(schema.invoices.id, inv.id))
        .returning();
      const locale = inv.locale === "zh-CN" ? "zh-CN" : "en-US";
      const msg = renderMail({
        template: "invoice_issued",
        locale,
        brand: ctx.config.brandName,
        to: [inv.email],
        params: {
          invoiceNo,
          amount: formatMoney(inv.amount, inv.currency, 2),
          title: inv.title,
          invoiceType: TYPE_WORD[locale][inv.invoiceType],
          consoleUrl: consoleUrl(ctx, "/console/billing/invoices"),
        },
      });
      await enqueueMail(
        ctx,
        {
          ...msg,
          attachments: [{ filename: `invoice-${invoiceNo}.pdf`, contentType: "application/pdf", storageKey: pdfKey }],
        },
        { tx },
      );
      await recordOperatorAction(tx, {
        actor: opts.operator,
        action: "invoice.issue",
        target: inv.id,
        before: { status: inv.status },
        after: { status: "success", invoiceNo },
        details: { orgId: inv.orgId, amount: inv.amount.toString(), issuedOn: editionDate("cn", issuedAt) },
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

/** The stored PDF of an issued (or later voided) invoice. */
export async function openInvoicePdf(opts: { ctx: AppContext; orgId?: string; invoiceId: string }) {
  const [inv] = await opts.ctx.db.select().from(schema.invoices).where(eq(schema.invoices.id, opts.invoiceId));
  if (!inv || (opts.orgId !== undefined && inv.orgId !== opts.orgId)) throw new AppError("not_found");
  if (!inv.pdfKey) throw new AppError("invoice_pdf_unavailable");
  return { stream: await opts.ctx.exportFiles.open(inv.pdfKey), fileName: `invoice-${inv.invoiceNo}.pdf` };
}
