import { z } from "zod";
import { MonthPeriod, vmsg } from "../validation.ts";
import { Nanos, PageQuery, ProjectRole, paged, SpendPoint } from "./common.ts";

/** §5: 1–20 characters without whitespace. */
export const ProjectName = z
  .string({ error: vmsg("required") })
  .min(1, vmsg("required"))
  .max(20, vmsg("too_long", { max: 20 }))
  .refine((s) => !/\s/.test(s), vmsg("no_whitespace"));
export const ProjectDescription = z.string().max(50, vmsg("too_long", { max: 50 }));

/** Budgets and alert amounts: whole currency units, null = none. */
const WholeAmount = z
  .number({ error: vmsg("integer") })
  .int(vmsg("integer"))
  .min(0, vmsg("range", { min: 0, max: 1_000_000_000 }))
  .max(1_000_000_000, vmsg("range", { min: 0, max: 1_000_000_000 }))
  .nullable();

export const ProjectStatus = z.enum(["active", "archived"]);

export const ProjectRow = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  status: ProjectStatus,
  isDefault: z.boolean(),
  createdAt: z.string(),
  archivedAt: z.string().nullable(),
  /** The caller's role in the project (organization admins act as project admins everywhere). */
  role: ProjectRole,
});
export type ProjectRow = z.infer<typeof ProjectRow>;
export const ProjectPage = paged(ProjectRow);

export const ListProjectsQuery = PageQuery.extend({ status: z.enum(["active", "archived", "all"]).default("all") });

export const CreateProjectRequest = z.object({ name: ProjectName, description: ProjectDescription.default("") });
export type CreateProjectRequest = z.input<typeof CreateProjectRequest>;

export const ProjectSettings = z.object({
  monthlyBudget: z.number().int().nullable(),
  dailyBudget: z.number().int().nullable(),
  monthlyAlert: z.number().int().nullable(),
  dailyAlert: z.number().int().nullable(),
  /** Per-project TPM cap (the "default rate limit"); null = the organization's tier TPM. */
  tpmLimit: z.number().int().nullable(),
});

export const ProjectDetail = ProjectRow.extend({
  orgId: z.string(),
  settings: ProjectSettings,
  /** The organization's tier TPM, the ceiling for tpmLimit. */
  orgTpm: z.number().int(),
});
export type ProjectDetail = z.infer<typeof ProjectDetail>;

export const ProjectOverview = z.object({
  project: ProjectDetail,
  spend: z.object({ today: Nanos, month: Nanos, daily: z.array(SpendPoint) }),
  keys: z.object({ enabled: z.number().int(), total: z.number().int() }),
  members: z.number().int(),
});
export type ProjectOverview = z.infer<typeof ProjectOverview>;

export const UpdateProjectRequest = z.object({
  name: ProjectName.optional(),
  description: ProjectDescription.optional(),
  monthlyBudget: WholeAmount.optional(),
  dailyBudget: WholeAmount.optional(),
  monthlyAlert: WholeAmount.optional(),
  dailyAlert: WholeAmount.optional(),
  tpmLimit: z
    .number({ error: vmsg("integer") })
    .int(vmsg("integer"))
    .min(1, vmsg("range", { min: 1, max: 100_000_000 }))
    .nullable()
    .optional(),
});
export type UpdateProjectRequest = z.input<typeof UpdateProjectRequest>;

export const ArchiveProjectRequest = z.object({ confirmName: z.string({ error: vmsg("required") }) });

export const ProjectParams = z.object({ orgId: z.string().min(1).max(64), projectId: z.string().min(1).max(64) });
export const ProjectMemberParams = ProjectParams.extend({ userId: z.string().min(1).max(64) });

export const ProjectMemberRow = z.object({
  userId: z.string(),
  nickname: z.string(),
  phoneMasked: z.string().nullable(),
  role: ProjectRole,
  createdAt: z.string(),
});
export type ProjectMemberRow = z.infer<typeof ProjectMemberRow>;
export const ProjectMemberPage = paged(ProjectMemberRow);
export const ProjectMemberCandidates = z.object({
  items: z.array(z.object({ userId: z.string(), nickname: z.string(), phoneMasked: z.string().nullable() })),
});
export const AddProjectMemberRequest = z.object({
  userId: z.string({ error: vmsg("required") }).min(1, vmsg("required")),
  role: z.enum(["admin", "member"], { error: vmsg("required") }),
});
export type AddProjectMemberRequest = z.input<typeof AddProjectMemberRequest>;
export const UpdateProjectMemberRequest = z.object({ role: ProjectRole });

export const ProjectBillingQuery = z.object({
  month: MonthPeriod,
});
export const ProjectBilling = z.object({
  month: z.string(),
  total: Nanos,
  daily: z.array(SpendPoint),
  byModel: z.array(
    z.object({ model: z.string(), amount: Nanos, requests: z.number().int(), tokens: z.number().int() }),
  ),
});
export type ProjectBilling = z.infer<typeof ProjectBilling>;
