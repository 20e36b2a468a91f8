import type { ProjectDetail } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, eq, isNull } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError, fieldError } from "../../http/errors.ts";
import { invalidateKeys } from "../keys/invalidate-keys.ts";
import { assertOrgAdmin, assertProjectActive, getOrgAccess, getProjectAccess } from "../orgs/access.ts";
import { toProjectDetail } from "./project-row.ts";

/**
 * Archives a project, irreversibly (organization admins only; the caller types the project's name to confirm):
 * its API keys are disabled, its members removed, and it is read-only from then on. The default project stays.
 */
export async function archiveProject(opts: {
  ctx: AppContext;
  userId: string;
  orgId: string;
  projectId: string;
  confirmName: string;
}): Promise<ProjectDetail> {
  const detail = await opts.ctx.db.transaction(async (tx) => {
    const access = await getOrgAccess(tx, opts);
    const pa = await getProjectAccess(tx, access, opts.projectId);
    assertOrgAdmin(access);
    assertProjectActive(pa.project);
    if (pa.project.isDefault) {
      throw new AppError("default_project_archive");
    }
    if (opts.confirmName !== pa.project.name) throw fieldError("validation_failed", "confirmName", "confirm_mismatch");
    await tx
      .update(schema.apiKeys)
      .set({ status: "disabled" })
      .where(and(eq(schema.apiKeys.projectId, opts.projectId), isNull(schema.apiKeys.deletedAt)));
    await tx.delete(schema.projectMembers).where(eq(schema.projectMembers.projectId, opts.projectId));
    const [project] = await tx
      .update(schema.projects)
      .set({ status: "archived", archivedAt: new Date() })
      .where(eq(schema.projects.id, opts.projectId))
      .returning();
    return toProjectDetail(project!, pa.role, access.org);
  });
  await invalidateKeys(opts.ctx, { orgId: opts.orgId, projectId: opts.projectId });
  return detail;
}
