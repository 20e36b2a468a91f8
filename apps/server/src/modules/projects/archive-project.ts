import { type Db, schema } from "@moonport/db";
import { and, eq, sql } from "drizzle-orm";
import type { KeyEvents } from "../../gateway/key-events.ts";
import { AppError } from "../../http/errors.ts";

/**
 * Archives a project: its keys stop working within one second on every instance (the gateway answers 401
 * "Incorrect API key provided"). The default project cannot be archived; archiving twice is a no-op.
 * Permission checks: caller.
 */
export async function archiveProject(opts: {
  db: Db;
  keyEvents: KeyEvents;
  orgId: string;
  projectId: string;
}): Promise<void> {
  const where = and(eq(schema.projects.id, opts.projectId), eq(schema.projects.orgId, opts.orgId));
  const [project] = await opts.db
    .select({ isDefault: schema.projects.isDefault, status: schema.projects.status })
    .from(schema.projects)
    .where(where);
  if (!project) throw new AppError("not_found");
  if (project.isDefault) throw new AppError("forbidden");
  if (project.status === "archived") return;
  await opts.db
    .update(schema.projects)
    .set({ status: "archived", archivedAt: sql`now()` })
    .where(and(where, eq(schema.projects.status, "active")));
  await opts.keyEvents.invalidate({ projectId: opts.projectId });
}
