import type { PlaygroundSession, PlaygroundSessionState } from "@moonport/contracts";
import { schema } from "@moonport/db";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { assertWritable, ownSession, toSession } from "./session-row.ts";

/** Renames a session or replaces its state (the page saves as the user works). */
export async function updatePlaygroundSession(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
  sessionId: string;
  changes: { title?: string; state?: PlaygroundSessionState };
}): Promise<PlaygroundSession> {
  assertWritable(opts.project);
  const { title, state } = opts.changes;
  const [row] = await opts.ctx.db
    .update(schema.playgroundSessions)
    .set({
      ...(title !== undefined ? { title } : {}),
      ...(state !== undefined ? { state, mode: state.mode } : {}),
      updatedAt: opts.ctx.clock.now(),
    })
    .where(ownSession(opts.access, opts.project, opts.sessionId))
    .returning();
  if (!row) throw new AppError("not_found");
  return toSession(row);
}
