import { schema } from "@moonport/db";
import { and, eq, isNull, ne } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { hashPassword, verifyPassword } from "./password.ts";

/**
 * Changes the password after checking the current one, and signs out every other session of the user (a stolen
 * session must not survive a password change). The session making the change stays signed in.
 */
export async function changePassword(opts: {
  ctx: AppContext;
  userId: string;
  sessionId: string;
  currentPassword: string;
  newPassword: string;
}): Promise<void> {
  const { ctx, userId } = opts;
  const [user] = await ctx.db
    .select({ passwordHash: schema.users.passwordHash })
    .from(schema.users)
    .where(eq(schema.users.id, userId));
  if (!user) throw new AppError("unauthenticated");
  if (!(await verifyPassword(user.passwordHash, opts.currentPassword))) {
    throw new AppError("wrong_password", { details: [{ path: "currentPassword", message: "wrong_password" }] });
  }
  const passwordHash = await hashPassword(opts.newPassword);
  const now = ctx.clock.now();
  await ctx.db.transaction(async (tx) => {
    await tx.update(schema.users).set({ passwordHash, updatedAt: now }).where(eq(schema.users.id, userId));
    await tx
      .update(schema.sessions)
      .set({ revokedAt: now })
      .where(
        and(
          eq(schema.sessions.userId, userId),
          ne(schema.sessions.id, opts.sessionId),
          isNull(schema.sessions.revokedAt),
        ),
      );
  });
}
