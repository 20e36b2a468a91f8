import { type AdminInvoice, type InvoiceOverview, VAT_RATE_BP } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, asc, count, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { toInvoices } from "./invoice-view.ts";
import { listInvoiceTitles } from "./titles.ts";

/**
 * What the application form needs: the gate, the paid recharges with their available amounts, the titles (cn).
 * global card orders are left out: each has its own invoice from the moment it is paid.
 */
export async function getInvoiceOverview(opts: { ctx: AppContext; access: OrgAccess }): Promise<InvoiceOverview> {
  const { ctx, access } = opts;
  const p = schema.payments;
  const o = schema.orderInvoices;
  const rows = await ctx.db
    .select({ p })
    .from(p)
    .leftJoin(o, eq(o.paymentId, p.id))
    .where(and(eq(p.orgId, access.org.id), eq(p.status, "success"), isNull(o.paymentId)))
    .orderBy(desc(p.finishedAt), desc(p.id))
    .limit(200)
    .then((r) => r.map((x) => x.p));
  return {
    verified: access.org.verification !== "unverified",
    taxRateBp: access.org.edition === "cn" ? VAT_RATE_BP : ctx.config.invoices.gstRateBp,
    payments: rows.map((r) => ({
      id: r.id,
      createdAt: (r.finishedAt ?? r.createdAt).toISOString(),
      paymentType: r.payType,
      currency: r.currency,
      amount: r.amount.toString(),
      invoiced: r.invoicedAmount.toString(),
      refunded: r.refundedAmount.toString(),
      available: (r.amount - r.invoicedAmount - r.refundedAmount).toString(),
    })),
    titles: await listInvoiceTitles({ ctx, access }),
  };
}

export async function listInvoices(opts: { ctx: AppContext; access: OrgAccess; page: number; pageSize: number }) {
  const { ctx } = opts;
  const i = schema.invoices;
  const where = eq(i.orgId, opts.access.org.id);
  const [[total], rows] = await Promise.all([
    ctx.db.select({ n: count() }).from(i).where(where),
    ctx.db
      .select()
      .from(i)
      .where(where)
      .orderBy(desc(i.createdAt), desc(i.id))
      .limit(opts.pageSize)
      .offset((opts.page - 1) * opts.pageSize),
  ]);
  return { items: await toInvoices(ctx.db, rows), total: total?.n ?? 0, page: opts.page, pageSize: opts.pageSize };
}

/**
 * The back office's queue: applications to issue, oldest first; or issued invoices (where the seller may start a
 * red-letter round), imported ones, and those being voided, those being voided first.
 */
export async function listInvoiceQueue(opts: { ctx: Pick<AppContext, "db">; queue: "waiting" | "issued" }) {
  const { ctx } = opts;
  const i = schema.invoices;
  const rows = await ctx.db
    .select({ inv: i, orgName: schema.organizations.name })
    .from(i)
    .innerJoin(schema.organizations, eq(schema.organizations.id, i.orgId))
    .where(opts.queue === "waiting" ? eq(i.status, "waiting") : inArray(i.status, ["refunding", "success", "imported"]))
    .orderBy(
      ...(opts.queue === "waiting"
        ? [asc(i.createdAt), asc(i.id)]
        : [sql`${i.status} = 'refunding' desc`, desc(i.issuedAt), desc(i.id)]),
    )
    .limit(200);
  const views = await toInvoices(
    ctx.db,
    rows.map((r) => r.inv),
  );
  const items: AdminInvoice[] = views.map((v, n) => {
    const r = rows[n]!.inv;
    return {
      ...v,
      orgId: r.orgId,
      orgName: rows[n]!.orgName,
      bankName: r.bankName,
      bankAccount: r.bankAccount,
      companyAddress: r.companyAddress,
      companyPhone: r.companyPhone,
    };
  });
  return { items };
}
