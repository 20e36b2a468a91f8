import type { PlaygroundSession, PlaygroundSessionState } from "@moonport/contracts";
import { newId, schema } from "@moonport/db";
import { and, count, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { assertWritable, MAX_SESSIONS_PER_PROJECT, toSession } from "./session-row.ts";

/** Saves a new session for the caller in the project. */
export async function createPlaygroundSession(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
  title: string;
  state: PlaygroundSessionState;
}): Promise<PlaygroundSession> {
  assertWritable(opts.project);
  const t = schema.playgroundSessions;
  const [n] = await opts.ctx.db
    .select({ n: count() })
    .from(t)
    .where(and(eq(t.userId, opts.access.userId), eq(t.projectId, opts.project.project.id)));
  if ((n?.n ?? 0) >= MAX_SESSIONS_PER_PROJECT) {
    throw new AppError("limit_reached", { params: { reason: `${MAX_SESSIONS_PER_PROJECT} sessions` } });
  }
  const now = opts.ctx.clock.now();
  const [row] = await opts.ctx.db
    .insert(t)
    .values({
      id: newId("pgs"),
      userId: opts.access.userId,
      orgId: opts.access.org.id,
      projectId: opts.project.project.id,
      title: opts.title,
      mode: opts.state.mode,
      state: opts.state,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return toSession(row!);
}
