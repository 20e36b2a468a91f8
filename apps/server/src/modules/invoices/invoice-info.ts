/**
 * The global edition's international invoice information (§3) and per-order invoices. The information must be
 * complete before a card payment (§6): `snapshotOrderInvoice` runs in the payment's transaction, refuses without
 * it, and copies it with the GST split (computed once at GST_RATE) into `order_invoices`; the PDF is available
 * once the payment succeeded.
 */
import type { InvoiceInfo, InvoiceInfoRequest, InvoiceInfoResponse, OrderInvoice } from "@moonport/contracts";
import { splitTax } from "@moonport/contracts";
import { schema, type Tx } from "@moonport/db";
import { and, desc, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { renderOrderInvoicePdf } from "./invoice-pdf.ts";

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

export async function listOrderInvoices(opts: {
  ctx: AppContext;
  access: OrgAccess;
}): Promise<{ items: OrderInvoice[] }> {
  if (opts.access.org.edition !== "global") throw new AppError("not_found");
  const rows = await paidOrders(opts.ctx, opts.access.org.id);
  return {
    items: rows.map((r) => ({
      paymentId: r.o.paymentId,
      invoiceNo: r.o.invoiceNo,
      createdAt: (r.paid ?? r.o.createdAt).toISOString(),
      currency: r.currency,
      amount: r.amount.toString(),
      net: r.o.net.toString(),
      tax: r.o.tax.toString(),
      taxRateBp: r.o.taxRateBp,
    })),
  };
}

export async function renderOrderInvoice(opts: { ctx: AppContext; access: OrgAccess; paymentId: string }) {
  const [r] = await paidOrders(opts.ctx, opts.access.org.id, opts.paymentId);
  if (!r) throw new AppError("not_found");
  const pdf = await renderOrderInvoicePdf(opts.ctx.config, {
    invoiceNo: r.o.invoiceNo,
    paidAt: r.paid ?? r.o.createdAt,
    paymentId: r.o.paymentId,
    currency: r.currency,
    amount: r.amount,
    net: r.o.net,
    tax: r.o.tax,
    taxRateBp: r.o.taxRateBp,
    billTo: r.o.billTo,
  });
  return { pdf, fileName: `${r.o.invoiceNo}.pdf` };
}
