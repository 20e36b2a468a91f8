import type { ProjectRole } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { assertProjectActive, type ProjectAccess } from "../../http/org-access.ts";
import { AppError, fieldError } from "../../lib/app-error.ts";
import { withTransaction } from "../../lib/transaction.ts";
import { disableApiKeys } from "../keys/index.ts";

/**
 * Adds, re-roles or removes a project member (access: project admins; organization admins everywhere). Only members of
 * the organization can be added. Removing someone disables the keys they created in the project.
 */
export async function changeProjectMember(opts: {
  ctx: AppContext;
  project: ProjectAccess;
  memberUserId: string;
  action: { kind: "add"; role: ProjectRole } | { kind: "update"; role: ProjectRole } | { kind: "remove" };
}): Promise<void> {
  const { action } = opts;
  const { id: projectId, orgId } = opts.project.project;
  await withTransaction(opts.ctx, async (tx, afterCommit) => {
    assertProjectActive(opts.project.project);
    const pmWhere = and(
      eq(schema.projectMembers.projectId, projectId),
      eq(schema.projectMembers.userId, opts.memberUserId),
    );
    const [existing] = await tx.select().from(schema.projectMembers).where(pmWhere);
    if (action.kind === "add") {
      const [orgMember] = await tx
        .select({ userId: schema.orgMembers.userId })
        .from(schema.orgMembers)
        .where(and(eq(schema.orgMembers.orgId, orgId), eq(schema.orgMembers.userId, opts.memberUserId)));
      if (!orgMember) throw fieldError("validation_failed", "userId", "not_org_member");
      if (existing) throw fieldError("validation_failed", "userId", "already_member");
      await tx.insert(schema.projectMembers).values({ projectId, userId: opts.memberUserId, role: action.role });
      return;
    }
    if (!existing) throw new AppError("not_found");
    if (action.kind === "update") {
      await tx.update(schema.projectMembers).set({ role: action.role }).where(pmWhere);
      return;
    }
    await tx.delete(schema.projectMembers).where(pmWhere);
    await disableApiKeys(
      { tx, afterCommit, keyEvents: opts.ctx.keyEvents },
      { orgId, projectId, createdBy: opts.memberUserId },
    );
  });
}
