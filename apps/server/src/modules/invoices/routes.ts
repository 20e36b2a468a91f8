import type { Readable } from "node:stream";
import {
  ApplyInvoiceRequest,
  ApplyTaxInvoiceRequest,
  Invoice,
  InvoiceInfoRequest,
  InvoiceInfoResponse,
  InvoiceOverview,
  InvoiceParams,
  InvoiceTitle,
  InvoiceTitleParams,
  InvoiceTitleRequest,
  OrderCreditNotePathParams,
  OrderInvoice,
  OrderInvoicePathParams,
  OrgIdParams,
  PageQuery,
  paged,
  ReasonRequest,
} from "@moonport/contracts";
import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { type App, orgAccess } from "../../http/route.ts";
import { applyInvoice, applyTaxInvoice, withdrawInvoice } from "./apply-invoice.ts";
import {
  getInvoiceInfo,
  listOrderInvoices,
  renderOrderCreditNote,
  renderOrderInvoice,
  saveInvoiceInfo,
} from "./invoice-info.ts";
import { readInvoice } from "./invoice-view.ts";
import { openInvoicePdf } from "./issue-invoice.ts";
import { getInvoiceOverview, listInvoices } from "./list-invoices.ts";
import { answerRedLetter, startRedLetter, withdrawRedLetter } from "./red-letter.ts";
import { createInvoiceTitle, invalidateInvoiceTitle, listInvoiceTitles } from "./titles.ts";

/** A PDF download: attachment, never cached by shared caches. */
export function sendPdf(reply: FastifyReply, fileName: string, body: Buffer | Readable) {
  return reply
    .header("content-type", "application/pdf")
    .header("content-disposition", `attachment; filename="${fileName}"`)
    .header("cache-control", "private, no-store")
    .send(body);
}

/**
 * Invoices: organization admins only, like every billing screen (invoices cover the organization's payments and
 * carry its bank details). cn applies under a title (`/invoices`), global for a tax invoice to its invoice
 * information (`/tax-invoices`); records, PDFs and the buyer's side of voiding (red-letter / credit note) are shared.
 * The seller's side is in the back office.
 */
