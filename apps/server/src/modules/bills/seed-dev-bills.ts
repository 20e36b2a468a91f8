import { newId, schema } from "@moonport/db";
import { and, eq, gte } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { insertBillRows } from "../billing/index.ts";

/**
 * Development seam (DEV_SEAMS, loopback only): copies the organization's bill rows of the last 24 hours into the
 * 15th of `month`, so a browser test can export a past month holding real gateway rows (a month becomes
 * exportable only on the 5th of the next). Never registered in production.
 */
export async function seedDevBills(opts: { ctx: AppContext; access: OrgAccess; month: string }): Promise<number> {
  const { db, clock } = opts.ctx;
  const since = new Date(clock.now().getTime() - 86_400_000);
  const rows = await db
    .select()
    .from(schema.requestBills)
    .where(and(eq(schema.requestBills.orgId, opts.access.org.id), gte(schema.requestBills.createdAt, since)));
  if (!rows.length) return 0;
  const day = new Date(`${opts.month}-15T04:00:00Z`);
  const copies = rows.map((r, i) => ({
    ...r,
    id: newId("bl"),
    requestId: `${r.requestId}-seed`,
    createdAt: new Date(day.getTime() + i * 1000),
  }));
  await insertBillRows(db, copies, opts.access.org.edition);
  return rows.length;
}
