/** The back office's invoice queue requests (/api/admin/invoices). */
import { AdminInvoiceList, type ImportInvoiceRequest, Invoice } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { useInvalidatingMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { adminKey } from "./admin.ts";

const A = "/api/admin/invoices";

export const invoiceQueueQuery = (queue: "waiting" | "issued") =>
  queryOptions({
    queryKey: [...adminKey, "invoices", queue],
    queryFn: () => api(`${A}?queue=${queue}`, { schema: AdminInvoiceList }),
  });

export const adminInvoicePdfUrl = (id: string, document: "invoice" | "void" = "invoice") =>
  `${A}/${encodeURIComponent(id)}/${document === "void" ? "void-pdf" : "pdf"}`;

export type SellerAction =
  | { id: string; kind: "issue" | "complete"; invoiceNo: string | undefined }
  | { id: string; kind: "fail" | "void"; reason: string }
  | { id: string; kind: "confirm" | "deny" | "withdraw" };

/** Issue, fail, and the seller's red-letter moves; every one refreshes the back office's reads. */
export const useSellerAction = () =>
  useInvalidatingMutation(adminKey, (v: SellerAction) => {
    const base = `${A}/${encodeURIComponent(v.id)}`;
    switch (v.kind) {
      case "issue":
        return api(`${base}/issue`, { body: { invoiceNo: v.invoiceNo }, schema: Invoice });
      case "complete":
        return api(`${base}/red-letter/complete`, { body: { invoiceNo: v.invoiceNo }, schema: Invoice });
      case "fail":
        return api(`${base}/fail`, { body: { reason: v.reason }, schema: Invoice });
      case "void":
        return api(`${base}/red-letter`, { body: { reason: v.reason }, schema: Invoice });
      default:
        return api(`${base}/red-letter/${v.kind}`, { method: "POST", schema: Invoice });
    }
  });

/** Records an invoice issued outside the platform (status "imported"). */
export const useImportInvoice = () =>
  useInvalidatingMutation(adminKey, (body: ImportInvoiceRequest) => api(`${A}/import`, { body, schema: Invoice }));
