import type { ProjectDetail } from "@moonport/contracts";
import { type Db, schema } from "@moonport/db";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { KeyEvents } from "../../gateway/key-events.ts";
import { AppError, fieldError } from "../../lib/app-error.ts";
import { withTransaction } from "../../lib/transaction.ts";
import { invalidateKeysAfterCommit } from "../keys/invalidate-keys.ts";
import { assertOrgAdmin, assertProjectActive, getOrgAccess, getProjectAccess } from "../orgs/access.ts";
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
    await tx
      .update(schema.apiKeys)
      .set({ status: "disabled" })
      .where(and(eq(schema.apiKeys.projectId, opts.projectId), isNull(schema.apiKeys.deletedAt)));
    await tx.delete(schema.projectMembers).where(eq(schema.projectMembers.projectId, opts.projectId));
    await tx.update(schema.projects).set({ status: "archived", archivedAt: sql`now()` }).where(where);
    await invalidateKeysAfterCommit(
      { tx, afterCommit, keyEvents: opts.keyEvents },
      { orgId: opts.orgId, projectId: opts.projectId },
    );
  });
}

/** The console's archive: organization admins only, after typing the project's name to confirm. */
export async function archiveProject(opts: {
  ctx: AppContext;
  userId: string;
  orgId: string;
  projectId: string;
  confirmName: string;
}): Promise<ProjectDetail> {
  const { ctx } = opts;
  const access = await getOrgAccess(ctx.db, opts);
  const pa = await getProjectAccess(ctx.db, access, opts.projectId);
  assertOrgAdmin(access);
  assertProjectActive(pa.project);
  if (pa.project.isDefault) throw new AppError("default_project_archive");
  if (opts.confirmName !== pa.project.name) throw fieldError("validation_failed", "confirmName", "confirm_mismatch");
  await archiveProjectRecord({ db: ctx.db, keyEvents: ctx.keyEvents, orgId: opts.orgId, projectId: opts.projectId });
  const updated = await getProjectAccess(ctx.db, access, opts.projectId);
  return toProjectDetail(updated.project, updated.role, access.org);
}
