/**
 * Billing-details benchmark: seeds BILLS_ROWS (default 1,000,000) request_bills rows for one organization over 31
 * days, on PGlite on disk and (with BENCH_DATABASE_URL) on PostgreSQL, closes the finished days with the real
 * job, then times each tab's domain call. Figures are ratios to a primary-key lookup measured in the same run, so
 * a busy machine moves both. Usage: node --import tsx bench/bills.ts   (BILLS_ROWS=200000 for a quicker run;
 * BILLS_DB=postgres or BILLS_DB=pglite runs one of the two)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Database, newId, openDatabase, schema } from "@moonport/db";
import { and, eq, sql } from "drizzle-orm";
import { buildApp } from "../apps/server/src/app.ts";
import { buildConfig } from "../apps/server/src/env.ts";
import { finalizeBillDays } from "../apps/server/src/modules/bills/finalize-bill-days.ts";
import { getDailyBills, getProductBills } from "../apps/server/src/modules/bills/get-bills.ts";
import { listRequestBills } from "../apps/server/src/modules/bills/list-request-bills.ts";
import { createOrganization } from "../apps/server/src/modules/orgs/create-organization.ts";

const ROWS = Number(process.env.BILLS_ROWS ?? 1_000_000);
const ONLY = process.env.BILLS_DB;
const DAY = 86_400_000;

async function median(fn: () => Promise<unknown>, runs = 7): Promise<number> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

async function run(label: string, database: Database, dir: string) {
  const now = new Date();
  const config = buildConfig({ NODE_ENV: "test", SERVE_WEB: "false", LOG_LEVEL: "silent", DATA_DIR: dir });
  const { app, ctx } = await buildApp({ config, database, logger: false, clock: { now: () => now } });
  const db = ctx.db;
  const userId = newId("user");
  await db.insert(schema.users).values({ id: userId, username: `bench_${userId.slice(-8)}` });
  const { orgId, projectId } = await db.transaction((tx) =>
    createOrganization({ db: tx, name: "Bench", edition: "cn", creatorUserId: userId, creatorNickname: "bench" }),
  );
  const t0 = performance.now();
  // One INSERT … SELECT: rows spread evenly over the last 31 days, 4 models, every 20th a web-search line.
  const step = Math.max(1, Math.floor((31 * DAY) / ROWS));
  await db.execute(sql`insert into request_bills (id, request_id, org_id, project_id, api_key_id, model, product_name,
      product_type, input_tokens, output_tokens, cached_tokens, consumption, cash_deduction, voucher_deduction, status, created_at)
    select 'bl_' || g, 'req_' || g, ${orgId}, ${projectId}, 'key_bench',
      (array['moonshot-v1-8k','moonshot-v1-32k','kimi-k2','kimi-latest'])[1 + g % 4],
      (array['moonshot-v1-8k','moonshot-v1-32k','kimi-k2','kimi-latest'])[1 + g % 4],
      case when g % 20 = 0 then '$web_search' else 'model_inference' end,
      100 + g % 900, 50 + g % 400, g % 64, 1000 + g % 100000, 1000 + g % 100000, 0, 'ok',
      ${now.toISOString()}::timestamptz - (g::bigint * ${step}) * interval '1 millisecond'
    from generate_series(1, ${ROWS}) g`);
  // PostgreSQL's autovacuum analyzes a table soon after a bulk change like this one; without it the planner still
  // believes request_bills is nearly empty and picks a sort over the whole range. PGlite runs no autovacuum, so the
  // run analyzes both and measures the plans a settled database uses.
  await db.execute(sql`analyze request_bills`);
  // And summarises the BRIN ranges, as autovacuum's vacuums do on PostgreSQL and the bills.summarize-ranges job
  // does on PGlite (every 5 minutes): unsummarised, the planner's favourite plan for "today" read the whole table.
  await db.execute(sql`select brin_summarize_new_values('request_bills_time_brin')`);
  const seedMs = performance.now() - t0;
  const t1 = performance.now();
  await finalizeBillDays({ ctx, edition: "cn", now });
  const finalizeMs = performance.now() - t1;
  const [org] = await db.select().from(schema.organizations).where(eq(schema.organizations.id, orgId));
  const access = { userId, org: org!, role: "admin" as const };
  const fmt = (d: Date) => d.toISOString().slice(0, 10);
  const from = fmt(new Date(now.getTime() - 30 * DAY));
  const to = fmt(now);
  const recent = fmt(new Date(now.getTime() - 6 * DAY));

  // One row by its primary key (organization, time, id): the cheapest read of the table.
  const key500 = and(
    eq(schema.requestBills.orgId, orgId),
    eq(schema.requestBills.createdAt, new Date(now.getTime() - 500 * step)),
    eq(schema.requestBills.id, "bl_500"),
  );
  const baseline = await median(() => db.select().from(schema.requestBills).where(key500));
  const page1 = await listRequestBills({ ctx, access, from: recent, to, limit: 50 });
  let deep = page1;
  for (let i = 0; i < 20 && deep.nextCursor; i++)
    deep = await listRequestBills({ ctx, access, from: recent, to, limit: 100, cursor: deep.nextCursor });
  const cases: [string, () => Promise<unknown>][] = [
    ["Daily Bill, 31 days", () => getDailyBills({ ctx, access, from, to })],
    ["Product Bill, 31 days", () => getProductBills({ ctx, access, from, to })],
    ["Daily Bill, today only (live tail)", () => getDailyBills({ ctx, access, from: to, to })],
    ["Request Details, first page (50)", () => listRequestBills({ ctx, access, from: recent, to, limit: 50 })],
    [
      "Request Details, page after 2,000 rows (keyset)",
      () => listRequestBills({ ctx, access, from: recent, to, limit: 50, cursor: deep.nextCursor ?? undefined }),
    ],
  ];
  console.log(
    `\n${label}: ${ROWS.toLocaleString()} rows seeded in ${(seedMs / 1000).toFixed(1)} s; days closed in ${(finalizeMs / 1000).toFixed(1)} s`,
  );
  console.log(`| query | median ms | × primary-key lookup (${baseline.toFixed(2)} ms) |`);
  console.log("| --- | ---: | ---: |");
  for (const [name, fn] of cases) {
    const ms = await median(fn);
    console.log(`| ${name} | ${ms.toFixed(1)} | ${(ms / baseline).toFixed(0)} |`);
  }
  await app.close();
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-bills-bench-"));
try {
  if (ONLY !== "postgres") {
    const pglite = await openDatabase({ kind: "pglite", dataDir: path.join(dir, "pglite") });
    await run("PGlite (on disk)", pglite, dir);
    await pglite.close();
  }
  if (process.env.BENCH_DATABASE_URL && ONLY !== "pglite") {
    const pg = await openDatabase({ kind: "postgres", url: process.env.BENCH_DATABASE_URL, poolSize: 4 });
    await run("PostgreSQL", pg, dir);
    await pg.close();
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
