/**
 * What bench/gateway.ts and bench/profile.ts share: starting the benchmark's processes, talking to them over
 * stdin/stdout, reading a process's CPU time, and driving load with autocannon.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

export const HERE = path.dirname(fileURLToPath(import.meta.url));
const children: ChildProcess[] = [];
process.on("exit", () => {
  for (const c of children) c.kill("SIGTERM");
});

export interface Proc {
  child: ChildProcess;
  pid: number;
  info: Record<string, unknown>;
  /** Sends one stdin command and resolves with the process's next JSON answer. */
  command(line: string): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

/** Starts a process that prints one JSON line once ready; `argv` is the command after `node`. */
export function startProcess(
  argv: string[],
  env: Record<string, string> = {},
  readyTimeoutMs = 120_000,
): Promise<Proc> {
  const child = spawn(process.execPath, argv, {
    stdio: ["pipe", "pipe", "inherit"],
    env: { ...process.env, ...env },
  });
  children.push(child);
  const lines: string[] = [];
  const waiting: ((l: string) => void)[] = [];
  let out = "";
  child.stdout!.on("data", (d) => {
    out += d;
    let i = out.indexOf("\n");
    while (i !== -1) {
      const line = out.slice(0, i).trim();
      out = out.slice(i + 1);
      if (line.startsWith("{")) {
        const w = waiting.shift();
        if (w) w(line);
        else lines.push(line);
      }
      i = out.indexOf("\n");
    }
  });
  const nextLine = () =>
    new Promise<string>((resolve) => {
      const l = lines.shift();
      if (l) resolve(l);
      else waiting.push(resolve);
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${argv.join(" ")} not ready in time`)), readyTimeoutMs);
    const onExit = (code: number | null) => reject(new Error(`${argv.join(" ")} exited with ${code}`));
    child.once("exit", onExit);
    void nextLine().then((l) => {
      clearTimeout(timer);
      child.off("exit", onExit);
      resolve({
        child,
        pid: child.pid!,
        info: JSON.parse(l),
        async command(line) {
          child.stdin!.write(`${line}\n`);
          return JSON.parse(await nextLine());
        },
        stop: () =>
          new Promise<void>((res) => {
            if (child.exitCode !== null) return res();
            const t = setTimeout(() => child.kill("SIGKILL"), 10_000);
            child.once("exit", () => {
              clearTimeout(t);
              res();
            });
            child.kill("SIGTERM");
          }),
      });
    }, reject);
  });
}

/** Starts a process that prints nothing useful and is ready once `port` accepts connections (Portkey). */
export async function startListening(argv: string[], port: number, env: Record<string, string> = {}): Promise<Proc> {
  // Its output is not ours to show (Portkey prints a stack trace for every failed stream).
  const child = spawn(process.execPath, argv, {
    stdio: "ignore",
    env: { ...process.env, ...env },
  });
  children.push(child);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${argv.join(" ")} exited with ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, "127.0.0.1", () => {
        s.destroy();
        resolve(true);
      });
      s.on("error", () => resolve(false));
    });
    if (open) break;
    if (Date.now() > deadline) throw new Error(`${argv.join(" ")} not listening on ${port}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    child,
    pid: child.pid!,
    info: {},
    command: async () => ({ error: "no commands" }),
    stop: () =>
      new Promise<void>((res) => {
        if (child.exitCode !== null) return res();
        child.once("exit", () => res());
        child.kill("SIGTERM");
      }),
  };
}

/** The value after `--<name>` on the command line, or undefined when the option is absent. */
export function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

/**
 * The options every single-target tool takes (profile.ts, gc.ts): `--target floor|floor-raw|pglite|postgres`, `--stream`,
 * `--seconds`, `--connections`, and the ports from BENCH_UPSTREAM_PORT / BENCH_GATEWAY_PORT.
 */
export function targetOptions(defaultSeconds: number) {
  const arg = (name: string, fallback: string) => argValue(name) ?? fallback;
  return {
    stream: process.argv.includes("--stream"),
    target: arg("target", "pglite"),
    seconds: Number(arg("seconds", String(defaultSeconds))),
    connections: Number(arg("connections", "64")),
    upstreamPort: Number(process.env.BENCH_UPSTREAM_PORT ?? 3403),
    targetPort: Number(process.env.BENCH_GATEWAY_PORT ?? 3304),
  };
}

/**
 * How a checkout runs its TypeScript: the way `npm run serve` does (scripts/ts-register.mjs), or with tsx in
 * commits from before that loader existed (bench:ab's older side).
 */
export function tsRunner(tree: string): string[] {
  const loader = path.join(tree, "scripts", "ts-register.mjs");
  return ["--import", fs.existsSync(loader) ? loader : "tsx"];
}

/**
 * The Node flags a checkout's `npm run serve` starts the server with (the flags before `--import` in its
 * package.json), so a benchmarked server runs as it does in production.
 */
export function serveFlags(tree: string): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(tree, "package.json"), "utf8")) as { scripts?: { serve?: string } };
  const m = /^node\s+(.*?)\s*--import\b/.exec(pkg.scripts?.serve ?? "");
  return (m?.[1] ?? "").split(/\s+/).filter((f) => f.startsWith("--"));
}

