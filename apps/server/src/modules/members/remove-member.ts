import { schema } from "@moonport/db";
import { and, eq, inArray } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { withTransaction } from "../../lib/transaction.ts";
import { disableApiKeys } from "../keys/index.ts";
import { assertNotLastAdmin } from "./admin-guard.ts";

/**
 * Removes a member (access: organization admins): their project memberships in this organization go, and every
 * API key they created here is disabled. The last admin cannot be removed.
 */
export async function removeMember(opts: { ctx: AppContext; access: OrgAccess; memberUserId: string }): Promise<void> {
  const orgId = opts.access.org.id;
  await withTransaction(opts.ctx, async (tx, afterCommit) => {
    const where = and(eq(schema.orgMembers.orgId, orgId), eq(schema.orgMembers.userId, opts.memberUserId));
    const [member] = await tx.select().from(schema.orgMembers).where(where);
    if (!member) throw new AppError("not_found");
    await assertNotLastAdmin(tx, orgId, opts.memberUserId);
    await tx.delete(schema.orgMembers).where(where);
    const projectIds = tx
      .select({ id: schema.projects.id })
      .from(schema.projects)
      .where(eq(schema.projects.orgId, orgId));
    await tx
      .delete(schema.projectMembers)
      .where(
        and(eq(schema.projectMembers.userId, opts.memberUserId), inArray(schema.projectMembers.projectId, projectIds)),
      );
    await disableApiKeys({ tx, afterCommit, keyEvents: opts.ctx.keyEvents }, { orgId, createdBy: opts.memberUserId });
    await tx
      .update(schema.users)
      .set({ currentOrgId: null })
      .where(and(eq(schema.users.id, opts.memberUserId), eq(schema.users.currentOrgId, orgId)));
  });
}
