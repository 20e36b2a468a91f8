/**
 * The floor: a bare Node pass-through proxy (Fastify route → undici pool → the mock's bytes back), with no key
 * check, validation, counting, limits or billing. What any Node proxy on this stack pays per request; the
 * benchmark reports Moonport relative to it. Reads the same stdin commands as gateway-server.ts (profiling).
 * With `--raw` (the single-target tools' `--target floor-raw`) the same proxy runs on node:http without Fastify:
 * what the framework itself costs per request, which is also what a /v1 that bypassed it could save at most.
 * Usage: node --import tsx bench/floor-proxy.ts <port> <upstream port> [--raw]
 */
import fs from "node:fs";
import http from "node:http";
import { Session } from "node:inspector/promises";
import readline from "node:readline";
import Fastify from "fastify";
import { Pool } from "undici";

const port = Number(process.argv[2] ?? 3307);
const upstreamPort = Number(process.argv[3] ?? 3403);
const pool = new Pool(`http://127.0.0.1:${upstreamPort}`, { connections: 256 });
const forward = (body: unknown) =>
  pool.request({
    path: "/v1/chat/completions",
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

async function startFastify() {
  const floor = Fastify({ logger: false });
  floor.post("/v1/chat/completions", async (req, reply) => {
    const res = await forward(req.body);
    reply.header("content-type", res.headers["content-type"] as string);
    return reply.send(res.body);
  });
  await floor.listen({ port, host: "127.0.0.1" });
  return () => floor.close();
}

/** The same route on node:http: read the body, parse, forward, pipe the answer back. */
async function startRaw() {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      forward(JSON.parse(Buffer.concat(chunks).toString("utf8"))).then(
        (up) => {
          res.writeHead(up.statusCode, { "content-type": up.headers["content-type"] as string });
          up.body.pipe(res);
        },
        () => res.writeHead(502).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}

const closeServer = process.argv.includes("--raw") ? await startRaw() : await startFastify();
process.stdout.write(`${JSON.stringify({ ready: true, port })}\n`);

let session: Session | undefined;
readline.createInterface({ input: process.stdin }).on("line", async (line) => {
  const [cmd, arg] = line.trim().split(/\s+/);
  const answer = (o: object) => process.stdout.write(`${JSON.stringify(o)}\n`);
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
    fs.writeFileSync(arg, JSON.stringify(profile));
    answer({ ok: cmd, file: arg });
  } else answer({ error: `unknown command ${line}` });
});
const stop = async () => {
  await closeServer();
  await pool.close();
  process.exit(0);
};
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
