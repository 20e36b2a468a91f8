import { type PlaygroundSession, PlaygroundSessionState, type PlaygroundSessionSummary } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";

type Row = typeof schema.playgroundSessions.$inferSelect;

export function toSummary(r: Row): PlaygroundSessionSummary {
  return {
    id: r.id,
    title: r.title,
    mode: r.mode as PlaygroundSessionSummary["mode"],
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

export function toSession(r: Row): PlaygroundSession {
  // Stored by this module after validation; parsing again fills defaults added since it was saved.
  return { ...toSummary(r), state: PlaygroundSessionState.parse(r.state) };
}

/** Sessions are private: only their author sees them, in the project they were made in. */
export function ownSession(access: OrgAccess, project: ProjectAccess, sessionId: string) {
  return and(
    eq(schema.playgroundSessions.id, sessionId),
    eq(schema.playgroundSessions.userId, access.userId),
    eq(schema.playgroundSessions.projectId, project.project.id),
  );
}

export async function findOwnSession(ctx: AppContext, access: OrgAccess, project: ProjectAccess, sessionId: string) {
  const [row] = await ctx.db
    .select()
    .from(schema.playgroundSessions)
    .where(ownSession(access, project, sessionId));
  if (!row) throw new AppError("not_found");
  return row;
}

/** Archived projects are read-only (ARCHITECTURE "Console roles"): their sessions can be read, not changed. */
export function assertWritable(project: ProjectAccess): void {
  if (project.project.status !== "active") throw new AppError("project_archived");
}

/** Per user and project: enough history for anyone; the oldest must be deleted to save more. */
export const MAX_SESSIONS_PER_PROJECT = 200;
