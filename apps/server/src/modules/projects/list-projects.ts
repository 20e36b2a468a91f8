import type { ProjectRow } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, count, desc, eq, inArray, type SQL } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { type OrgAccess, visibleProjects } from "../../http/org-access.ts";
import { toProjectRow } from "./project-row.ts";

/** Projects the caller can see (access: organization members; all projects for admins), newest first, one page. */
export async function listProjects(opts: {
  ctx: AppContext;
  access: OrgAccess;
  status: "active" | "archived" | "all";
  page: number;
  pageSize: number;
}): Promise<{ items: ProjectRow[]; total: number; page: number; pageSize: number }> {
  const { db } = opts.ctx;
  const visible = await visibleProjects(db, opts.access);
  const where: SQL[] = [eq(schema.projects.orgId, opts.access.org.id)];
  if (opts.status !== "all") where.push(eq(schema.projects.status, opts.status));
  if (!visible.all) where.push(inArray(schema.projects.id, [...visible.roles.keys(), "-"]));
  const [total] = await db
    .select({ n: count() })
    .from(schema.projects)
    .where(and(...where));
  const rows = await db
    .select()
    .from(schema.projects)
    .where(and(...where))
    .orderBy(desc(schema.projects.isDefault), desc(schema.projects.createdAt), desc(schema.projects.id))
    .limit(opts.pageSize)
    .offset((opts.page - 1) * opts.pageSize);
  return {
    items: rows.map((p) => toProjectRow(p, visible.all ? "admin" : (visible.roles.get(p.id) ?? "member"))),
    total: total?.n ?? 0,
    page: opts.page,
    pageSize: opts.pageSize,
  };
}
