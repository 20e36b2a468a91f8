/**
 * Gateway benchmark (`npm run bench`): the same load sent straight to a mock upstream and through the gateway
 * (key check, admission, upstream adapter, metering hand-off), non-streaming and streaming, at 1, 16 and 64
 * connections. Reports the latency the gateway adds (p50, p99) and its throughput relative to direct, both
 * measured in the same run, and writes the table into bench/README.md. Loopback only; about two minutes.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const HERE = path.dirname(fileURLToPath(import.meta.url));
// Ports are configurable so several checkouts can run the benchmark on one machine.
const UPSTREAM_PORT = Number(process.env.BENCH_UPSTREAM_PORT ?? 3303);
const GATEWAY_PORT = Number(process.env.BENCH_GATEWAY_PORT ?? 3304);
const FLOOR_PORT = Number(process.env.BENCH_FLOOR_PORT ?? 3307);
const children: ChildProcess[] = [];
process.on("exit", () => {
  for (const c of children) c.kill("SIGTERM");
});
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const CONNECTIONS = [1, 16, 64];

function start(script: string, args: string[]): Promise<{ child: ChildProcess; info: Record<string, unknown> }> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(HERE, script), ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) resolve({ child, info: JSON.parse(line) });
    });
    child.on("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

interface Run {
  p50: number;
  p99: number;
  mean: number;
  rps: number;
  errors: number;
  /** CPU time of the measured server process per request (µs): robust to other load on the machine. */
  cpuPerRequestUs: number;
}

/** utime + stime of a process in ms, from /proc (Linux); 0 elsewhere. */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

let next = 0;

async function load(
  url: string,
  body: string,
  connections: number,
  keys: string[],
  pid?: number,
  duration = DURATION_S,
): Promise<Run> {
  const cpu0 = cpuMs(pid);
  const r = await autocannon({
    url,
    method: "POST",
    body,
    headers: { "content-type": "application/json", authorization: `Bearer ${keys[0]}` },
    // One key per request, round robin: the load is spread over several organizations (see gateway-server.ts).
    requests: [
      {
        setupRequest: (req: { headers: Record<string, string> }) => {
          req.headers = { ...req.headers, authorization: `Bearer ${keys[next++ % keys.length]}` };
          return req;
        },
      },
    ],
    connections,
    duration,
  });
  const cpu = cpuMs(pid) - cpu0;
  return {
    p50: r.latency.p50,
    p99: r.latency.p99,
    mean: r.latency.mean,
    rps: r.requests.average,
    errors: r.errors + r.non2xx,
    cpuPerRequestUs: r.requests.total ? (cpu * 1000) / r.requests.total : 0,
  };
}

const fmt = (n: number, d = 2) => n.toFixed(d);

async function main() {
  const upstream = await start("mock-upstream.ts", [String(UPSTREAM_PORT)]);
  const gateway = await start("gateway-server.ts", [String(GATEWAY_PORT), String(UPSTREAM_PORT), String(FLOOR_PORT)]);
  const keys = gateway.info.keys as string[];
  const direct = `http://127.0.0.1:${UPSTREAM_PORT}/v1/chat/completions`;
  const through = `http://127.0.0.1:${GATEWAY_PORT}/v1/chat/completions`;
  const floorUrl = `http://127.0.0.1:${Number(gateway.info.floorPort)}/v1/chat/completions`;
  const auth = keys;
  const rows: string[] = [];
  const results: Record<string, { direct: Run; floor: Run; gateway: Run }> = {};
  try {
    for (const stream of [false, true]) {
      const body = JSON.stringify({
        model: "moonshot-v1-8k",
        messages: [
          { role: "system", content: "You are a helpful assistant." },
          { role: "user", content: "Say something short about foxes." },
        ],
        max_tokens: 64,
        stream,
      });
      // Warm up both paths (JIT, keep-alive pools, tokenizer memo).
      await load(direct, body, 8, auth, undefined, 2);
      await load(through, body, 8, auth, undefined, 2);
      await load(floorUrl, body, 8, auth, undefined, 2);
      for (const c of CONNECTIONS) {
        const d = await load(direct, body, c, auth, upstream.child.pid);
        const f = await load(floorUrl, body, c, auth, gateway.child.pid);
        const g = await load(through, body, c, auth, gateway.child.pid);
        const mode = stream ? "streaming" : "non-streaming";
        results[`${mode}/${c}`] = { direct: d, floor: f, gateway: g };
        const row = `| ${mode} | ${c} | ${fmt(d.p50)} / ${fmt(d.p99)} | ${fmt(g.p50)} / ${fmt(g.p99)} | ${fmt(g.p50 - d.p50)} | ${fmt(g.p99 - d.p99)} | ${fmt(g.mean - d.mean)} | ${fmt(d.rps, 0)} | ${fmt(g.rps, 0)} | ${fmt((100 * g.rps) / d.rps, 0)} % | ${fmt(d.cpuPerRequestUs, 0)} | ${fmt(f.cpuPerRequestUs, 0)} / ${fmt((100 * f.rps) / d.rps, 0)} % | ${fmt(g.cpuPerRequestUs, 0)} | ${d.errors + f.errors + g.errors} |`;
        rows.push(row);
        console.log(row);
      }
    }
  } finally {
    gateway.child.kill("SIGTERM");
    upstream.child.kill("SIGTERM");
  }

  const header = [
    "| mode | connections | direct p50 / p99 (ms) | gateway p50 / p99 (ms) | added p50 (ms) | added p99 (ms) | added mean (ms) | direct req/s | gateway req/s | gateway / direct | upstream CPU µs/req | bare proxy CPU µs/req / throughput | gateway CPU µs/req | errors |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  const table = [...header, ...rows].join("\n");
  const readme = path.join(HERE, "README.md");
  const text = fs.existsSync(readme) ? fs.readFileSync(readme, "utf8") : "";
  const begin = "<!-- bench:results:begin -->";
  const end = "<!-- bench:results:end -->";
  const load1 = os.loadavg()[0]!.toFixed(1);
  const block = `${begin}\nLast run: ${new Date().toISOString()} on ${os.cpus().length} × ${os.cpus()[0]?.model ?? "CPU"}, Node ${process.version}, load average ${load1} at the end, ${DURATION_S} s per cell, pipeline: ${gateway.info.pipeline}.\n\n${table}\n${end}`;
  const next = text.includes(begin)
    ? text.replace(new RegExp(`${begin}[\\s\\S]*?${end}`), block)
    : `${text.trimEnd()}\n\n${block}\n`;
  fs.writeFileSync(readme, next);
  console.log(`\nwritten to ${path.relative(process.cwd(), readme)}`);
  const s16 = results["non-streaming/16"]!;
  const s64 = results["non-streaming/64"]!;
  console.log(
    `goals: added p50 @16 = ${fmt(s16.gateway.p50 - s16.direct.p50)} ms (≤ 1), added p99 @16 = ${fmt(s16.gateway.p99 - s16.direct.p99)} ms (≤ 5), throughput @64 = ${fmt((100 * s64.gateway.rps) / s64.direct.rps, 0)} % (≥ 50)`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
