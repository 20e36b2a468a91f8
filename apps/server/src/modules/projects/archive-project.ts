import type { ProjectDetail } from "@moonport/contracts";
import { type Db, schema } from "@moonport/db";
import { and, eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { assertProjectActive, type OrgAccess, type ProjectAccess } from "../../http/org-access.ts";
import { AppError, fieldError } from "../../lib/app-error.ts";
import { withTransaction } from "../../lib/transaction.ts";
import type { KeyEvents } from "../../metering/key-events.ts";
import { getTierBasis } from "../billing/index.ts";
import { disableApiKeys } from "../keys/index.ts";
import { toProjectDetail } from "./project-row.ts";

/**
 * Archives a project, irreversibly: its API keys are disabled, its members removed, it is read-only from then
 * on, and the gateway refuses its keys within one second on every instance. The default project cannot be
 * archived. Permission checks: caller (the console's `archiveProject` below).
 */
export async function archiveProjectRecord(opts: {
  db: Db;
  keyEvents: KeyEvents;
  orgId: string;
  projectId: string;
}): Promise<void> {
  await withTransaction(opts, async (tx, afterCommit) => {
    const where = and(eq(schema.projects.id, opts.projectId), eq(schema.projects.orgId, opts.orgId));
    const [project] = await tx.select().from(schema.projects).where(where).for("update");
    if (!project) throw new AppError("not_found");
    if (project.isDefault) throw new AppError("default_project_archive");
    assertProjectActive(project);
    await disableApiKeys(
      { tx, afterCommit, keyEvents: opts.keyEvents },
      { orgId: opts.orgId, projectId: opts.projectId },
    );
    await tx.delete(schema.projectMembers).where(eq(schema.projectMembers.projectId, opts.projectId));
    await tx.update(schema.projects).set({ status: "archived", archivedAt: sql`now()` }).where(where);
  });
}

/**
 * The console's archive (access: organization admins, on a project they can see), after typing the project's name
 * to confirm.
 */
export async function archiveProject(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
  confirmName: string;
}): Promise<ProjectDetail> {
  const { ctx, access } = opts;
  const { project } = opts.project;
  assertProjectActive(project);
  if (project.isDefault) throw new AppError("default_project_archive");
  if (opts.confirmName !== project.name) throw fieldError("validation_failed", "confirmName", "confirm_mismatch");
  await archiveProjectRecord({ db: ctx.db, keyEvents: ctx.keyEvents, orgId: project.orgId, projectId: project.id });
  const [updated] = await ctx.db.select().from(schema.projects).where(eq(schema.projects.id, project.id));
  return toProjectDetail(updated ?? project, opts.project.role, await getTierBasis({ db: ctx.db, org: access.org }));
}
