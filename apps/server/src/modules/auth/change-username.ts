import type { MeWithOrgs } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { assertUsernameFree, usernameTaken } from "./create-user.ts";
import { getMe } from "./get-me.ts";

/** docs/product-spec.md §5: a member nickname has at most 32 characters (usernames share its charset). */
const NICKNAME = /^[A-Za-z0-9_]{1,32}$/;

/**
 * Renames the account; the name must be free in any letter case (changing only your own letter case is fine).
 * Memberships still named after the old username (the nickname every organization starts with) follow the rename,
 * so lists of members and key creators show the current name; a nickname an admin chose stays.
 */
export async function changeUsername(opts: { ctx: AppContext; userId: string; username: string }): Promise<MeWithOrgs> {
  const { ctx, userId, username } = opts;
  return ctx.db.transaction(async (tx) => {
    await assertUsernameFree({ tx, username, exceptUserId: userId });
    const [before] = await tx
      .select({ username: schema.users.username })
      .from(schema.users)
      .where(eq(schema.users.id, userId))
      .limit(1);
    try {
      await tx.update(schema.users).set({ username, updatedAt: ctx.clock.now() }).where(eq(schema.users.id, userId));
    } catch (e) {
      if (isUniqueViolation(e, "users_username_lower_uq")) throw usernameTaken();
      throw e;
    }
    if (before?.username && NICKNAME.test(username)) {
      await tx
        .update(schema.orgMembers)
        .set({ nickname: username })
        .where(and(eq(schema.orgMembers.userId, userId), eq(schema.orgMembers.nickname, before.username)));
    }
    return getMe({ db: tx, userId });
  });
}
