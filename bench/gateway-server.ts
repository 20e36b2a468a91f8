/**
 * The gateway as the benchmark runs it: the real app (PGlite in memory, logging off) with every model routed to
 * the mock upstream through the OpenAI-compatible adapter. Prints {ready, port, key, pipeline} once listening.
 * Usage: node --import tsx bench/gateway-server.ts <port> <upstream port>
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "@moonport/db";
import Fastify from "fastify";
import { Pool } from "undici";
import { buildApp } from "../apps/server/src/app.ts";
import { buildConfig } from "../apps/server/src/env.ts";
import { TestPipeline } from "../apps/server/test/support/test-pipeline.ts";

const port = Number(process.argv[2] ?? 3304);
const upstreamPort = Number(process.argv[3] ?? 3303);
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
});
const database = await openDatabase({ kind: "pglite", dataDir: "memory" });
// The database-backed pipeline (keys, limits, metering) replaces this one once it is merged; see bench/README.md.
const pipeline = new TestPipeline({ record: false });
const { key } = pipeline.addKey();
const { app } = await buildApp({ config, database, logger: false, pipeline });
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
await floor.listen({ port: port + 1, host: "127.0.0.1" });
process.stdout.write(
  `${JSON.stringify({ ready: true, port, floorPort: port + 1, key, pipeline: "test (in-memory)" })}\n`,
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
