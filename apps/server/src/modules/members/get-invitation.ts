import { type InvitationPreview, maskPhone } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { findInvitation, invitationState } from "./find-invitation.ts";

/**
 * What the invitation page shows before the invitee decides: the organization's name and the invitation's
 * state. The token is the secret, so no session is needed to read it. With a session (`userId`) it also says
 * whether the caller's phone is the invited one, so the page can offer switching accounts instead of a Join
 * that would fail.
 */
export async function getInvitation(opts: {
  ctx: AppContext;
  token: string;
  userId?: string;
  now?: Date;
}): Promise<InvitationPreview> {
  const inv = await findInvitation(opts.ctx.db, opts.token);
  const [org] = await opts.ctx.db
    .select({ name: schema.organizations.name })
    .from(schema.organizations)
    .where(eq(schema.organizations.id, inv.orgId));
  if (!org) throw new AppError("invitation_invalid");
  let forSignedInUser: boolean | null = null;
  if (opts.userId) {
    const [user] = await opts.ctx.db
      .select({ phone: schema.users.phone })
      .from(schema.users)
      .where(eq(schema.users.id, opts.userId));
    forSignedInUser = user?.phone === inv.phone;
  }
  return {
    organizationName: org.name,
    nickname: inv.nickname,
    role: inv.role,
    status: invitationState(inv, opts.now ?? new Date()),
    expiresAt: inv.expiresAt.toISOString(),
    phoneMasked: maskPhone(inv.phone),
    forSignedInUser,
  };
}
