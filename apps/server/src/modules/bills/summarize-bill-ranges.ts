/**
 * Keeps `request_bills_time_brin` useful on PGlite. A BRIN index summarises block ranges only when something
 * summarises them: PostgreSQL's autovacuum does on its insert-triggered vacuums, but PGlite runs no autovacuum, so
 * every range the gateway appended stayed unsummarised, and an unsummarised range matches every query. The planner
 * still costed the index as selective and chose it for an organization's "today" (the Bills screens' live tail):
 * a bitmap scan of the whole table (`npm run bench:bills`, 1,000,000 rows: ~450–580 ms; summarised ~200 ms).
 * Summarising reads only the pages added since the last run, so it runs often and stays short.
 */
import { sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";

/** Summarises the block ranges of request_bills appended since the last run; returns how many (PGlite only). */
export async function summarizeBillRanges(ctx: AppContext): Promise<number> {
  if (ctx.database.kind !== "pglite") return 0;
  const result = await ctx.db.execute(sql`select brin_summarize_new_values('request_bills_time_brin')::int as n`);
  return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
}
