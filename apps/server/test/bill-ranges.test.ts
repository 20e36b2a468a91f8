/**
 * PGlite runs no autovacuum, so nothing summarised the bill table's BRIN ranges and the planner's favourite plan
 * for an organization's recent bills read the whole table (modules/bills/summarize-bill-ranges.ts). The periodic
 * job summarises what was appended since its last run; a time-range query then reads only its own ranges.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { summarizeBillRanges } from "../src/modules/bills/summarize-bill-ranges.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const ROWS = 80_000;

/**
 * Heap blocks that the back office's platform-wide read of the last hour (admin dashboard: by time, every
 * organization, so only the BRIN index applies) visits, from EXPLAIN ANALYZE.
 */
async function blocksRead(): Promise<number> {
  await t.ctx.db.execute(sql`set enable_seqscan = off`);
  try {
    const plan = await t.ctx.db.execute(
      sql`explain (analyze, format json) select count(*) from request_bills where created_at >= now() - interval '1 hour'`,
    );
    const text = JSON.stringify((plan as unknown as { rows: unknown[] }).rows);
    return [...text.matchAll(/"(?:Exact|Lossy) Heap Blocks":(\d+)/g)].reduce((s, m) => s + Number(m[1]), 0);
  } finally {
    await t.ctx.db.execute(sql`reset enable_seqscan`);
  }
}

describe("bill ranges on PGlite", () => {
  it("summarises appended ranges, after which a recent range reads a fraction of the table", async (c) => {
    if (t.ctx.database.kind !== "pglite") c.skip();
    // A day of bills in time order, as the gateway appends them: the last hour is 1/24 of the table.
    await t.ctx.db.execute(sql`insert into request_bills (id, request_id, org_id, project_id, api_key_id, model,
        product_name, product_type, consumption, status, created_at)
      select 'bl_' || g, 'req_' || g, 'org_ranges', 'proj_ranges', 'key_ranges', 'moonshot-v1-8k', 'moonshot-v1-8k',
        'model_inference', 1000, 'ok', now() - interval '1 day' + g * (interval '1 day' / ${ROWS})
      from generate_series(1, ${ROWS}) g`);
    const before = await blocksRead();
    expect(await summarizeBillRanges(t.ctx)).toBeGreaterThan(0);
    expect(await summarizeBillRanges(t.ctx)).toBe(0);
    const after = await blocksRead();
    const [{ pages }] = (
      (await t.ctx.db.execute(sql`select pg_relation_size('request_bills') / 8192 as pages`)) as unknown as {
        rows: { pages: number }[];
      }
    ).rows as [{ pages: number }];
    // Unsummarised, (nearly) every page is read; summarised, the range(s) of 128 pages holding the last hour.
    expect(before).toBeGreaterThan(Number(pages) * 0.9);
    expect(after).toBeLessThan(before / 4);
    console.log(`[bill-ranges] ${pages} pages: ${before} heap blocks read unsummarised, ${after} summarised`);
  });
});
