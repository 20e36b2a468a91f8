import {
  type ApplyInvoiceRequest,
  type ApplyTaxInvoiceRequest,
  Invoice,
  type InvoiceInfoRequest,
  InvoiceInfoResponse,
  InvoiceOverview,
  InvoiceTitle,
  type InvoiceTitleRequest,
  OrderInvoice,
  paged,
} from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { z } from "zod";
import { orgApi, orgKey, queryString, useOrgMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";

export const invoiceKeys = {
  overview: (orgId: string) => [...orgKey(orgId), "invoices", "overview"] as const,
  list: (orgId: string, page: number) => [...orgKey(orgId), "invoices", "list", page] as const,
  info: (orgId: string) => [...orgKey(orgId), "invoices", "info"] as const,
  orders: (orgId: string) => [...orgKey(orgId), "invoices", "orders"] as const,
};

const InvoicePage = paged(Invoice);

export const invoiceOverviewQuery = (orgId: string) =>
  queryOptions({
    queryKey: invoiceKeys.overview(orgId),
    queryFn: () => api(`${orgApi(orgId)}/invoices/overview`, { schema: InvoiceOverview }),
  });

export const invoicesQuery = (orgId: string, page: number) =>
  queryOptions({
    queryKey: invoiceKeys.list(orgId, page),
    queryFn: () => api(`${orgApi(orgId)}/invoices${queryString({ page, pageSize: 10 })}`, { schema: InvoicePage }),
  });

export const invoiceInfoQuery = (orgId: string) =>
  queryOptions({
    queryKey: invoiceKeys.info(orgId),
    queryFn: () => api(`${orgApi(orgId)}/invoice-info`, { schema: InvoiceInfoResponse }),
  });

export const orderInvoicesQuery = (orgId: string) =>
  queryOptions({
    queryKey: invoiceKeys.orders(orgId),
    queryFn: () => api(`${orgApi(orgId)}/order-invoices`, { schema: z.object({ items: z.array(OrderInvoice) }) }),
  });

/** An issued invoice's PDF, or (`void`) that of the red-letter invoice / credit note voiding it. */
export const invoicePdfUrl = (orgId: string, invoiceId: string, document: "invoice" | "void" = "invoice") =>
  `${orgApi(orgId)}/invoices/${encodeURIComponent(invoiceId)}/${document === "void" ? "void-pdf" : "pdf"}`;
export const orderInvoicePdfUrl = (orgId: string, paymentId: string) =>
  `${orgApi(orgId)}/order-invoices/${encodeURIComponent(paymentId)}/pdf`;
/** The credit note a partial refund of a card order issued. */
export const orderCreditNotePdfUrl = (orgId: string, paymentId: string, creditNo: string) =>
  `${orgApi(orgId)}/order-invoices/${encodeURIComponent(paymentId)}/credit-notes/${encodeURIComponent(creditNo)}/pdf`;

/** cn applies for a VAT invoice under a title; global requests a tax invoice to its invoice information. */
export function useApplyInvoice(orgId: string, edition: "cn" | "global") {
  return useOrgMutation(orgId, (body: ApplyInvoiceRequest | ApplyTaxInvoiceRequest) =>
    api(`${orgApi(orgId)}/${edition === "cn" ? "invoices" : "tax-invoices"}`, { body, schema: Invoice }),
  );
}

export function useCreateTitle(orgId: string) {
  return useOrgMutation(orgId, (body: InvoiceTitleRequest) =>
    api(`${orgApi(orgId)}/invoice-titles`, { body, schema: InvoiceTitle }),
  );
}

export function useInvalidateTitle(orgId: string) {
  return useOrgMutation(orgId, (titleId: string) =>
    api(`${orgApi(orgId)}/invoice-titles/${encodeURIComponent(titleId)}/invalidate`, {
      method: "POST",
      schema: InvoiceTitle,
    }),
  );
}

/** The buyer's moves: withdraw an application, start / confirm / deny / withdraw a red-letter voiding. */
export function useInvoiceAction(orgId: string) {
  return useOrgMutation(
    orgId,
    (v: { id: string; action: "withdraw" | "red-letter" | "confirm" | "deny" | "unvoid"; reason?: string }) => {
      const base = `${orgApi(orgId)}/invoices/${encodeURIComponent(v.id)}`;
      const path =
        v.action === "withdraw"
          ? "/withdraw"
          : v.action === "red-letter"
            ? "/red-letter"
            : `/red-letter/${v.action === "unvoid" ? "withdraw" : v.action}`;
      return api(`${base}${path}`, {
        method: "POST",
        ...(v.reason !== undefined ? { body: { reason: v.reason } } : {}),
        schema: Invoice,
      });
    },
  );
}

export function useSaveInvoiceInfo(orgId: string) {
  return useOrgMutation(orgId, (body: InvoiceInfoRequest) =>
    api(`${orgApi(orgId)}/invoice-info`, { method: "PUT", body, schema: InvoiceInfoResponse }),
  );
}
