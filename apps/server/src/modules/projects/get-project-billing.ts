import { EDITION_TIME_ZONE, type ProjectBilling } from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import type { OrgAccess, ProjectAccess } from "../../http/org-access.ts";
import { monthPeriod } from "../../lib/edition-time.ts";
import { spendBy, spendSeries } from "../usage/index.ts";

/** A project's spend in one month (edition's zone): by day and by model. Access: project members. */
export async function getProjectBilling(opts: {
  ctx: AppContext;
  access: OrgAccess;
  project: ProjectAccess;
  month: string;
}): Promise<ProjectBilling> {
  const { db } = opts.ctx;
  const { access } = opts;
  const tz = EDITION_TIME_ZONE[access.org.edition];
  const [y, m] = opts.month.split("-").map(Number);
  const period = monthPeriod(y!, m!);
  const scope = { orgId: access.org.id, projectIds: [opts.project.project.id] };
  const daily = await spendSeries(db, scope, period, tz);
  const byModel = await spendBy(db, scope, period, tz, "model");
  return {
    month: period.label,
    total: daily.reduce((s, d) => s + BigInt(d.amount), 0n).toString(),
    daily,
    byModel: byModel.map((r) => ({ model: r.key, amount: r.amount, requests: r.requests, tokens: r.tokens })),
  };
}
