import { type Consumption, type ConsumptionItem, EDITION_TIME_ZONE, isPlaygroundKeyId } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq, inArray } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { type OrgAccess, visibleProjects } from "../../http/org-access.ts";
import { parsePeriod } from "../../lib/edition-time.ts";
import { type BillDimension, spendBy, spendSeries } from "./bill-queries.ts";

/**
 * Account consumption for a year or a month (edition's zone): a series and breakdowns by API key, project,
 * product type and model. Access: organization members; admins see the whole organization, members the
 * projects they belong to.
 */
export async function getConsumption(opts: {
  ctx: AppContext;
  access: OrgAccess;
  granularity: "year" | "month";
  period?: string;
  now?: Date;
}): Promise<Consumption> {
  const { db } = opts.ctx;
  const { access } = opts;
  const tz = EDITION_TIME_ZONE[access.org.edition];
  const visible = await visibleProjects(db, access);
  const scope = { orgId: access.org.id, projectIds: visible.all ? null : [...visible.roles.keys()] };
  const period = parsePeriod(opts.granularity, opts.period, tz, opts.now);
  const series = await spendSeries(db, scope, period, tz);
  const by = (d: BillDimension) => spendBy(db, scope, period, tz, d);
  const [keys, projects, types, models] = [
    await by("apiKeyId"),
    await by("projectId"),
    await by("productType"),
    await by("model"),
  ];

  const keyNames = keys.length
    ? await db
        .select({ id: schema.apiKeys.id, name: schema.apiKeys.name })
        .from(schema.apiKeys)
        .where(
          inArray(
            schema.apiKeys.id,
            keys.map((k) => k.key),
          ),
        )
    : [];
  const projectNames = await db
    .select({ id: schema.projects.id, name: schema.projects.name })
    .from(schema.projects)
    .where(eq(schema.projects.orgId, access.org.id));
  const names = new Map([...keyNames, ...projectNames].map((r) => [r.id, r.name]));
  const items = (rows: { key: string; amount: string }[], named: boolean): ConsumptionItem[] =>
    rows.map((r) => ({
      id: r.key,
      // Playground runs are billed without a key (modules/playground): they are listed as one "key" per user.
      name: named ? (names.get(r.key) ?? (isPlaygroundKeyId(r.key) ? "Playground" : r.key)) : r.key,
      amount: r.amount,
    }));

  return {
    currency: access.org.currency,
    timeZone: tz,
    granularity: opts.granularity,
    period: period.label,
    total: series.reduce((s, p) => s + BigInt(p.amount), 0n).toString(),
    series,
    byApiKey: items(keys, true),
    byProject: items(projects, true),
    byProductType: items(types, false),
    byModel: items(models, false),
  };
}
