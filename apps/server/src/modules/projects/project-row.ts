import { type ProjectDetail, type ProjectRole, type ProjectRow, type TierBasis, tierFor } from "@moonport/contracts";
import type { Project } from "../../http/org-access.ts";

export function toProjectRow(p: Project, role: ProjectRole): ProjectRow {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    status: p.status,
    isDefault: p.isDefault,
    createdAt: p.createdAt.toISOString(),
    archivedAt: p.archivedAt?.toISOString() ?? null,
    role,
  };
}

/** `tier`: the organization's tier basis (billing getTierBasis), for the TPM cap a project may not exceed. */
export function toProjectDetail(p: Project, role: ProjectRole, tier: TierBasis): ProjectDetail {
  return {
    ...toProjectRow(p, role),
    orgId: p.orgId,
    settings: {
      monthlyBudget: p.monthlyBudget,
      dailyBudget: p.dailyBudget,
      monthlyAlert: p.monthlyAlert,
      dailyAlert: p.dailyAlert,
      tpmLimit: p.tpmLimit,
    },
    orgTpm: tierFor(tier).tpm,
  };
}
