import { budgetProblems, type ProjectDetail, tierFor, type UpdateProjectRequest } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { assertProjectActive, type OrgAccess, type ProjectAccess } from "../../http/org-access.ts";
import { AppError, fieldError } from "../../lib/app-error.ts";
import { getTierBasis } from "../billing/index.ts";
import { assertProjectNameFree, mapProjectNameViolation } from "./project-name.ts";
import { toProjectDetail } from "./project-row.ts";

/**
 * Project settings (access: project admins): name, description, budgets and alert amounts in whole currency units, and
 * the per-project TPM cap, which may not exceed the organization's tier TPM.
 */
export async function updateProject(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
  changes: UpdateProjectRequest;
}): Promise<ProjectDetail> {
  const { access, project: pa } = opts;
  return opts.ctx.db.transaction(async (tx) => {
    assertProjectActive(pa.project);
    const c = opts.changes;
    const tierBasis = await getTierBasis({ db: tx, org: access.org });
    const orgTpm = tierFor(tierBasis).tpm;
    if (c.tpmLimit != null && c.tpmLimit > orgTpm) {
      throw fieldError("validation_failed", "tpmLimit", `tpm_above_tier|${JSON.stringify({ max: orgTpm })}`);
    }
    // The request alone was checked by the contract; a partial change must also agree with what is stored.
    const p = pa.project;
    const problems = budgetProblems({
      monthlyBudget: c.monthlyBudget !== undefined ? c.monthlyBudget : p.monthlyBudget,
      dailyBudget: c.dailyBudget !== undefined ? c.dailyBudget : p.dailyBudget,
      monthlyAlert: c.monthlyAlert !== undefined ? c.monthlyAlert : p.monthlyAlert,
      dailyAlert: c.dailyAlert !== undefined ? c.dailyAlert : p.dailyAlert,
    });
    if (problems.length > 0) throw new AppError("validation_failed", { details: problems });
    if (c.name !== undefined && c.name !== p.name) {
      await assertProjectNameFree({ tx, orgId: p.orgId, name: c.name, exceptProjectId: p.id });
    }
    const set: Partial<typeof schema.projects.$inferInsert> = {};
    for (const k of [
      "name",
      "description",
      "monthlyBudget",
      "dailyBudget",
      "monthlyAlert",
      "dailyAlert",
      "tpmLimit",
    ] as const) {
      if (c[k] !== undefined) (set as Record<string, unknown>)[k] = c[k];
    }
    if (Object.keys(set).length === 0) return toProjectDetail(pa.project, pa.role, tierBasis);
    const [project] = await tx
      .update(schema.projects)
      .set(set)
      .where(eq(schema.projects.id, pa.project.id))
      .returning()
      .catch(mapProjectNameViolation);
    return toProjectDetail(project!, pa.role, tierBasis);
  });
}
