/**
 * The gateway as the benchmark runs it: the real app (PGlite in memory, logging off) with the real pipeline (key
 * cache, rate limits, budgets, balance checks, metering into the bill journal and the database) and every model
 * routed to the mock upstream through the OpenAI-compatible adapter. Prints {ready, port, key, pipeline} once listening.
 * Usage: node --import tsx bench/gateway-server.ts <port> <upstream port> <floor port>
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { newId, openDatabase, schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import Fastify from "fastify";
import { Pool } from "undici";
import { buildApp } from "../apps/server/src/app.ts";
import { buildConfig } from "../apps/server/src/env.ts";
import { grantBalance } from "../apps/server/src/modules/billing/grant-balance.ts";
import { createApiKey } from "../apps/server/src/modules/keys/create-api-key.ts";
import { createOrganization } from "../apps/server/src/modules/orgs/create-organization.ts";

const port = Number(process.argv[2] ?? 3304);
const upstreamPort = Number(process.argv[3] ?? 3303);
const floorPort = Number(process.argv[4] ?? 3307);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-bench-"));
const upstreams = path.join(dir, "upstreams.json");
fs.writeFileSync(
  upstreams,
  JSON.stringify({ "*": { baseUrl: `http://127.0.0.1:${upstreamPort}/v1`, apiKey: "bench", connectTimeoutMs: 2000 } }),
);
const config = buildConfig({
  NODE_ENV: "production",
  SMS_PROVIDER: "http",
  SMS_HTTP_URL: "http://127.0.0.1:9/unused",
  SERVE_WEB: "false",
  LOG_LEVEL: "silent",
  UPSTREAMS_FILE: upstreams,
  DATA_DIR: dir,
  BILLING_JOURNAL_DIR: path.join(dir, "journal"),
});
const database = await openDatabase({ kind: "pglite", dataDir: "memory" });
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
    .set({ tierOverride: 5, rateLimitOverride: { concurrency: 100_000, rpm: 100_000_000, tpm: 1_000_000_000_000 } })
    .where(eq(schema.organizations.id, orgId));
  await grantBalance({ ctx, orgId, amount: 1_000_000_000_000_000n, note: "benchmark", createdBy: userId });
  keys.push((await createApiKey({ db, orgId, projectId, name: "bench", createdBy: userId })).key);
}
await app.listen({ port, host: "127.0.0.1" });

// The floor: a bare Fastify route that forwards the body over an undici pool and returns the upstream's bytes,
// with no key check, validation, tokenizing, re-serialising or settlement. Same process, measured separately.
const floor = Fastify({ logger: false });
const pool = new Pool(`http://127.0.0.1:${upstreamPort}`, { connections: 256 });
floor.post("/v1/chat/completions", async (req, reply) => {
  const res = await pool.request({
    path: "/v1/chat/completions",
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(req.body),
  });
  reply.header("content-type", res.headers["content-type"] as string);
  return reply.send(res.body);
});
await floor.listen({ port: floorPort, host: "127.0.0.1" });
process.stdout.write(
  `${JSON.stringify({ ready: true, port, floorPort, keys, pipeline: `real (key cache, tier-5 limits over ${ORGS} organizations, metering)` })}\n`,
);
const stop = async () => {
  await floor.close();
  await pool.close();
  await app.close();
  await database.close();
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
