/**
 * Imported invoices (§4 status `imported`): an operator records an invoice issued outside the platform (by the
 * tax system directly, before the platform existed, by another channel) over an organization's paid recharges, so
 * their invoiced amount is held like an application's and the customer sees it in the invoice records.
 */
import { z } from "zod";
import { requiredText, vmsg } from "../validation.ts";
import { LocalDay } from "./bills.ts";
import { InvoiceAmount, InvoiceMethod, InvoiceType, TitleType } from "./invoices.ts";

export const ImportInvoiceRequest = z.object({
  orgId: z
    .string({ error: vmsg("required") })
    .trim()
    .min(1, vmsg("required"))
    .max(64),
  /** The number the tax system gave it (required: it was issued already). */
  invoiceNo: z
    .string({ error: vmsg("required") })
    .trim()
    .regex(/^[0-9A-Za-z-]{8,32}$/, vmsg("invoice_number")),
  /** The buyer's title as printed on the invoice. */
  title: requiredText(100),
  titleType: TitleType.default("company"),
  invoiceType: InvoiceType.default("general"),
  method: InvoiceMethod.default("electronic"),
  /** The issue date printed on the invoice (YYYY-MM-DD, not in the future). */
  issuedOn: LocalDay,
  /** The paid recharges it covers and how much of each; each at most its available amount (§5). */
  items: z
    .array(z.object({ paymentId: z.string().trim().min(1).max(64), amount: InvoiceAmount }))
    .min(1, vmsg("invoice_pick_payment"))
    .max(50, vmsg("too_many", { max: 50 })),
});
export type ImportInvoiceRequest = z.infer<typeof ImportInvoiceRequest>;
