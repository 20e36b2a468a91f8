import { maskPhone } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, asc, eq, notInArray } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { assertProjectActive, type ProjectAccess } from "../../http/org-access.ts";

/**
 * Organization members who are not yet in the project: the only people a project admin can add. Anyone else
 * must first be invited to the organization by an organization admin. Access: project admins.
 */
export async function listProjectMemberCandidates(opts: {
  ctx: AppContext;
  project: ProjectAccess;
}): Promise<{ items: { userId: string; nickname: string; phoneMasked: string | null }[] }> {
  const { db } = opts.ctx;
  const { id: projectId, orgId } = opts.project.project;
  assertProjectActive(opts.project.project);
  const inProject = db
    .select({ id: schema.projectMembers.userId })
    .from(schema.projectMembers)
    .where(eq(schema.projectMembers.projectId, projectId));
  const rows = await db
    .select({ userId: schema.orgMembers.userId, nickname: schema.orgMembers.nickname, phone: schema.users.phone })
    .from(schema.orgMembers)
    .innerJoin(schema.users, eq(schema.users.id, schema.orgMembers.userId))
    .where(and(eq(schema.orgMembers.orgId, orgId), notInArray(schema.orgMembers.userId, inProject)))
    .orderBy(asc(schema.orgMembers.nickname));
  return {
    items: rows.map((r) => ({
      userId: r.userId,
      nickname: r.nickname,
      phoneMasked: r.phone ? maskPhone(r.phone) : null,
    })),
  };
}
