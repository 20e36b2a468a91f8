import type { SessionInfo } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, desc, eq, gt, isNull } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";

/** The user's live sessions (not revoked, not expired), newest activity first; the caller's own is flagged. */
export async function listSessions(opts: {
  ctx: AppContext;
  userId: string;
  currentSessionId: string;
}): Promise<SessionInfo[]> {
  const { ctx, userId } = opts;
  const rows = await ctx.db
    .select()
    .from(schema.sessions)
    .where(
      and(
        eq(schema.sessions.userId, userId),
        isNull(schema.sessions.revokedAt),
        gt(schema.sessions.expiresAt, ctx.clock.now()),
      ),
    )
    .orderBy(desc(schema.sessions.lastSeenAt), desc(schema.sessions.createdAt));
  return rows.map((s) => ({
    id: s.id,
    createdAt: s.createdAt.toISOString(),
    lastSeenAt: s.lastSeenAt.toISOString(),
    expiresAt: s.expiresAt.toISOString(),
    ip: s.ip,
    userAgent: s.userAgent,
    current: s.id === opts.currentSessionId,
  }));
}

/** Signs one of the user's own sessions out. Another user's session id is answered like an unknown one. */
export async function revokeSession(opts: { ctx: AppContext; userId: string; sessionId: string }): Promise<void> {
  const { ctx, userId, sessionId } = opts;
  const revoked = await ctx.db
    .update(schema.sessions)
    .set({ revokedAt: ctx.clock.now() })
    .where(
      and(eq(schema.sessions.id, sessionId), eq(schema.sessions.userId, userId), isNull(schema.sessions.revokedAt)),
    )
    .returning({ id: schema.sessions.id });
  if (revoked.length === 0) throw new AppError("not_found");
}
