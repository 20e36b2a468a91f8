/**
 * The global edition's international invoice information (§3) and per-order invoices. The information must be
 * complete before a card payment (§6): `snapshotOrderInvoice` runs in the payment's transaction, refuses without
 * it, and copies it with the GST split (computed once at GST_RATE) into `order_invoices`; the PDF is available
 * once the payment succeeded. A completed refund undoes the invoice for what it returned (`creditOrderInvoice`):
 * the whole order voids it, part of it issues a credit note.
 */
import type { InvoiceInfo, InvoiceInfoRequest, InvoiceInfoResponse, Locale, OrderInvoice } from "@moonport/contracts";
import { splitTax } from "@moonport/contracts";
import { schema, type Tx } from "@moonport/db";
import { and, asc, desc, eq, inArray, isNull } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { renderOrderCreditNotePdf, renderOrderInvoicePdf } from "./invoice-pdf.ts";
import { generateDocumentNo } from "./issue-invoice.ts";

type InfoRow = typeof schema.invoiceInfos.$inferSelect;

function toInfo(r: InfoRow): InvoiceInfo {
  return {
    name: r.name,
    email: r.email,
    tax_id: r.taxId,
    street: r.street,
    address_line1: r.addressLine1,
    address_line2: r.addressLine2,
    city: r.city,
    state: r.state,
    postal_code: r.postalCode,
    country_code: r.countryCode,
    updatedAt: r.updatedAt.toISOString(),
  };
}

export async function getInvoiceInfo(opts: { ctx: AppContext; access: OrgAccess }): Promise<InvoiceInfoResponse> {
  if (opts.access.org.edition !== "global") throw new AppError("not_found");
  const [row] = await opts.ctx.db
    .select()
    .from(schema.invoiceInfos)
    .where(eq(schema.invoiceInfos.orgId, opts.access.org.id));
  return { info: row ? toInfo(row) : null, gstRateBp: opts.ctx.config.invoices.gstRateBp };
}

export async function saveInvoiceInfo(opts: {
  ctx: AppContext;
  access: OrgAccess;
  body: InvoiceInfoRequest;
}): Promise<InvoiceInfoResponse> {
  const { ctx, access, body } = opts;
  if (access.org.edition !== "global") throw new AppError("not_found");
  const values = {
    name: body.name,
    email: body.email,
    taxId: body.tax_id ?? null,
    street: body.street,
    addressLine1: body.address_line1 ?? null,
    addressLine2: body.address_line2 ?? null,
    city: body.city,
    state: body.state ?? null,
    postalCode: body.postal_code,
    countryCode: body.country_code,
    updatedBy: access.userId,
    updatedAt: ctx.clock.now(),
  };
  await ctx.db
    .insert(schema.invoiceInfos)
    .values({ orgId: access.org.id, ...values })
    .onConflictDoUpdate({ target: schema.invoiceInfos.orgId, set: values });
  return getInvoiceInfo({ ctx, access });
}

/**
 * Called by the payment's creation for a global card payment, in its transaction: refuses without complete
 * invoice information (`invoice_info_required`) and records the order's invoice (bill-to as it is now, GST split).
 */
export async function snapshotOrderInvoice(
  ctx: Pick<AppContext, "config">,
  tx: Tx,
  payment: { id: string; orgId: string; amount: bigint },
): Promise<void> {
  const [info] = await tx.select().from(schema.invoiceInfos).where(eq(schema.invoiceInfos.orgId, payment.orgId));
  if (!info) throw new AppError("invoice_info_required");
  const { updatedAt: _updated, ...billTo } = toInfo(info);
  const rateBp = ctx.config.invoices.gstRateBp;
  const { net, tax } = splitTax(payment.amount, rateBp);
  await tx.insert(schema.orderInvoices).values({
    paymentId: payment.id,
    orgId: payment.orgId,
    // The order id is already unique and opaque; the invoice number is it in the usual shape.
    invoiceNo: `INV-${payment.id.replace(/^pay_?/, "").toUpperCase()}`,
    billTo,
    net,
    tax,
    taxRateBp: rateBp,
  });
}

async function paidOrders(ctx: AppContext, orgId: string, paymentId?: string) {
  const o = schema.orderInvoices;
  const p = schema.payments;
  return ctx.db
    .select({ o, paid: p.finishedAt, amount: p.amount, currency: p.currency })
    .from(o)
    .innerJoin(p, eq(p.id, o.paymentId))
    .where(and(eq(o.orgId, orgId), eq(p.status, "success"), paymentId ? eq(o.paymentId, paymentId) : undefined))
    .orderBy(desc(p.finishedAt), desc(o.paymentId))
    .limit(200);
}

/** The voids and credit notes of these orders that still apply, oldest first. */
async function creditsOf(ctx: AppContext, paymentIds: string[]) {
  if (!paymentIds.length) return [];
  const c = schema.orderInvoiceCredits;
  return ctx.db
    .select()
    .from(c)
    .where(and(inArray(c.paymentId, paymentIds), isNull(c.cancelledAt)))
    .orderBy(asc(c.createdAt), asc(c.refundId));
}
type CreditRow = typeof schema.orderInvoiceCredits.$inferSelect;

