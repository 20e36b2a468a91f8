import type { MeWithOrgs } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { isUniqueViolation } from "../../lib/db-errors.ts";
import { assertUsernameFree, usernameTaken } from "./create-user.ts";
import { getMe } from "./get-me.ts";

/** Renames the account; the name must be free in any letter case (changing only your own letter case is fine). */
export async function changeUsername(opts: { ctx: AppContext; userId: string; username: string }): Promise<MeWithOrgs> {
  const { ctx, userId, username } = opts;
  return ctx.db.transaction(async (tx) => {
    await assertUsernameFree({ tx, username, exceptUserId: userId });
    try {
      await tx.update(schema.users).set({ username, updatedAt: ctx.clock.now() }).where(eq(schema.users.id, userId));
    } catch (e) {
      if (isUniqueViolation(e, "users_username_lower_uq")) throw usernameTaken();
      throw e;
    }
    return getMe({ db: tx, userId });
  });
}
