import type { PlaygroundSession } from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import { findOwnSession, toSession } from "./session-row.ts";

/** One of the caller's sessions with its whole state; anyone else's is `not_found`. */
export async function getPlaygroundSession(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
  sessionId: string;
}): Promise<PlaygroundSession> {
  return toSession(await findOwnSession(opts.ctx, opts.access, opts.project, opts.sessionId));
}
