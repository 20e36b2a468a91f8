import { schema } from "@moonport/db";
import { and, eq, isNull } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";

/** Revokes a pending invitation (access: organization admins); its link stops working at once. */
export async function revokeInvitation(opts: {
  ctx: AppContext;
  access: OrgAccess;
  invitationId: string;
}): Promise<void> {
  const updated = await opts.ctx.db
    .update(schema.invitations)
    .set({ revokedAt: new Date() })
    .where(
      and(
        eq(schema.invitations.id, opts.invitationId),
        eq(schema.invitations.orgId, opts.access.org.id),
        isNull(schema.invitations.acceptedAt),
        isNull(schema.invitations.revokedAt),
      ),
    )
    .returning({ id: schema.invitations.id });
  if (updated.length === 0) throw new AppError("not_found");
}
