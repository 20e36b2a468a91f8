import type { AdminDashboard, AdminDashboardDay } from "@moonport/contracts";
import { type Db, schema } from "@moonport/db";
import { and, count, eq, gte, isNotNull, sql } from "drizzle-orm";

const DAY_MS = 86_400_000;
const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The back office's dashboard: per UTC day, new organizations and users, successful recharges and billed
 * consumption per currency, requests; totals and the queues' sizes; the top models of the range. Bill rows are
 * found by their creation time through a BRIN index (tiny, and free for the gateway's appends).
 */
export async function getDashboard(opts: { db: Db; days: number; now: Date }): Promise<AdminDashboard> {
  const { db, now } = opts;
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (opts.days - 1) * DAY_MS);
  const fromIso = from.toISOString();
  const dayOf = (col: unknown) => sql<string>`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD')`;
  const rb = schema.requestBills;
  const o = schema.organizations;
  const [orgDays, userDays, rechargeDays, billDays, top, totals] = await Promise.all([
    db
      .select({ day: dayOf(o.createdAt), n: count() })
      .from(o)
      .where(gte(o.createdAt, from))
      .groupBy(sql`1`),
    db
      .select({ day: dayOf(schema.users.createdAt), n: count() })
      .from(schema.users)
      .where(gte(schema.users.createdAt, from))
      .groupBy(sql`1`),
    db
      .select({
        day: dayOf(schema.payments.finishedAt),
        currency: schema.payments.currency,
        amount: sql<string>`sum(${schema.payments.amount})::text`,
      })
      .from(schema.payments)
      .where(and(eq(schema.payments.status, "success"), gte(schema.payments.finishedAt, from)))
      .groupBy(sql`1`, schema.payments.currency),
    db
      .select({
        day: dayOf(rb.createdAt),
        currency: o.currency,
        requests: count(),
        consumption: sql<string>`sum(${rb.consumption})::text`,
      })
      .from(rb)
      .innerJoin(o, eq(o.id, rb.orgId))
      .where(sql`${rb.createdAt} >= ${fromIso}::timestamptz`)
      .groupBy(sql`1`, o.currency),
    db
      .select({
        model: rb.model,
        requests: count(),
        tokens: sql<number>`sum(${rb.inputTokens} + ${rb.outputTokens})::bigint`,
      })
      .from(rb)
      .where(sql`${rb.createdAt} >= ${fromIso}::timestamptz`)
      .groupBy(rb.model)
      .orderBy(sql`2 desc`)
      .limit(8),
    Promise.all([
      db.select({ n: count() }).from(o),
      db.select({ n: count() }).from(schema.users),
      db.select({ n: count() }).from(o).where(isNotNull(o.suspendedAt)),
      db
        .select({ n: count() })
        .from(schema.payments)
        .where(and(eq(schema.payments.status, "waiting"), eq(schema.payments.payType, "b2btransfer"))),
      db.select({ n: count() }).from(schema.salesLeads).where(eq(schema.salesLeads.status, "new")),
      db.select({ n: count() }).from(schema.feedback).where(eq(schema.feedback.status, "new")),
    ]),
  ]);
  const days = new Map<string, AdminDashboardDay>();
  for (let i = 0; i < opts.days; i++) {
    const date = utcDay(new Date(from.getTime() + i * DAY_MS));
    days.set(date, {
      date,
      organizations: 0,
      users: 0,
      requests: 0,
      recharge: { CNY: "0", USD: "0" },
      consumption: { CNY: "0", USD: "0" },
    });
  }
  for (const r of orgDays) if (days.has(r.day)) days.get(r.day)!.organizations = r.n;
  for (const r of userDays) if (days.has(r.day)) days.get(r.day)!.users = r.n;
  for (const r of rechargeDays) if (days.has(r.day)) days.get(r.day)!.recharge[r.currency] = r.amount;
  for (const r of billDays) {
    const d = days.get(r.day);
    if (!d) continue;
    d.requests += r.requests;
    d.consumption[r.currency] = r.consumption;
  }
  const [[orgs], [users], [suspended], [transfers], [leads], [fb]] = totals;
  return {
    days: [...days.values()],
    totals: {
      organizations: orgs?.n ?? 0,
      users: users?.n ?? 0,
      suspended: suspended?.n ?? 0,
      pendingTransfers: transfers?.n ?? 0,
      newLeads: leads?.n ?? 0,
      newFeedback: fb?.n ?? 0,
    },
    topModels: top.map((t) => ({ model: t.model, requests: t.requests, tokens: Number(t.tokens) })),
  };
}
