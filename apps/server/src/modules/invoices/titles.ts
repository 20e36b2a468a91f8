/**
 * Saved invoice titles (§3 "invoice title status: normal, invalid"). A title is never edited or deleted: invoices
 * copy it at application, and marking it invalid only stops new applications from using it.
 */
import type { InvoiceTitle, InvoiceTitleRequest } from "@moonport/contracts";
import { newId, schema } from "@moonport/db";
import { and, desc, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";

type TitleRow = typeof schema.invoiceTitles.$inferSelect;

export function toInvoiceTitle(r: TitleRow): InvoiceTitle {
  return {
    id: r.id,
    titleType: r.titleType,
    title: r.title,
    uscc: r.uscc,
    bankName: r.bankName,
    bankAccount: r.bankAccount,
    companyAddress: r.companyAddress,
    companyPhone: r.companyPhone,
    status: r.status,
    createdAt: r.createdAt.toISOString(),
  };
}

export async function listInvoiceTitles(opts: { ctx: Pick<AppContext, "db">; access: OrgAccess }) {
  const rows = await opts.ctx.db
    .select()
    .from(schema.invoiceTitles)
    .where(eq(schema.invoiceTitles.orgId, opts.access.org.id))
    .orderBy(desc(schema.invoiceTitles.createdAt), desc(schema.invoiceTitles.id));
  return rows.map(toInvoiceTitle);
}

export async function createInvoiceTitle(opts: {
  ctx: Pick<AppContext, "db">;
  access: OrgAccess;
  body: InvoiceTitleRequest;
}): Promise<InvoiceTitle> {
  const parsed = opts.body;
  const personal = parsed.titleType === "personal";
  const [row] = await opts.ctx.db
    .insert(schema.invoiceTitles)
    .values({
      id: newId("ivt"),
      orgId: opts.access.org.id,
      titleType: parsed.titleType,
      title: parsed.title,
      // A personal title has no tax or bank details: whatever the form still held is not kept.
      uscc: personal ? null : (parsed.uscc?.toUpperCase() ?? null),
      bankName: personal ? null : (parsed.bankName ?? null),
      bankAccount: personal ? null : (parsed.bankAccount ?? null),
      companyAddress: personal ? null : (parsed.companyAddress ?? null),
      companyPhone: personal ? null : (parsed.companyPhone ?? null),
      createdBy: opts.access.userId,
    })
    .returning();
  return toInvoiceTitle(row!);
}

export async function invalidateInvoiceTitle(opts: {
  ctx: Pick<AppContext, "db">;
  access: OrgAccess;
  titleId: string;
}): Promise<InvoiceTitle> {
  const [row] = await opts.ctx.db
    .update(schema.invoiceTitles)
    .set({ status: "invalid" })
    .where(and(eq(schema.invoiceTitles.id, opts.titleId), eq(schema.invoiceTitles.orgId, opts.access.org.id)))
    .returning();
  if (!row) throw new AppError("not_found");
  return toInvoiceTitle(row);
}
