import { EDITION_TIME_ZONE, type OrgOverview, tierFor } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, count, eq, inArray, isNull } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { type OrgAccess, visibleProjects } from "../../http/org-access.ts";
import { localDate, monthPeriod } from "../../lib/edition-time.ts";
import { getOrganizationBalance } from "../billing/index.ts";
import { spendSeries } from "../usage/index.ts";

/**
 * Balance, tier, this month's spend by day and counts. Balance and tier are organization facts every member
 * sees; spend and counts cover only the projects the caller can see (all of them for admins). Access:
 * organization members.
 */
export async function getOrganizationOverview(opts: {
  ctx: AppContext;
  access: OrgAccess;
  now?: Date;
}): Promise<OrgOverview> {
  const { db } = opts.ctx;
  const { access } = opts;
  const { org } = access;
  const tz = EDITION_TIME_ZONE[org.edition];
  const visible = await visibleProjects(db, access);
  const projectIds = visible.all ? null : [...visible.roles.keys()];

  const balance = await getOrganizationBalance({ db, orgId: org.id, now: opts.now ?? new Date() });
  const cash = balance?.cash ?? 0n;
  const voucherTotal = balance?.voucher ?? 0n;

  const today = localDate(opts.now ?? new Date(), tz);
  const period = monthPeriod(today.year, today.month);
  const daily = await spendSeries(db, { orgId: org.id, projectIds }, period, tz);
  const monthTotal = daily.reduce((s, p) => s + BigInt(p.amount), 0n);

  const projectWhere = projectIds
    ? and(eq(schema.projects.orgId, org.id), inArray(schema.projects.id, projectIds.length ? projectIds : ["-"]))
    : eq(schema.projects.orgId, org.id);
  const [projects] = await db.select({ n: count() }).from(schema.projects).where(projectWhere);
  const keyWhere = [eq(schema.apiKeys.orgId, org.id), isNull(schema.apiKeys.deletedAt)];
  if (projectIds) keyWhere.push(inArray(schema.apiKeys.projectId, projectIds.length ? projectIds : ["-"]));
  const [keys] = await db
    .select({ n: count() })
    .from(schema.apiKeys)
    .where(and(...keyWhere));
  const [members] = await db.select({ n: count() }).from(schema.orgMembers).where(eq(schema.orgMembers.orgId, org.id));
  const tier = tierFor({ ...org, cumulativeRecharge: balance?.cumulativeRecharge ?? 0n });

  return {
    currency: org.currency,
    timeZone: tz,
    role: access.role,
    balance: {
      cash: cash.toString(),
      voucher: voucherTotal.toString(),
      total: (cash + voucherTotal).toString(),
    },
    tier: { tier: tier.tier, name: tier.name },
    month: { period: period.label, total: monthTotal.toString(), daily },
    counts: { projects: projects?.n ?? 0, apiKeys: keys?.n ?? 0, members: members?.n ?? 0 },
  };
}
