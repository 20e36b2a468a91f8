import type { MeWithOrgs } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { getMe } from "./get-me.ts";

/** Switches the organization the console shows; only to one the user belongs to. Persists across sessions. */
export async function setCurrentOrg(opts: { ctx: AppContext; userId: string; orgId: string }): Promise<MeWithOrgs> {
  const { ctx, userId, orgId } = opts;
  return ctx.db.transaction(async (tx) => {
    const [member] = await tx
      .select({ orgId: schema.orgMembers.orgId })
      .from(schema.orgMembers)
      .where(and(eq(schema.orgMembers.orgId, orgId), eq(schema.orgMembers.userId, userId)));
    if (!member) throw new AppError("not_a_member");
    await tx.update(schema.users).set({ currentOrgId: orgId }).where(eq(schema.users.id, userId));
    return getMe({ db: tx, userId });
  });
}
