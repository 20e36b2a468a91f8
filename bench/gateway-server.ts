/**
 * Moonport as the benchmark runs it: the real app with the real pipeline (key cache, rate limits, budgets,
 * balance checks, metering into the bill journal and the database), logging off, every model routed to the mock
 * upstream through the OpenAI-compatible adapter. The database is what a deployment uses:
 *   BENCH_DB=pglite (default)   PGlite on disk in a temporary DATA_DIR
 *   BENCH_DB=postgres           a throwaway database on BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres)
 *                               and Redis on BENCH_REDIS_URL (default redis://127.0.0.1:6379) under a fresh key prefix
 * Prints {ready, port, keys, pipeline} once listening. Reads commands on stdin: `profile-start` and
 * `profile-stop <file>` run V8's CPU profiler in this process (bench/profile.ts) and answer one JSON line each.
 * Usage: node --import tsx bench/gateway-server.ts <port> <upstream port>
 */
import fs from "node:fs";
import { Session } from "node:inspector/promises";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import { newId, openDatabase, schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import pg from "pg";
import { buildApp } from "../apps/server/src/app.ts";
import { buildConfig } from "../apps/server/src/env.ts";
import { grantBalance } from "../apps/server/src/modules/billing/grant-balance.ts";
import { createApiKey } from "../apps/server/src/modules/keys/create-api-key.ts";
import { createOrganization } from "../apps/server/src/modules/orgs/create-organization.ts";

const port = Number(process.argv[2] ?? 3304);
const upstreamPort = Number(process.argv[3] ?? 3403);
const kind = process.env.BENCH_DB === "postgres" ? "postgres" : "pglite";
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-bench-"));
const upstreams = path.join(dir, "upstreams.json");
fs.writeFileSync(
  upstreams,
  JSON.stringify({ "*": { baseUrl: `http://127.0.0.1:${upstreamPort}/v1`, apiKey: "bench", connectTimeoutMs: 2000 } }),
);

let dropDatabase = async () => {};
let databaseUrl: string | undefined;
let redisUrl: string | undefined;
if (kind === "postgres") {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const name = `moonport_bench_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  databaseUrl = u.toString();
  redisUrl = process.env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379";
  dropDatabase = async () => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  };
}

const config = buildConfig({
  NODE_ENV: "production",
  SMS_PROVIDER: "http",
  SMS_HTTP_URL: "http://127.0.0.1:9/unused",
  SERVE_WEB: "false",
  LOG_LEVEL: "silent",
  UPSTREAMS_FILE: upstreams,
  DATA_DIR: dir,
  BILLING_JOURNAL_DIR: path.join(dir, "journal"),
  MAX_CONNECTIONS_PER_IP: process.env.BENCH_MAX_CONNECTIONS_PER_IP ?? "4096",
  ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  ...(redisUrl ? { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `bench${process.pid}` } : {}),
});
const database = await openDatabase(
  databaseUrl ? { kind: "postgres", url: databaseUrl } : { kind: "pglite", dataDir: dir, owner: "bench" },
);
const { app, ctx } = await buildApp({ config, database, logger: false });

// Limits stay on. The highest tier allows 10,000 requests per minute per organization, more than one organization
// can send in this benchmark, so the load is spread over enough tier-5 organizations (one key each, rotated per
// request by the load generator) that no request is refused.
const ORGS = Number(process.env.BENCH_ORGS ?? 4);
const db = ctx.db;
const userId = newId("user");
await db.insert(schema.users).values({ id: userId, username: `bench_${userId.slice(-8)}` });
const keys: string[] = [];
for (let i = 0; i < ORGS; i++) {
  const { orgId, projectId } = await db.transaction((tx) =>
    createOrganization({ db: tx, name: `Bench ${i}`, edition: "cn", creatorUserId: userId, creatorNickname: "bench" }),
  );
  // Tier 5 plus an operator override (as `set-org-limits` grants) so no request is refused for its rate: the
  // benchmark measures the limit checks, not 429s.
  await db
    .update(schema.organizations)
    .set({
      tierOverride: 5,
      rateLimitOverride: { concurrency: 100_000, rpm: 100_000_000, tpm: 1_000_000_000_000 },
    })
    .where(eq(schema.organizations.id, orgId));
  await grantBalance({ ctx, orgId, amount: 1_000_000_000_000_000n, note: "benchmark", createdBy: userId });
  keys.push((await createApiKey({ db, orgId, projectId, name: "bench", createdBy: userId })).key);
}
await app.listen({ port, host: "127.0.0.1" });
const pipeline = `real (${kind === "postgres" ? "PostgreSQL + Redis" : "PGlite on disk"}, key cache, tier-5 limits over ${ORGS} organizations, metering)`;
process.stdout.write(`${JSON.stringify({ ready: true, port, keys, pipeline })}\n`);

/**
 * Rows in request_bills and the requests they bill: the benchmark checks that every request was billed, and
 * that no request has two inference lines (a double bill with distinct line ids would pass a row count).
 */
async function billCount(): Promise<{ bills: number; requests: number }> {
  await ctx.meter.flush();
  const r = await db.execute<{ n: string; r: string }>(
    `select count(*)::text as n, count(distinct request_id)::text as r from request_bills where product_type = 'model_inference'`,
  );
  const row = (r as unknown as { rows: { n: string; r: string }[] }).rows[0]!;
  return { bills: Number(row.n), requests: Number(row.r) };
}

let session: Session | undefined;
readline.createInterface({ input: process.stdin }).on("line", async (line) => {
  const [cmd, arg] = line.trim().split(/\s+/);
  const answer = (o: object) => process.stdout.write(`${JSON.stringify(o)}\n`);
  try {
    if (cmd === "profile-start") {
      session = new Session();
      session.connect();
      await session.post("Profiler.enable");
      await session.post("Profiler.setSamplingInterval", { interval: 200 });
      await session.post("Profiler.start");
      answer({ ok: cmd });
    } else if (cmd === "profile-stop" && session && arg) {
      const { profile } = await session.post("Profiler.stop");
      session.disconnect();
      session = undefined;
      fs.writeFileSync(arg, JSON.stringify(profile));
      answer({ ok: cmd, file: arg });
    } else if (cmd === "heap-start") {
      // Allocation sampling, collected objects included: where the young generation fills from. With
      // `survivors`, objects a scavenge collected are left out: what remains is what reached the old generation
      // (promoted, or allocated there directly) and so what full collections must clean up.
      session = new Session();
      session.connect();
      await session.post("HeapProfiler.enable");
      await session.post("HeapProfiler.startSampling", {
        samplingInterval: 1024,
        includeObjectsCollectedByMinorGC: arg !== "survivors",
        includeObjectsCollectedByMajorGC: true,
      });
      answer({ ok: cmd });
    } else if (cmd === "heap-stop" && session && arg) {
      const { profile } = await session.post("HeapProfiler.stopSampling");
      session.disconnect();
      session = undefined;
      fs.writeFileSync(arg, JSON.stringify(profile));
      answer({ ok: cmd, file: arg });
    } else if (cmd === "bills") {
      answer({ ok: cmd, ...(await billCount()) });
    } else answer({ error: `unknown command ${line}` });
  } catch (e) {
    answer({ error: String(e) });
  }
});

const stop = async () => {
  await app.close();
  await database.close();
  await dropDatabase().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
