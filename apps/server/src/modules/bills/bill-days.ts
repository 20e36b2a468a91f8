/**
 * Bill sums per local day, read from two places so the screens are both fast and real-time:
 *  - `daily_bills`: days the `bills.finalize-days` job closed (07:00 of the next day, edition zone), one row per
 *    day × project × model × product, so a month of a busy organization is a few hundred rows;
 *  - `request_bills` for the days after `bill_states.closed_through` (today, and yesterday before 07:00), summed
 *    live through the (org_id, created_at, id) index — the tail the gateway is still writing.
 * Nothing here runs on the gateway's path; the gateway's tables are only read.
 */
import { type Db, schema, type Tx } from "@moonport/db";
import { and, eq, gte, lte, type SQL, sql } from "drizzle-orm";
import { nextLocalDate } from "../../lib/edition-time.ts";

const rb = schema.requestBills;
const db_ = schema.dailyBills;

interface DayGroup {
  day: string;
  projectId: string;
  model: string;
  productName: string;
  productType: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  consumption: bigint;
  cashDeduction: bigint;
  voucherDeduction: bigint;
}

/** Time zones come from EDITION_TIME_ZONE, never from a request; only IANA-shaped names reach SQL text. */
export function zoneSql(timeZone: string): SQL {
  if (!/^[A-Za-z_]+(\/[A-Za-z_+-]+)*$/.test(timeZone)) throw new Error(`bad time zone ${timeZone}`);
  return sql.raw(`'${timeZone}'`);
}

export const pad2 = (n: number) => String(n).padStart(2, "0");
export function dayAfter(day: string): string {
  const n = nextLocalDate({ year: Number(day.slice(0, 4)), month: Number(day.slice(5, 7)), day: Number(day.slice(8)) });
  return `${n.year}-${pad2(n.month)}-${pad2(n.day)}`;
}

/**
 * The columns of one bill line as Request Details and the monthly export show it. `at` is created_at as UTC text
 * with microseconds (JS dates keep milliseconds), the keyset position that `keysetPast` continues from.
 */
export function billLineColumns(timeZone: string) {
  return {
    id: rb.id,
    requestId: rb.requestId,
    at: sql<string>`to_char(${rb.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`,
    date: sql<string>`to_char(${rb.createdAt} at time zone ${zoneSql(timeZone)}, 'YYYY-MM-DD')`,
    createdAt: rb.createdAt,
    projectId: rb.projectId,
    projectName: schema.projects.name,
    model: rb.model,
    productName: rb.productName,
    productType: rb.productType,
    inputTokens: rb.inputTokens,
    outputTokens: rb.outputTokens,
    cachedTokens: rb.cachedTokens,
    consumption: rb.consumption,
    cashDeduction: rb.cashDeduction,
    voucherDeduction: rb.voucherDeduction,
  };
}

/** Rows after (`asc`) or before (`desc`) the keyset position `after` in (created_at, id) order; none: all rows. */
export function keysetPast(after: { at: string; id: string } | null, order: "asc" | "desc"): SQL | undefined {
  if (!after) return undefined;
  const position = sql`((${after.at}::timestamp at time zone 'UTC'), ${after.id})`;
  return order === "asc"
    ? sql`(${rb.createdAt}, ${rb.id}) > ${position}`
    : sql`(${rb.createdAt}, ${rb.id}) < ${position}`;
}

/** request_bills rows whose local day (zone) lies in [from, to] (dates, both included). */
export function localDaysWhere(orgId: string, from: string, to: string, timeZone: string): SQL {
  const tz = zoneSql(timeZone);
  return and(
    eq(rb.orgId, orgId),
    sql`${rb.createdAt} >= (${`${from} 00:00:00`}::timestamp at time zone ${tz})`,
    sql`${rb.createdAt} < (${`${dayAfter(to)} 00:00:00`}::timestamp at time zone ${tz})`,
  )!;
}

const sums = {
  requests: sql<string>`count(distinct ${rb.requestId})::text`,
  inputTokens: sql<string>`coalesce(sum(${rb.inputTokens}), 0)::text`,
  outputTokens: sql<string>`coalesce(sum(${rb.outputTokens}), 0)::text`,
  cachedTokens: sql<string>`coalesce(sum(${rb.cachedTokens}), 0)::text`,
  consumption: sql<string>`coalesce(sum(${rb.consumption}), 0)::text`,
  cashDeduction: sql<string>`coalesce(sum(${rb.cashDeduction}), 0)::text`,
  voucherDeduction: sql<string>`coalesce(sum(${rb.voucherDeduction}), 0)::text`,
};

type Raw = Record<keyof typeof sums, string> & Omit<DayGroup, keyof typeof sums>;

