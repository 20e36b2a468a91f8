import {
  AdminInvoiceList,
  AdminInvoiceParams,
  AdminInvoiceQuery,
  ImportInvoiceRequest,
  Invoice,
  IssueInvoiceRequest,
  ReasonRequest,
} from "@moonport/contracts";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { type App, callerAuth } from "../../http/route.ts";
import { importInvoice } from "./import-invoice.ts";
import { readInvoice } from "./invoice-view.ts";
import { failInvoice, issueInvoice, openInvoicePdf } from "./issue-invoice.ts";
import { listInvoiceQueue } from "./list-invoices.ts";
import { answerRedLetter, completeRedLetter, startRedLetter, withdrawRedLetter } from "./red-letter.ts";
import { sendPdf } from "./routes.ts";

/**
 * The back office's invoice queue (mounted at /api/admin, operator only): issue with the tax system's number or
 * fail with a reason, the seller's side of red-letter voiding, and recording an invoice issued outside the
 * platform (`imported`). Each action is audited in its transaction.
 */
export default async function invoiceAdminRoutes(app: App, ctx: AppContext) {
  const op = { access: "operator" } as const;
  const seller = (req: Parameters<typeof callerAuth>[0]) => ({
    side: "seller" as const,
    operator: callerAuth(req).userId,
  });

  app.get(
    "/invoices",
    { config: op, schema: { querystring: AdminInvoiceQuery, response: { 200: AdminInvoiceList } } },
    async (req) => listInvoiceQueue({ ctx, queue: req.query.queue }),
  );
  const Document = AdminInvoiceParams.extend({ document: z.enum(["pdf", "void-pdf"]) });
  app.get("/invoices/:invoiceId/:document", { config: op, schema: { params: Document } }, async (req, reply) => {
    const { invoiceId, document } = req.params;
    const file = await openInvoicePdf({ ctx, invoiceId, document: document === "void-pdf" ? "void" : "invoice" });
    return sendPdf(reply, file.fileName, file.stream);
  });
  app.post(
    "/invoices/import",
    { config: op, schema: { body: ImportInvoiceRequest, response: { 201: Invoice } } },
    async (req, reply) => {
      const row = await importInvoice({ ctx, body: req.body, operator: seller(req).operator, locale: req.locale });
      return reply.status(201).send(await readInvoice(ctx.db, row.id));
    },
  );
  app.post(
    "/invoices/:invoiceId/issue",
    { config: op, schema: { params: AdminInvoiceParams, body: IssueInvoiceRequest, response: { 200: Invoice } } },
    async (req) => {
      const { invoiceId } = req.params;
      await issueInvoice({
        ctx,
        invoiceId,
        invoiceNo: req.body.invoiceNo,
        operator: seller(req).operator,
        locale: req.locale,
      });
      return readInvoice(ctx.db, invoiceId);
    },
  );
  app.post(
    "/invoices/:invoiceId/fail",
    { config: op, schema: { params: AdminInvoiceParams, body: ReasonRequest, response: { 200: Invoice } } },
    async (req) => {
      const { invoiceId } = req.params;
      await failInvoice({
        ctx,
        invoiceId,
        reason: req.body.reason,
        operator: seller(req).operator,
        locale: req.locale,
      });
      return readInvoice(ctx.db, invoiceId);
    },
  );
  app.post(
    "/invoices/:invoiceId/red-letter",
    { config: op, schema: { params: AdminInvoiceParams, body: ReasonRequest, response: { 200: Invoice } } },
    async (req) => {
      const { invoiceId } = req.params;
      await startRedLetter({ ctx, invoiceId, actor: seller(req), reason: req.body.reason, locale: req.locale });
      return readInvoice(ctx.db, invoiceId);
    },
  );
  app.post(
    "/invoices/:invoiceId/red-letter/complete",
    { config: op, schema: { params: AdminInvoiceParams, body: IssueInvoiceRequest, response: { 200: Invoice } } },
    async (req) => {
      const { invoiceId } = req.params;
      await completeRedLetter({ ctx, invoiceId, redInvoiceNo: req.body.invoiceNo, operator: seller(req).operator });
      return readInvoice(ctx.db, invoiceId);
    },
  );
  const Action = AdminInvoiceParams.extend({ action: z.enum(["confirm", "deny", "withdraw"]) });
  app.post(
    "/invoices/:invoiceId/red-letter/:action",
    { config: op, schema: { params: Action, response: { 200: Invoice } } },
    async (req) => {
      const { invoiceId, action } = req.params;
      if (action === "withdraw") await withdrawRedLetter({ ctx, invoiceId, actor: seller(req) });
      else await answerRedLetter({ ctx, invoiceId, actor: seller(req), answer: action });
      return readInvoice(ctx.db, invoiceId);
    },
  );
}
