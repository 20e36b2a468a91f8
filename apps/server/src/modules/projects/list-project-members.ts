import { maskPhone, type ProjectMemberRow } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, asc, count, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { ProjectAccess } from "../../http/org-access.ts";

/** Members of a project (access: project members), with their organization nickname. */
export async function listProjectMembers(opts: {
  ctx: AppContext;
  project: ProjectAccess;
  page: number;
  pageSize: number;
}): Promise<{ items: ProjectMemberRow[]; total: number; page: number; pageSize: number }> {
  const { db } = opts.ctx;
  const { id: projectId, orgId } = opts.project.project;
  const where = eq(schema.projectMembers.projectId, projectId);
  const [total] = await db.select({ n: count() }).from(schema.projectMembers).where(where);
  const rows = await db
    .select({
      userId: schema.projectMembers.userId,
      role: schema.projectMembers.role,
      createdAt: schema.projectMembers.createdAt,
      nickname: schema.orgMembers.nickname,
      phone: schema.users.phone,
    })
    .from(schema.projectMembers)
    .innerJoin(schema.users, eq(schema.users.id, schema.projectMembers.userId))
    .innerJoin(
      schema.orgMembers,
      and(eq(schema.orgMembers.userId, schema.projectMembers.userId), eq(schema.orgMembers.orgId, orgId)),
    )
    .where(where)
    .orderBy(asc(schema.projectMembers.createdAt), asc(schema.projectMembers.userId))
    .limit(opts.pageSize)
    .offset((opts.page - 1) * opts.pageSize);
  return {
    items: rows.map((r) => ({
      userId: r.userId,
      nickname: r.nickname,
      phoneMasked: r.phone ? maskPhone(r.phone) : null,
      role: r.role,
      createdAt: r.createdAt.toISOString(),
    })),
    total: total?.n ?? 0,
    page: opts.page,
    pageSize: opts.pageSize,
  };
}
