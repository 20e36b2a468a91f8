import type { ProjectRole } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, eq, isNull } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError, fieldError } from "../../lib/app-error.ts";
import { withTransaction } from "../../lib/transaction.ts";
import { invalidateKeysAfterCommit } from "../keys/invalidate-keys.ts";
import { assertProjectActive, assertProjectAdmin, getOrgAccess, getProjectAccess } from "../orgs/access.ts";

/**
 * Adds, re-roles or removes a project member (project admins; organization admins everywhere). Only members of
 * the organization can be added. Removing someone disables the keys they created in the project.
 */
export async function changeProjectMember(opts: {
  ctx: AppContext;
  userId: string;
  orgId: string;
  projectId: string;
  memberUserId: string;
  action: { kind: "add"; role: ProjectRole } | { kind: "update"; role: ProjectRole } | { kind: "remove" };
}): Promise<void> {
  const { action } = opts;
  await withTransaction(opts.ctx, async (tx, afterCommit) => {
    const access = await getOrgAccess(tx, opts);
    const pa = await getProjectAccess(tx, access, opts.projectId);
    assertProjectAdmin(pa);
    assertProjectActive(pa.project);
    const pmWhere = and(
      eq(schema.projectMembers.projectId, opts.projectId),
      eq(schema.projectMembers.userId, opts.memberUserId),
    );
    const [existing] = await tx.select().from(schema.projectMembers).where(pmWhere);
    if (action.kind === "add") {
      const [orgMember] = await tx
        .select({ userId: schema.orgMembers.userId })
        .from(schema.orgMembers)
        .where(and(eq(schema.orgMembers.orgId, opts.orgId), eq(schema.orgMembers.userId, opts.memberUserId)));
      if (!orgMember) throw fieldError("validation_failed", "userId", "not_org_member");
      if (existing) throw fieldError("validation_failed", "userId", "already_member");
      await tx
        .insert(schema.projectMembers)
        .values({ projectId: opts.projectId, userId: opts.memberUserId, role: action.role });
      return;
    }
    if (!existing) throw new AppError("not_found");
    if (action.kind === "update") {
      await tx.update(schema.projectMembers).set({ role: action.role }).where(pmWhere);
      return;
    }
    await tx.delete(schema.projectMembers).where(pmWhere);
    await tx
      .update(schema.apiKeys)
      .set({ status: "disabled" })
      .where(
        and(
          eq(schema.apiKeys.projectId, opts.projectId),
          eq(schema.apiKeys.createdBy, opts.memberUserId),
          isNull(schema.apiKeys.deletedAt),
        ),
      );
    await invalidateKeysAfterCommit(
      { tx, afterCommit, keyEvents: opts.ctx.keyEvents },
      { orgId: opts.orgId, projectId: opts.projectId, createdBy: opts.memberUserId },
    );
  });
}
