import { randomBytes } from "node:crypto";
import type { OrgRole } from "@moonport/contracts";
import { newId, schema, sha256Hex } from "@moonport/db";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { fieldError } from "../../lib/app-error.ts";

export const INVITATION_TTL_MS = 7 * 24 * 3600_000;

/**
 * Creates a single-use invitation link valid for 7 days. Only the token's hash is stored; the link is returned
 * once for the admin to share (access: organization admins). The invitee must sign in with the account bound to `phone` to accept.
 */
export async function inviteMember(opts: {
  ctx: AppContext;
  access: OrgAccess;
  phone: string;
  nickname: string;
  role: OrgRole;
  now?: Date;
}): Promise<{ invitationId: string; path: string; expiresAt: string }> {
  const now = opts.now ?? new Date();
  const orgId = opts.access.org.id;
  return opts.ctx.db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ userId: schema.orgMembers.userId })
      .from(schema.orgMembers)
      .innerJoin(schema.users, eq(schema.users.id, schema.orgMembers.userId))
      .where(and(eq(schema.orgMembers.orgId, orgId), eq(schema.users.phone, opts.phone)))
      .limit(1);
    if (existing) throw fieldError("validation_failed", "phone", "already_member");
    const [open] = await tx
      .select({ id: schema.invitations.id })
      .from(schema.invitations)
      .where(
        and(
          eq(schema.invitations.orgId, orgId),
          eq(schema.invitations.phone, opts.phone),
          isNull(schema.invitations.acceptedAt),
          isNull(schema.invitations.revokedAt),
          gt(schema.invitations.expiresAt, now),
        ),
      )
      .limit(1);
    if (open) throw fieldError("validation_failed", "phone", "invitation_pending");
    const token = randomBytes(24).toString("base64url");
    const id = newId("inv");
    const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
    await tx.insert(schema.invitations).values({
      id,
      orgId,
      tokenHash: sha256Hex(token),
      phone: opts.phone,
      nickname: opts.nickname,
      role: opts.role,
      createdBy: opts.access.userId,
      createdAt: now,
      expiresAt,
    });
    return { invitationId: id, path: `/invite/${token}`, expiresAt: expiresAt.toISOString() };
  });
}
