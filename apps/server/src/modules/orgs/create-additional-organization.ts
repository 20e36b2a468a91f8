import type { Edition } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { createOrganization } from "./create-organization.ts";

/**
 * A signed-in user creates another organization (beyond the personal one from sign-up); they become its admin,
 * it gets a default project, and the console switches to it.
 */
export async function createAdditionalOrganization(opts: {
  ctx: AppContext;
  userId: string;
  name: string;
  edition: Edition;
}): Promise<{ id: string; defaultProjectId: string }> {
  return opts.ctx.db.transaction(async (tx) => {
    const [user] = await tx
      .select({ username: schema.users.username })
      .from(schema.users)
      .where(eq(schema.users.id, opts.userId))
      .limit(1);
    if (!user) throw new AppError("unauthenticated");
    // Usernames follow the nickname charset; a user without one gets a neutral nickname they can edit.
    const nickname = user.username && /^[A-Za-z0-9_]{1,32}$/.test(user.username) ? user.username : "admin";
    const { orgId, projectId } = await createOrganization({
      db: tx,
      name: opts.name,
      edition: opts.edition,
      creatorUserId: opts.userId,
      creatorNickname: nickname,
    });
    await tx.update(schema.users).set({ currentOrgId: orgId }).where(eq(schema.users.id, opts.userId));
    return { id: orgId, defaultProjectId: projectId };
  });
}
