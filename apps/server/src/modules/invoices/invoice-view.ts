import type { Invoice, RedLetterRound } from "@moonport/contracts";
import { type Db, schema, type Tx } from "@moonport/db";
import { asc, desc, eq, inArray } from "drizzle-orm";

export type InvoiceRow = typeof schema.invoices.$inferSelect;
export type RedLetterRow = typeof schema.redLetterRequests.$inferSelect;

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function toRedLetterRound(r: RedLetterRow): RedLetterRound {
  return {
    id: r.id,
    initiator: r.initiator,
    state: r.state,
    reason: r.reason,
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
    closedAt: iso(r.closedAt),
  };
}

/** The wire view of invoices with their recharges and red-letter rounds (two queries for any number of rows). */
export async function toInvoices(db: Db | Tx, rows: InvoiceRow[]): Promise<Invoice[]> {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const [items, rounds] = await Promise.all([
    db
      .select()
      .from(schema.invoicePayments)
      .where(inArray(schema.invoicePayments.invoiceId, ids))
      .orderBy(asc(schema.invoicePayments.paymentId)),
    db
      .select()
      .from(schema.redLetterRequests)
      .where(inArray(schema.redLetterRequests.invoiceId, ids))
      .orderBy(desc(schema.redLetterRequests.createdAt), desc(schema.redLetterRequests.id)),
  ]);
  return rows.map((r) => ({
    id: r.id,
    createdAt: r.createdAt.toISOString(),
    title: r.title,
    titleType: r.titleType,
    invoiceType: r.invoiceType,
    method: r.method,
    uscc: r.uscc,
    email: r.email,
    currency: r.currency,
    amount: r.amount.toString(),
    net: r.net.toString(),
    tax: r.tax.toString(),
    taxRateBp: r.taxRateBp,
    status: r.status,
    invoiceNo: r.invoiceNo,
    failReason: r.failReason,
    issuedAt: iso(r.issuedAt),
    redInvoiceNo: r.redInvoiceNo,
    billTo: r.billTo ?? null,
    items: items
      .filter((i) => i.invoiceId === r.id)
      .map((i) => ({ paymentId: i.paymentId, amount: i.amount.toString() })),
    redLetters: rounds.filter((x) => x.invoiceId === r.id).map(toRedLetterRound),
    pdfAvailable: r.pdfKey !== null,
    voidPdfAvailable: r.voidPdfKey !== null,
  }));
}

/** One invoice's wire view, read after a change. */
export async function readInvoice(db: Db | Tx, invoiceId: string): Promise<Invoice> {
  const rows = await db.select().from(schema.invoices).where(eq(schema.invoices.id, invoiceId));
  const [view] = await toInvoices(db, rows);
  return view!;
}
