import { GlobalInvoices } from "./global-invoices.tsx";
import { VatInvoices } from "./vat-invoices.tsx";

/** Billing → Invoices: cn VAT invoices with red-letter voiding, or the global edition's GST order invoices. */
export function InvoicesScreen({ orgId, currency }: { orgId: string; currency: "CNY" | "USD" }) {
  return currency === "CNY" ? <VatInvoices orgId={orgId} /> : <GlobalInvoices orgId={orgId} />;
}
