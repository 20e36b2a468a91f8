import { randomBytes } from "node:crypto";
import { schema, sha256Hex } from "@moonport/db";
import { and, eq, isNull } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { INVITATION_TTL_MS } from "./invite-member.ts";

/**
 * A fresh link for a pending (or expired, never answered) invitation: a new token replaces the stored hash, so
 * the previous link stops working, and the 7 days start again. Only the token's hash is stored; the link is
 * returned once, as when inviting (access: organization admins, declared on the route).
 */
export async function resendInvitation(opts: {
  ctx: AppContext;
  access: OrgAccess;
  invitationId: string;
  now?: Date;
}): Promise<{ invitationId: string; path: string; expiresAt: string }> {
  const now = opts.now ?? new Date();
  const orgId = opts.access.org.id;
  const token = randomBytes(24).toString("base64url");
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
  const updated = await opts.ctx.db
    .update(schema.invitations)
    .set({ tokenHash: sha256Hex(token), expiresAt })
    .where(
      and(
        eq(schema.invitations.id, opts.invitationId),
        eq(schema.invitations.orgId, orgId),
        isNull(schema.invitations.acceptedAt),
        isNull(schema.invitations.revokedAt),
      ),
    )
    .returning({ id: schema.invitations.id });
  if (updated.length === 0) throw new AppError("not_found");
  return { invitationId: opts.invitationId, path: `/invite/${token}`, expiresAt: expiresAt.toISOString() };
}