function toGroup(r: Raw): DayGroup {
  return {
    day: r.day,
    projectId: r.projectId,
    model: r.model,
    productName: r.productName,
    productType: r.productType,
    requests: Number(r.requests),
    inputTokens: Number(r.inputTokens),
    outputTokens: Number(r.outputTokens),
    cachedTokens: Number(r.cachedTokens),
    consumption: BigInt(r.consumption),
    cashDeduction: BigInt(r.cashDeduction),
    voucherDeduction: BigInt(r.voucherDeduction),
  };
}

/** Live sums from request_bills for local days [from, to]. */
export async function liveDayGroups(
  db: Db | Tx,
  orgId: string,
  from: string,
  to: string,
  timeZone: string,
): Promise<DayGroup[]> {
  const day = sql<string>`to_char(${rb.createdAt} at time zone ${zoneSql(timeZone)}, 'YYYY-MM-DD')`;
  const rows = await db
    .select({
      day,
      projectId: rb.projectId,
      model: rb.model,
      productName: rb.productName,
      productType: rb.productType,
      ...sums,
    })
    .from(rb)
    .where(localDaysWhere(orgId, from, to, timeZone))
    .groupBy(day, rb.projectId, rb.model, rb.productName, rb.productType);
  return rows.map((r) => toGroup(r as Raw));
}

export async function closedThrough(db: Db | Tx, orgId: string): Promise<string | null> {
  const [row] = await db
    .select({ d: schema.billStates.closedThrough })
    .from(schema.billStates)
    .where(eq(schema.billStates.orgId, orgId));
  return row?.d ?? null;
}

/**
 * Every group of local days [from, to]: closed days from daily_bills, the rest live. `finalDays` tells which
 * days were closed (the screens mark the others provisional).
 */
export async function dayGroups(
  db: Db | Tx,
  orgId: string,
  from: string,
  to: string,
  timeZone: string,
): Promise<{ groups: DayGroup[]; closedThrough: string | null }> {
  const closed = await closedThrough(db, orgId);
  const groups: DayGroup[] = [];
  if (closed && closed >= from) {
    const until = closed < to ? closed : to;
    const rows = await db
      .select()
      .from(db_)
      .where(and(eq(db_.orgId, orgId), gte(db_.day, from), lte(db_.day, until)));
    for (const r of rows) {
      groups.push({
        day: r.day,
        projectId: r.projectId,
        model: r.model,
        productName: r.productName,
        productType: r.productType,
        requests: r.requests,
        inputTokens: r.inputTokens,
        outputTokens: r.outputTokens,
        cachedTokens: r.cachedTokens,
        consumption: r.consumption,
        cashDeduction: r.cashDeduction,
        voucherDeduction: r.voucherDeduction,
      });
    }
  }
  const liveFrom = closed && closed >= from ? dayAfter(closed) : from;
  if (liveFrom <= to) groups.push(...(await liveDayGroups(db, orgId, liveFrom, to, timeZone)));
  return { groups, closedThrough: closed };
}

interface Summed {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  consumption: bigint;
  cashDeduction: bigint;
  voucherDeduction: bigint;
}

export const emptySums = (): Summed => ({
  requests: 0,
  inputTokens: 0,
  outputTokens: 0,
  cachedTokens: 0,
  consumption: 0n,
  cashDeduction: 0n,
  voucherDeduction: 0n,
});

export function addSums(into: Summed, g: Summed): Summed {
  into.requests += g.requests;
  into.inputTokens += g.inputTokens;
  into.outputTokens += g.outputTokens;
  into.cachedTokens += g.cachedTokens;
  into.consumption += g.consumption;
  into.cashDeduction += g.cashDeduction;
  into.voucherDeduction += g.voucherDeduction;
  return into;
}

export function wireSums(s: Summed) {
  return {
    requests: s.requests,
    inputTokens: s.inputTokens,
    outputTokens: s.outputTokens,
    cachedTokens: s.cachedTokens,
    consumption: s.consumption.toString(),
    cashDeduction: s.cashDeduction.toString(),
    voucherDeduction: s.voucherDeduction.toString(),
  };
}

/** Groups `groups` by `key`, summing, in the order of the keys' first appearance after sorting by `sortKey`. */
export function groupSums<K>(groups: DayGroup[], key: (g: DayGroup) => string, meta: (g: DayGroup) => K) {
  const map = new Map<string, { meta: K; sums: Summed }>();
  for (const g of groups) {
    const k = key(g);
    let e = map.get(k);
    if (!e) {
      e = { meta: meta(g), sums: emptySums() };
      map.set(k, e);
    }
    addSums(e.sums, g);
  }
  return [...map.entries()];
}
