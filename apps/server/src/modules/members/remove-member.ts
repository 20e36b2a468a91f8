import { schema } from "@moonport/db";
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { withTransaction } from "../../lib/transaction.ts";
import { invalidateKeysAfterCommit } from "../keys/invalidate-keys.ts";
import { assertOrgAdmin, getOrgAccess } from "../orgs/access.ts";
import { assertNotLastAdmin } from "./admin-guard.ts";

/**
 * Removes a member (organization admins only): their project memberships in this organization go, and every
 * API key they created here is disabled. The last admin cannot be removed.
 */
export async function removeMember(opts: {
  ctx: AppContext;
  userId: string;
  orgId: string;
  memberUserId: string;
}): Promise<void> {
  await withTransaction(opts.ctx, async (tx, afterCommit) => {
    const access = await getOrgAccess(tx, opts);
    assertOrgAdmin(access);
    const where = and(eq(schema.orgMembers.orgId, opts.orgId), eq(schema.orgMembers.userId, opts.memberUserId));
    const [member] = await tx.select().from(schema.orgMembers).where(where);
    if (!member) throw new AppError("not_found");
    await assertNotLastAdmin(tx, opts.orgId, opts.memberUserId);
    await tx.delete(schema.orgMembers).where(where);
    const projectIds = tx
      .select({ id: schema.projects.id })
      .from(schema.projects)
      .where(eq(schema.projects.orgId, opts.orgId));
    await tx
      .delete(schema.projectMembers)
      .where(
        and(eq(schema.projectMembers.userId, opts.memberUserId), inArray(schema.projectMembers.projectId, projectIds)),
      );
    await tx
      .update(schema.apiKeys)
      .set({ status: "disabled" })
      .where(
        and(
          eq(schema.apiKeys.orgId, opts.orgId),
          eq(schema.apiKeys.createdBy, opts.memberUserId),
          isNull(schema.apiKeys.deletedAt),
        ),
      );
    await tx
      .update(schema.users)
      .set({ currentOrgId: null })
      .where(and(eq(schema.users.id, opts.memberUserId), eq(schema.users.currentOrgId, opts.orgId)));
    await invalidateKeysAfterCommit(
      { tx, afterCommit, keyEvents: opts.ctx.keyEvents },
      { orgId: opts.orgId, createdBy: opts.memberUserId },
    );
  });
}
