import { EDITION_TIME_ZONE, type ProjectOverview } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, count, eq, isNull } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import { localDate, monthPeriod } from "../../lib/edition-time.ts";
import { getTierBasis } from "../billing/index.ts";
import { spendSeries } from "../usage/index.ts";
import { toProjectDetail } from "./project-row.ts";

/** A project's details, settings, this month's spend by day, key and member counts. Access: project members. */
export async function getProjectOverview(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
  now?: Date;
}): Promise<ProjectOverview> {
  const { db } = opts.ctx;
  const { access, project: pa } = opts;
  const projectId = pa.project.id;
  const tz = EDITION_TIME_ZONE[access.org.edition];
  const today = localDate(opts.now ?? new Date(), tz);
  const daily = await spendSeries(
    db,
    { orgId: access.org.id, projectIds: [projectId] },
    monthPeriod(today.year, today.month),
    tz,
  );
  const todayLabel = `${today.year}-${String(today.month).padStart(2, "0")}-${String(today.day).padStart(2, "0")}`;
  const keyRows = await db
    .select({ status: schema.apiKeys.status, n: count() })
    .from(schema.apiKeys)
    .where(and(eq(schema.apiKeys.projectId, projectId), isNull(schema.apiKeys.deletedAt)))
    .groupBy(schema.apiKeys.status);
  const [members] = await db
    .select({ n: count() })
    .from(schema.projectMembers)
    .where(eq(schema.projectMembers.projectId, projectId));
  return {
    project: toProjectDetail(pa.project, pa.role, await getTierBasis({ db, org: access.org })),
    spend: {
      today: daily.find((d) => d.label === todayLabel)?.amount ?? "0",
      month: daily.reduce((s, d) => s + BigInt(d.amount), 0n).toString(),
      daily,
    },
    keys: {
      enabled: keyRows.find((k) => k.status === "enabled")?.n ?? 0,
      total: keyRows.reduce((s, k) => s + k.n, 0),
    },
    members: members?.n ?? 0,
  };
}
