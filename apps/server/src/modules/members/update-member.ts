import type { OrgRole } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { assertOrgAdmin, getOrgAccess } from "../orgs/access.ts";
import { assertNotLastAdmin } from "./admin-guard.ts";

/** Edits a member's nickname and/or role (organization admins only); the last admin cannot be demoted. */
export async function updateMember(opts: {
  ctx: AppContext;
  userId: string;
  orgId: string;
  memberUserId: string;
  nickname?: string;
  role?: OrgRole;
}): Promise<void> {
  await opts.ctx.db.transaction(async (tx) => {
    const access = await getOrgAccess(tx, opts);
    assertOrgAdmin(access);
    const where = and(eq(schema.orgMembers.orgId, opts.orgId), eq(schema.orgMembers.userId, opts.memberUserId));
    const [member] = await tx.select().from(schema.orgMembers).where(where);
    if (!member) throw new AppError("not_found");
    if (opts.role === "member" && member.role === "admin") await assertNotLastAdmin(tx, opts.orgId, opts.memberUserId);
    await tx
      .update(schema.orgMembers)
      .set({
        ...(opts.nickname !== undefined ? { nickname: opts.nickname } : {}),
        ...(opts.role !== undefined ? { role: opts.role } : {}),
      })
      .where(where);
  });
}
