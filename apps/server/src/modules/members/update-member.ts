import type { OrgRole } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { assertNotLastAdmin } from "./admin-guard.ts";

/** Edits a member's nickname and/or role (access: organization admins); the last admin cannot be demoted. */
export async function updateMember(opts: {
  ctx: AppContext;
  access: OrgAccess;
  memberUserId: string;
  nickname?: string;
  role?: OrgRole;
}): Promise<void> {
  const orgId = opts.access.org.id;
  await opts.ctx.db.transaction(async (tx) => {
    const where = and(eq(schema.orgMembers.orgId, orgId), eq(schema.orgMembers.userId, opts.memberUserId));
    const [member] = await tx.select().from(schema.orgMembers).where(where);
    if (!member) throw new AppError("not_found");
    if (opts.role === "member" && member.role === "admin") await assertNotLastAdmin(tx, orgId, opts.memberUserId);
    await tx
      .update(schema.orgMembers)
      .set({
        ...(opts.nickname !== undefined ? { nickname: opts.nickname } : {}),
        ...(opts.role !== undefined ? { role: opts.role } : {}),
      })
      .where(where);
  });
}
