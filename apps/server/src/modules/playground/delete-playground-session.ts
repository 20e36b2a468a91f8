import { schema } from "@moonport/db";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { assertWritable, ownSession } from "./session-row.ts";

/** Deletes one of the caller's sessions. */
export async function deletePlaygroundSession(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
  sessionId: string;
}): Promise<{ ok: true }> {
  assertWritable(opts.project);
  const rows = await opts.ctx.db
    .delete(schema.playgroundSessions)
    .where(ownSession(opts.access, opts.project, opts.sessionId))
    .returning({ id: schema.playgroundSessions.id });
  if (!rows.length) throw new AppError("not_found");
  return { ok: true };
}
