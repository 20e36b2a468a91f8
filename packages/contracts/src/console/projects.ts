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

/** Largest budget or alert amount, in whole currency units (far above any real project's spend). */
export const BUDGET_MAX = 1_000_000_000;
/** Every failure of an amount (not a number, a fraction, negative, too large, too many digits) states the bound. */
const AMOUNT_MESSAGE = vmsg("amount_range", { max: BUDGET_MAX.toLocaleString("en-US") });

/** Budgets and alert amounts: whole currency units, null = none. */
const WholeAmount = z
  .number({ error: AMOUNT_MESSAGE })
  .min(0, AMOUNT_MESSAGE)
  .max(BUDGET_MAX, AMOUNT_MESSAGE)
  // After the bound, so a 20-digit value (not a safe integer) reads "at most …" rather than "not an integer".
  .int(AMOUNT_MESSAGE)
  .nullable();

export type ProjectBudgets = {
  monthlyBudget?: number | null;
  dailyBudget?: number | null;
  monthlyAlert?: number | null;
  dailyAlert?: number | null;
};

/**
 * Relations between budgets and alert amounts, checked where both are known: the daily budget at most the monthly
 * one, each alert at most its budget. The form checks the values it holds; the server checks the stored values
 * merged with the change, so a partial update cannot create a contradiction either. Returns field errors
 * (validation keys naming the bound).
 */
export function budgetProblems(b: ProjectBudgets): { path: keyof ProjectBudgets; message: string }[] {
  const out: { path: keyof ProjectBudgets; message: string }[] = [];
  const over = (value: number | null | undefined, bound: number | null | undefined) =>
    value != null && bound != null && value > bound;
  if (over(b.dailyBudget, b.monthlyBudget)) {
    out.push({ path: "dailyBudget", message: vmsg("daily_over_monthly", { max: fmt(b.monthlyBudget!) }) });
  }
  if (over(b.monthlyAlert, b.monthlyBudget)) {
    out.push({ path: "monthlyAlert", message: vmsg("alert_over_budget", { max: fmt(b.monthlyBudget!) }) });
  }
  if (over(b.dailyAlert, b.dailyBudget)) {
    out.push({ path: "dailyAlert", message: vmsg("alert_over_budget", { max: fmt(b.dailyBudget!) }) });
  }
  return out;
}

function fmt(n: number): string {
  return n.toLocaleString("en-US");
}

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

export const UpdateProjectRequest = z
  .object({
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
  })
  .superRefine((changes, ctx) => {
    for (const p of budgetProblems(changes)) ctx.addIssue({ code: "custom", path: [p.path], message: p.message });
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
