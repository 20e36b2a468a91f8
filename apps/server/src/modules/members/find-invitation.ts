import { type Db, schema, sha256Hex, type Tx } from "@moonport/db";
import { eq } from "drizzle-orm";
import { AppError } from "../../lib/app-error.ts";

type Invitation = typeof schema.invitations.$inferSelect;
type InvitationState = "open" | "expired" | "used" | "revoked";

export async function findInvitation(db: Db | Tx, token: string, forUpdate = false): Promise<Invitation> {
  const q = db
    .select()
    .from(schema.invitations)
    .where(eq(schema.invitations.tokenHash, sha256Hex(token)));
  const [row] = forUpdate ? await q.for("update") : await q;
  if (!row) throw new AppError("invitation_invalid");
  return row;
}

export function invitationState(inv: Invitation, now: Date): InvitationState {
  if (inv.acceptedAt) return "used";
  if (inv.revokedAt) return "revoked";
  if (inv.expiresAt.getTime() <= now.getTime()) return "expired";
  return "open";
}
