import { maskPhone } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { findInvitation, invitationState } from "./find-invitation.ts";

/**
 * Accepts or declines an invitation as the signed-in user. The user's bound phone must be the invited one.
 * Either answer uses the link up: accepting creates the membership (and makes it the current organization),
 * declining revokes it.
 */
export async function respondToInvitation(opts: {
  ctx: AppContext;
  userId: string;
  token: string;
  answer: "accept" | "decline";
  now?: Date;
}): Promise<{ orgId: string }> {
  const now = opts.now ?? new Date();
  return opts.ctx.db.transaction(async (tx) => {
    const inv = await findInvitation(tx, opts.token, true);
    if (invitationState(inv, now) !== "open") throw new AppError("invitation_invalid");
    const [user] = await tx
      .select({ phone: schema.users.phone })
      .from(schema.users)
      .where(eq(schema.users.id, opts.userId));
    if (!user || user.phone !== inv.phone) {
      throw new AppError("invitation_phone_mismatch", { params: { phone: maskPhone(inv.phone) } });
    }
    const [member] = await tx
      .select({ role: schema.orgMembers.role })
      .from(schema.orgMembers)
      .where(and(eq(schema.orgMembers.orgId, inv.orgId), eq(schema.orgMembers.userId, opts.userId)));
    if (opts.answer === "decline") {
      await tx.update(schema.invitations).set({ revokedAt: now }).where(eq(schema.invitations.id, inv.id));
      return { orgId: inv.orgId };
    }
    if (member) throw new AppError("already_member");
    await tx.insert(schema.orgMembers).values({
      orgId: inv.orgId,
      userId: opts.userId,
      role: inv.role,
      nickname: inv.nickname,
      createdAt: now,
    });
    await tx
      .update(schema.invitations)
      .set({ acceptedAt: now, acceptedBy: opts.userId })
      .where(eq(schema.invitations.id, inv.id));
    await tx.update(schema.users).set({ currentOrgId: inv.orgId }).where(eq(schema.users.id, opts.userId));
    return { orgId: inv.orgId };
  });
}
