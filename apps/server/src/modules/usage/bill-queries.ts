/**
 * Spend aggregations over the gateway's bill rows (request_bills.consumption, nano-units), and over their daily
 * sums per project (project_spend_days) where a scope allows. Amounts stay bigint until they leave as decimal
 * strings.
 */
import { type Db, schema, type Tx } from "@moonport/db";
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { Period } from "../../lib/edition-time.ts";

const rb = schema.requestBills;

interface BillScope {
  orgId: string;
  /** null = every project of the organization */
  projectIds: string[] | null;
  apiKeyId?: string;
}

/** Time zones come from EDITION_TIME_ZONE, never from a request; still, only IANA-shaped names reach SQL text. */
function zoneLiteral(timeZone: string): SQL {
  if (!/^[A-Za-z_]+(\/[A-Za-z_+-]+)*$/.test(timeZone)) throw new Error(`bad time zone ${timeZone}`);
  return sql.raw(`'${timeZone}'`);
}

function where(scope: BillScope, period: { fromLocal: string; toLocal: string } | null, timeZone: string): SQL {
  const parts: SQL[] = [eq(rb.orgId, scope.orgId)];
  if (scope.projectIds) parts.push(inArray(rb.projectId, scope.projectIds.length ? scope.projectIds : ["-"]));
  if (scope.apiKeyId) parts.push(eq(rb.apiKeyId, scope.apiKeyId));
  if (period) {
    const tz = zoneLiteral(timeZone);
    parts.push(sql`${rb.createdAt} >= (${period.fromLocal}::timestamp at time zone ${tz})`);
    parts.push(sql`${rb.createdAt} < (${period.toLocal}::timestamp at time zone ${tz})`);
  }
  return and(...parts)!;
}

/**
 * Spend per project and local day from project_spend_days (what the bill writer adds with every batch, in the
 * edition's zone: the same days these screens use), for scopes without an API key: a month is at most 31 rows per
 * project, where summing request_bills reads every bill of the period. `null` when the scope needs the bill rows.
 */
function spendDays(scope: BillScope, period: Period) {
  if (scope.apiKeyId) return null;
  const d = schema.projectSpendDays;
  const parts: SQL[] = [
    sql`${d.day} >= ${period.fromLocal.slice(0, 10)}`,
    sql`${d.day} < ${period.toLocal.slice(0, 10)}`,
    scope.projectIds
      ? inArray(d.projectId, scope.projectIds.length ? scope.projectIds : ["-"])
      : sql`${d.projectId} in (select ${schema.projects.id} from ${schema.projects} where ${schema.projects.orgId} = ${scope.orgId})`,
  ];
  return { d, where: and(...parts)! };
}

export async function sumSpend(db: Db | Tx, scope: BillScope, period: Period, timeZone: string): Promise<bigint> {
  const days = spendDays(scope, period);
  const [row] = days
    ? await db
        .select({ total: sql<string>`coalesce(sum(${days.d.consumption}), 0)::text` })
        .from(days.d)
        .where(days.where)
    : await db
        .select({ total: sql<string>`coalesce(sum(${rb.consumption}), 0)::text` })
        .from(rb)
        .where(where(scope, period, timeZone));
  return BigInt(row?.total ?? "0");
}

/** One point per bucket of the period (days of a month, months of a year), zero-filled. */
export async function spendSeries(
  db: Db | Tx,
  scope: BillScope,
  period: Period,
  timeZone: string,
): Promise<{ label: string; amount: string }[]> {
  const days = spendDays(scope, period);
  let rows: { label: string; total: string }[];
  if (days) {
    const label = period.bucket === "day" ? sql<string>`${days.d.day}` : sql<string>`substr(${days.d.day}, 1, 7)`;
    rows = await db
      .select({ label, total: sql<string>`sum(${days.d.consumption})::text` })
      .from(days.d)
      .where(days.where)
      .groupBy(label);
  } else {
    const fmt = sql.raw(period.bucket === "day" ? "'YYYY-MM-DD'" : "'YYYY-MM'");
    const label = sql<string>`to_char(${rb.createdAt} at time zone ${zoneLiteral(timeZone)}, ${fmt})`;
    rows = await db
      .select({ label, total: sql<string>`sum(${rb.consumption})::text` })
      .from(rb)
      .where(where(scope, period, timeZone))
      .groupBy(label);
  }
  const byLabel = new Map(rows.map((r) => [r.label, r.total]));
  return period.buckets.map((b) => ({ label: b, amount: byLabel.get(b) ?? "0" }));
}

export type BillDimension = "apiKeyId" | "projectId" | "productType" | "model";

/** Spend grouped by one column, largest first. */
export async function spendBy(
  db: Db | Tx,
  scope: BillScope,
  period: Period,
  timeZone: string,
  dimension: BillDimension,
): Promise<{ key: string; amount: string; requests: number; tokens: number }[]> {
  const col = rb[dimension];
  const rows = await db
    .select({
      key: col,
      total: sql<string>`sum(${rb.consumption})::text`,
      requests: sql<string>`count(distinct ${rb.requestId})::text`,
      tokens: sql<string>`coalesce(sum(${rb.inputTokens} + ${rb.outputTokens}), 0)::text`,
    })
    .from(rb)
    .where(where(scope, period, timeZone))
    .groupBy(col);
  return rows
    .map((r) => ({ key: r.key, amount: r.total, requests: Number(r.requests), tokens: Number(r.tokens) }))
    .sort((a, b) => {
      const d = BigInt(b.amount) - BigInt(a.amount);
      return d > 0n ? 1 : d < 0n ? -1 : a.key.localeCompare(b.key);
    });
}

/** Requests and tokens within a calendar period in the zone (tokens per day). */
export async function usageIn(
  db: Db | Tx,
  scope: BillScope,
  period: Period,
  timeZone: string,
): Promise<{ requests: number; tokens: number }> {
  const [row] = await db
    .select({
      requests: sql<string>`count(distinct ${rb.requestId})::text`,
      tokens: sql<string>`coalesce(sum(${rb.inputTokens} + ${rb.outputTokens}), 0)::text`,
    })
    .from(rb)
    .where(where(scope, period, timeZone));
  return { requests: Number(row?.requests ?? 0), tokens: Number(row?.tokens ?? 0) };
}