export default async function invoiceRoutes(app: App, ctx: AppContext) {
  const admin = { access: "orgAdmin" } as const;
  const buyer = (req: FastifyRequest) => {
    const access = orgAccess(req);
    return { side: "buyer" as const, orgId: access.org.id, userId: access.userId };
  };

  app.get(
    "/orgs/:orgId/invoices/overview",
    { config: admin, schema: { params: OrgIdParams, response: { 200: InvoiceOverview } } },
    async (req) => getInvoiceOverview({ ctx, access: orgAccess(req) }),
  );
  app.get(
    "/orgs/:orgId/invoices",
    { config: admin, schema: { params: OrgIdParams, querystring: PageQuery, response: { 200: paged(Invoice) } } },
    async (req) => listInvoices({ ctx, access: orgAccess(req), ...req.query }),
  );
  app.post(
    "/orgs/:orgId/invoices",
    { config: admin, schema: { params: OrgIdParams, body: ApplyInvoiceRequest, response: { 201: Invoice } } },
    async (req, reply) => {
      const invoice = await applyInvoice({ ctx, access: orgAccess(req), body: req.body, locale: req.locale });
      reply.status(201);
      return invoice;
    },
  );
  app.post(
    "/orgs/:orgId/tax-invoices",
    { config: admin, schema: { params: OrgIdParams, body: ApplyTaxInvoiceRequest, response: { 201: Invoice } } },
    async (req, reply) => {
      const invoice = await applyTaxInvoice({ ctx, access: orgAccess(req), body: req.body, locale: req.locale });
      reply.status(201);
      return invoice;
    },
  );
  app.post(
    "/orgs/:orgId/invoices/:invoiceId/withdraw",
    { config: admin, schema: { params: InvoiceParams, response: { 200: Invoice } } },
    async (req) =>
      withdrawInvoice({ ctx, access: orgAccess(req), invoiceId: req.params.invoiceId, locale: req.locale }),
  );
  const InvoiceDocument = InvoiceParams.extend({ document: z.enum(["pdf", "void-pdf"]) });
  app.get(
    "/orgs/:orgId/invoices/:invoiceId/:document",
    { config: admin, schema: { params: InvoiceDocument } },
    async (req, reply) => {
      const file = await openInvoicePdf({
        ctx,
        orgId: orgAccess(req).org.id,
        invoiceId: req.params.invoiceId,
        document: req.params.document === "void-pdf" ? "void" : "invoice",
      });
      return sendPdf(reply, file.fileName, file.stream);
    },
  );
  app.post(
    "/orgs/:orgId/invoices/:invoiceId/red-letter",
    { config: admin, schema: { params: InvoiceParams, body: ReasonRequest, response: { 200: Invoice } } },
    async (req) => {
      await startRedLetter({
        ctx,
        invoiceId: req.params.invoiceId,
        actor: buyer(req),
        reason: req.body.reason,
        locale: req.locale,
      });
      return readInvoice(ctx.db, req.params.invoiceId);
    },
  );
  const RedLetterAction = z.object({
    orgId: z.string().min(1).max(64),
    invoiceId: z.string().min(1).max(64),
    action: z.enum(["confirm", "deny", "withdraw"]),
  });
  app.post(
    "/orgs/:orgId/invoices/:invoiceId/red-letter/:action",
    { config: admin, schema: { params: RedLetterAction, response: { 200: Invoice } } },
    async (req) => {
      const { invoiceId, action } = req.params;
      if (action === "withdraw") await withdrawRedLetter({ ctx, invoiceId, actor: buyer(req) });
      else await answerRedLetter({ ctx, invoiceId, actor: buyer(req), answer: action });
      return readInvoice(ctx.db, invoiceId);
    },
  );

  app.get(
    "/orgs/:orgId/invoice-titles",
    { config: admin, schema: { params: OrgIdParams, response: { 200: z.object({ items: z.array(InvoiceTitle) }) } } },
    async (req) => ({ items: await listInvoiceTitles({ ctx, access: orgAccess(req) }) }),
  );
  app.post(
    "/orgs/:orgId/invoice-titles",
    { config: admin, schema: { params: OrgIdParams, body: InvoiceTitleRequest, response: { 201: InvoiceTitle } } },
    async (req, reply) => {
      const title = await createInvoiceTitle({ ctx, access: orgAccess(req), body: req.body });
      reply.status(201);
      return title;
    },
  );
  app.post(
    "/orgs/:orgId/invoice-titles/:titleId/invalidate",
    { config: admin, schema: { params: InvoiceTitleParams, response: { 200: InvoiceTitle } } },
    async (req) => invalidateInvoiceTitle({ ctx, access: orgAccess(req), titleId: req.params.titleId }),
  );

  app.get(
    "/orgs/:orgId/invoice-info",
    { config: admin, schema: { params: OrgIdParams, response: { 200: InvoiceInfoResponse } } },
    async (req) => getInvoiceInfo({ ctx, access: orgAccess(req) }),
  );
  app.put(
    "/orgs/:orgId/invoice-info",
    {
      config: admin,
      schema: { params: OrgIdParams, body: InvoiceInfoRequest, response: { 200: InvoiceInfoResponse } },
    },
    async (req) => saveInvoiceInfo({ ctx, access: orgAccess(req), body: req.body }),
  );
  app.get(
    "/orgs/:orgId/order-invoices",
    { config: admin, schema: { params: OrgIdParams, response: { 200: z.object({ items: z.array(OrderInvoice) }) } } },
    async (req) => listOrderInvoices({ ctx, access: orgAccess(req) }),
  );
  app.get(
    "/orgs/:orgId/order-invoices/:paymentId/pdf",
    { config: admin, schema: { params: OrderInvoicePathParams } },
    async (req, reply) => {
      const file = await renderOrderInvoice({
        ctx,
        access: orgAccess(req),
        paymentId: req.params.paymentId,
        locale: req.locale,
      });
      return sendPdf(reply, file.fileName, file.pdf);
    },
  );
  app.get(
    "/orgs/:orgId/order-invoices/:paymentId/credit-notes/:creditNo/pdf",
    { config: admin, schema: { params: OrderCreditNotePathParams } },
    async (req, reply) => {
      const file = await renderOrderCreditNote({ ctx, access: orgAccess(req), ...req.params, locale: req.locale });
      return sendPdf(reply, file.fileName, file.pdf);
    },
  );
}