/** A TypeScript file of bench/ run as the server runs in production. */
export const tsScript = (file: string, ...args: string[]) => [
  ...tsRunner(path.dirname(HERE)),
  path.join(HERE, file),
  ...args,
];

/**
 * A server of the bench (the floor or the gateway) with the Node flags of `npm run serve`: the floor gets them too,
 * so a runtime setting never counts as a gain of Moonport's code against it.
 */
export const serverScript = (file: string, ...args: string[]) => [
  ...serveFlags(path.dirname(HERE)),
  ...tsScript(file, ...args),
];

/** utime + stime in clock ticks (1/100 s) from a /proc stat file; throws when it is gone. */
function statTicks(file: string): number {
  const fields = fs.readFileSync(file, "utf8").split(") ")[1]!.split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

/** utime + stime of a process in ms, from /proc (Linux); 0 elsewhere. */
export function cpuMs(pid: number | undefined): number {
  try {
    return statTicks(`/proc/${pid}/stat`) * 10;
  } catch {
    return 0;
  }
}

/** CPU ticks (1/100 s) of each thread of `pid`; the main thread's id is the pid. */
export function threadTicks(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const t of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      out.set(Number(t), statTicks(`/proc/${pid}/task/${t}/stat`));
    } catch {
      // the thread ended
    }
  }
  return out;
}

/** Clock ticks (1/100 s) of a process's main thread and of all its other threads together. */
export function mainAndOtherTicks(pid: number): { main: number; other: number } {
  let main = 0;
  let other = 0;
  for (const [id, t] of threadTicks(pid)) {
    if (id === pid) main += t;
    else other += t;
  }
  return { main, other };
}

/**
 * Starts the mock upstream and one target (the floor, or the gateway on `target`'s database) for the
 * single-target tools; `nodeFlags` go before the script (e.g. a V8 trace flag).
 */
export async function startTarget(
  opts: ReturnType<typeof targetOptions>,
  nodeFlags: string[] = [],
): Promise<{ upstream: Proc; server: Proc }> {
  const { target, targetPort, upstreamPort } = opts;
  const upstream = await startProcess(tsScript("mock-upstream.ts", String(upstreamPort)));
  const floor = target === "floor" || target === "floor-raw";
  const script = floor ? "floor-proxy.ts" : "gateway-server.ts";
  // BENCH_NODE_FLAGS: V8/Node flags to try on the target (e.g. "--v8-pool-size=0"), for experiments.
  const extra = process.env.BENCH_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? [];
  // The experiment's flags after the serve flags: V8 takes the last of a repeated flag, so they win.
  const server = await startProcess(
    [
      ...serveFlags(path.dirname(HERE)),
      ...nodeFlags,
      ...extra,
      ...tsScript(script, String(targetPort), String(upstreamPort), ...(target === "floor-raw" ? ["--raw"] : [])),
    ],
    {
      BENCH_DB: target === "postgres" ? "postgres" : "pglite",
    },
  );
  return { upstream, server };
}

/** Resident set size of a process in MB, from /proc. */
export function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

export interface Run {
  p50: number;
  p99: number;
  mean: number;
  rps: number;
  requests: number;
  errors: number;
  /** CPU time of the measured server process per request (µs): robust to other load on the machine. */
  cpuPerRequestUs: number;
}

export function chatBody(stream: boolean): string {
  return JSON.stringify({
    model: "moonshot-v1-8k",
    messages: [
      { role: "system", content: "You are a helpful assistant." },
      { role: "user", content: "Say something short about foxes." },
    ],
    max_tokens: 64,
    stream,
  });
}

let next = 0;

/** `connections` keep-alive connections for `duration` seconds, rotating `keys` per request. */
export async function load(opts: {
  url: string;
  body: string;
  connections: number;
  duration: number;
  /** Stop after exactly this many responses instead of after `duration`. */
  amount?: number;
  keys?: string[];
  headers?: Record<string, string>;
  /** Process whose CPU time is measured. */
  pid?: number;
  /** Wait this long after the load before reading the CPU time (work the requests left behind, e.g. a bill batch). */
  settleMs?: number;
}): Promise<Run> {
  const keys = opts.keys?.length ? opts.keys : ["none"];
  const cpu0 = cpuMs(opts.pid);
  const r = await autocannon({
    url: opts.url,
    method: "POST",
    body: opts.body,
    headers: { "content-type": "application/json", authorization: `Bearer ${keys[0]}`, ...opts.headers },
    // One key per request, round robin: the load is spread over several organizations (see gateway-server.ts).
    requests: [
      {
        setupRequest: (req: { headers: Record<string, string> }) => {
          req.headers = { ...req.headers, authorization: `Bearer ${keys[next++ % keys.length]}` };
          return req;
        },
      },
    ],
    connections: opts.connections,
    ...(opts.amount ? { amount: opts.amount } : { duration: opts.duration }),
  });
  if (opts.settleMs) await new Promise((r) => setTimeout(r, opts.settleMs));
  const cpu = cpuMs(opts.pid) - cpu0;
  return {
    p50: r.latency.p50,
    p99: r.latency.p99,
    mean: r.latency.mean,
    rps: r.requests.average,
    requests: r.requests.total,
    errors: r.errors + r.non2xx,
    cpuPerRequestUs: r.requests.total ? (cpu * 1000) / r.requests.total : 0,
  };
}
