import { EDITION_TIME_ZONE, type Edition } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { asc, eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { dayFinalAt, localDate } from "../../lib/edition-time.ts";
import { closedThrough, dayAfter, liveDayGroups, pad2, zoneSql } from "./bill-days.ts";

const rb = schema.requestBills;

/** The last local day that is final at `now`: yesterday from 07:00 on, the day before yesterday until then. */
export function lastFinalDay(now: Date, timeZone: string): string {
  const today = localDate(now, timeZone);
  const d = new Date(Date.UTC(today.year, today.month - 1, today.day - 1));
  const yesterday = { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
  const ref = now.getTime() >= dayFinalAt(yesterday, timeZone) ? d : new Date(d.getTime() - 86_400_000);
  return `${ref.getUTCFullYear()}-${pad2(ref.getUTCMonth() + 1)}-${pad2(ref.getUTCDate())}`;
}

/**
 * Closes the daily bills of every organization of an edition up to the last final day: each day's request_bills
 * are summed into daily_bills (replacing what was there, so a retried or repeated run writes the same rows) and
 * `bill_states.closed_through` moves on, in one transaction per organization and day. An organization that never
 * closed a day starts at the day of its first bill. Returns the days closed.
 */
export async function finalizeBillDays(opts: { ctx: AppContext; edition: Edition; now: Date }): Promise<number> {
  const { db } = opts.ctx;
  const tz = EDITION_TIME_ZONE[opts.edition];
  const through = lastFinalDay(opts.now, tz);
  const orgs = await db
    .select({ id: schema.organizations.id })
    .from(schema.organizations)
    .where(eq(schema.organizations.edition, opts.edition));
  let closed = 0;
  for (const { id: orgId } of orgs) {
    let day: string | null;
    const last = await closedThrough(db, orgId);
    if (last) day = dayAfter(last);
    else {
      const [first] = await db
        .select({ day: sql<string>`to_char(${rb.createdAt} at time zone ${zoneSql(tz)}, 'YYYY-MM-DD')` })
        .from(rb)
        .where(eq(rb.orgId, orgId))
        .orderBy(asc(rb.createdAt))
        .limit(1);
      day = first?.day ?? null;
      // No bill yet: nothing to close, but start here so a later first bill does not scan from the beginning.
      if (!day) {
        await db.insert(schema.billStates).values({ orgId, closedThrough: through }).onConflictDoNothing();
        continue;
      }
    }
    for (; day <= through; day = dayAfter(day)) {
      const groups = await liveDayGroups(db, orgId, day, day, tz);
      const current = day;
      await db.transaction(async (tx) => {
        await tx
          .delete(schema.dailyBills)
          .where(sql`${schema.dailyBills.orgId} = ${orgId} and ${schema.dailyBills.day} = ${current}`);
        if (groups.length) await tx.insert(schema.dailyBills).values(groups.map((g) => ({ orgId, ...g })));
        await tx
          .insert(schema.billStates)
          .values({ orgId, closedThrough: current })
          .onConflictDoUpdate({
            target: schema.billStates.orgId,
            set: { closedThrough: current, updatedAt: sql`now()` },
          });
      });
      closed++;
    }
  }
  return closed;
}
