import type { PlaygroundSessionSummary } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, count, desc, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import { toSummary } from "./session-row.ts";

/** The caller's own sessions in the project, most recently changed first; one page. */
export async function listPlaygroundSessions(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
  page: number;
  pageSize: number;
}): Promise<{ items: PlaygroundSessionSummary[]; total: number; page: number; pageSize: number }> {
  const t = schema.playgroundSessions;
  const where = and(eq(t.userId, opts.access.userId), eq(t.projectId, opts.project.project.id));
  const [total] = await opts.ctx.db.select({ n: count() }).from(t).where(where);
  const rows = await opts.ctx.db
    .select()
    .from(t)
    .where(where)
    .orderBy(desc(t.updatedAt), desc(t.id))
    .limit(opts.pageSize)
    .offset((opts.page - 1) * opts.pageSize);
  return { items: rows.map(toSummary), total: total?.n ?? 0, page: opts.page, pageSize: opts.pageSize };
}