export async function listOrderInvoices(opts: {
  ctx: AppContext;
  access: OrgAccess;
}): Promise<{ items: OrderInvoice[] }> {
  if (opts.access.org.edition !== "global") throw new AppError("not_found");
  const rows = await paidOrders(opts.ctx, opts.access.org.id);
  const credits = await creditsOf(
    opts.ctx,
    rows.map((r) => r.o.paymentId),
  );
  return {
    items: rows.map((r) => {
      const mine = credits.filter((c) => c.paymentId === r.o.paymentId);
      const voided = mine.find((c) => c.kind === "void");
      return {
        paymentId: r.o.paymentId,
        invoiceNo: r.o.invoiceNo,
        createdAt: (r.paid ?? r.o.createdAt).toISOString(),
        currency: r.currency,
        amount: r.amount.toString(),
        net: r.o.net.toString(),
        tax: r.o.tax.toString(),
        taxRateBp: r.o.taxRateBp,
        status: voided ? "voided" : "paid",
        voidedAt: voided?.createdAt.toISOString() ?? null,
        creditNotes: mine.filter(isCreditNote).map((c) => ({
          creditNo: c.creditNo,
          createdAt: c.createdAt.toISOString(),
          amount: c.amount.toString(),
          net: c.net.toString(),
          tax: c.tax.toString(),
        })),
      };
    }),
  };
}

const isCreditNote = (c: CreditRow): c is CreditRow & { creditNo: string } =>
  c.kind === "credit_note" && c.creditNo !== null;

export async function renderOrderInvoice(opts: {
  ctx: AppContext;
  access: OrgAccess;
  paymentId: string;
  locale: Locale;
}) {
  const [r] = await paidOrders(opts.ctx, opts.access.org.id, opts.paymentId);
  if (!r) throw new AppError("not_found");
  const credits = await creditsOf(opts.ctx, [r.o.paymentId]);
  const pdf = await renderOrderInvoicePdf(opts.ctx.config, opts.locale, {
    invoiceNo: r.o.invoiceNo,
    paidAt: r.paid ?? r.o.createdAt,
    paymentId: r.o.paymentId,
    currency: r.currency,
    amount: r.amount,
    net: r.o.net,
    tax: r.o.tax,
    taxRateBp: r.o.taxRateBp,
    billTo: r.o.billTo,
    voidedAt: credits.find((c) => c.kind === "void")?.createdAt ?? null,
    creditNotes: credits.filter(isCreditNote).map((c) => ({ creditNo: c.creditNo, amount: c.amount })),
  });
  return { pdf, fileName: `${r.o.invoiceNo}.pdf` };
}

export async function renderOrderCreditNote(opts: {
  ctx: AppContext;
  access: OrgAccess;
  paymentId: string;
  creditNo: string;
  locale: Locale;
}) {
  const [r] = await paidOrders(opts.ctx, opts.access.org.id, opts.paymentId);
  const credit = r ? (await creditsOf(opts.ctx, [r.o.paymentId])).find((c) => c.creditNo === opts.creditNo) : undefined;
  if (!r || !credit || !isCreditNote(credit)) throw new AppError("not_found");
  const pdf = await renderOrderCreditNotePdf(opts.ctx.config, opts.locale, {
    creditNo: credit.creditNo,
    date: credit.createdAt,
    invoiceNo: r.o.invoiceNo,
    paymentId: r.o.paymentId,
    currency: r.currency,
    amount: credit.amount,
    net: credit.net,
    tax: credit.tax,
    taxRateBp: r.o.taxRateBp,
    billTo: r.o.billTo,
  });
  return { pdf, fileName: `credit-note-${credit.creditNo}.pdf` };
}

/**
 * Called in the transaction that completes a refund: undoes the refunded payment's order invoice for what the
 * refund returned. The whole order voids the invoice; part of it issues a credit note (its own CN- number, the
 * GST split at the invoice's rate). Once per refund; payments without an order invoice (QR, transfers) are left
 * alone — an applied-for invoice holds its amount, so a refund never reaches it before it is voided.
 */
export async function creditOrderInvoice(
  ctx: Pick<AppContext, "clock">,
  tx: Tx,
  refund: { id: string; orgId: string; paymentId: string; amount: bigint },
  payment: { amount: bigint },
): Promise<void> {
  const [inv] = await tx
    .select()
    .from(schema.orderInvoices)
    .where(eq(schema.orderInvoices.paymentId, refund.paymentId))
    .for("update");
  if (!inv) return;
  const now = ctx.clock.now();
  const whole = refund.amount === payment.amount;
  const { net, tax } = whole ? { net: inv.net, tax: inv.tax } : splitTax(refund.amount, inv.taxRateBp);
  await tx
    .insert(schema.orderInvoiceCredits)
    .values({
      refundId: refund.id,
      paymentId: refund.paymentId,
      orgId: refund.orgId,
      kind: whole ? "void" : "credit_note",
      creditNo: whole ? null : generateDocumentNo("CN", now),
      amount: refund.amount,
      net,
      tax,
      createdAt: now,
    })
    .onConflictDoNothing();
}

/** A refund the provider failed after reporting it done: its void or credit note no longer applies. */
export async function cancelOrderInvoiceCredit(ctx: Pick<AppContext, "clock">, tx: Tx, refundId: string) {
  await tx
    .update(schema.orderInvoiceCredits)
    .set({ cancelledAt: ctx.clock.now() })
    .where(and(eq(schema.orderInvoiceCredits.refundId, refundId), isNull(schema.orderInvoiceCredits.cancelledAt)));
}
