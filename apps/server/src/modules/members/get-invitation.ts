import type { InvitationPreview } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { findInvitation, invitationState } from "./find-invitation.ts";

/**
 * What the invitation page shows before the invitee decides: the organization's name and the invitation's
 * state. The token is the secret, so no session is needed to read it.
 */
export async function getInvitation(opts: { ctx: AppContext; token: string; now?: Date }): Promise<InvitationPreview> {
  const inv = await findInvitation(opts.ctx.db, opts.token);
  const [org] = await opts.ctx.db
    .select({ name: schema.organizations.name })
    .from(schema.organizations)
    .where(eq(schema.organizations.id, inv.orgId));
  if (!org) throw new AppError("invitation_invalid");
  return {
    organizationName: org.name,
    nickname: inv.nickname,
    role: inv.role,
    status: invitationState(inv, opts.now ?? new Date()),
    expiresAt: inv.expiresAt.toISOString(),
  };
}
