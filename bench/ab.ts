/**
 * A/B of the gateway against an earlier commit: "are the bench figures no worse?" answered in one run.
 *
 * `npm run bench:ab -- <git-ref> [--rounds 4] [--seconds 8] [--connections 64] [--db pglite|postgres]`
 *
 * The ref is checked out (detached) under .tmp/ab/<sha>, sharing this checkout's installed packages except the
 * workspace ones, which point at the old tree. Each round starts the old gateway-server.ts, then the current
 * one (the order alternates every round so neither always runs on a warmer machine), drives each with the same
 * autocannon load against the same mock upstream (non-streaming, then streaming) and reads the server process's
 * CPU time per request. The medians over the rounds, and the current ÷ old ratio, are what to quote: both sides
 * run under the same conditions, so a busy machine moves both.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { chatBody, HERE, load, type Proc, serveFlags, startProcess, tsRunner, tsScript } from "./harness.ts";

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1]!;
};
const ref = args.find((a, i) => !a.startsWith("--") && (i === 0 || !args[i - 1]!.startsWith("--")));
if (!ref) {
  console.error(
    'usage: npm run bench:ab -- <git-ref> [--rounds 4] [--seconds 8] [--connections 64] [--db pglite|postgres] [--old-flags "…"] [--new-flags "…"]',
  );
  process.exit(2);
}
const rounds = Number(flag("rounds", "4"));
const seconds = Number(flag("seconds", "8"));
const connections = Number(flag("connections", "64"));
const db = flag("db", "pglite");
/** Node/V8 flags for one side's server, e.g. `HEAD --new-flags "--single-threaded-gc"` to A/B a flag alone. */
const sideFlags = {
  old: flag("old-flags", "").split(/\s+/).filter(Boolean),
  current: flag("new-flags", "").split(/\s+/).filter(Boolean),
};
const basePort = Number(process.env.BENCH_UPSTREAM_PORT ?? 3403);

const root = path.resolve(HERE, "..");
const git = (...a: string[]) => execFileSync("git", a, { cwd: root, encoding: "utf8" }).trim();
const sha = git("rev-parse", "--short", `${ref}^{commit}`);
const oldRoot = path.join(root, ".tmp", "ab", sha);

/** The old tree with this checkout's packages: every entry of node_modules linked, except our own workspaces. */
function prepareOldTree() {
  if (!fs.existsSync(path.join(oldRoot, "package.json"))) {
    fs.mkdirSync(path.dirname(oldRoot), { recursive: true });
    git("worktree", "add", "--detach", "--force", oldRoot, sha);
  }
  const nm = path.join(oldRoot, "node_modules");
  if (fs.existsSync(nm)) return;
  fs.mkdirSync(nm);
  for (const entry of fs.readdirSync(path.join(root, "node_modules"))) {
    if (entry === "@moonport") continue;
    fs.symlinkSync(path.join(root, "node_modules", entry), path.join(nm, entry));
  }
  // Workspace packages resolve to the old tree's sources, as `npm ci` there would link them.
  fs.mkdirSync(path.join(nm, "@moonport"));
  for (const ws of ["apps", "packages"]) {
    for (const dir of fs.readdirSync(path.join(oldRoot, ws))) {
      const pkg = path.join(oldRoot, ws, dir, "package.json");
      if (!fs.existsSync(pkg)) continue;
      const name = (JSON.parse(fs.readFileSync(pkg, "utf8")) as { name: string }).name;
      if (!name.startsWith("@moonport/")) continue;
      fs.symlinkSync(path.join(oldRoot, ws, dir), path.join(nm, name));
      const own = path.join(root, ws, dir, "node_modules");
      const target = path.join(oldRoot, ws, dir, "node_modules");
      if (fs.existsSync(own) && !fs.existsSync(target)) fs.symlinkSync(own, target);
    }
  }
}

interface Sample {
  nonStreamingUs: number;
  streamingUs: number;
  nonStreamingRps: number;
  streamingRps: number;
}

async function measure(tree: string, port: number, flags: string[]): Promise<Sample> {
  const server: Proc = await startProcess(
    [
      ...serveFlags(tree),
      ...flags,
      ...tsRunner(tree),
      path.join(tree, "bench", "gateway-server.ts"),
      String(port),
      String(basePort),
      String(port + 10),
    ],
    { BENCH_DB: db },
  );
  try {
    const keys = server.info.keys as string[];
    const url = `http://127.0.0.1:${port}/v1/chat/completions`;
    const run = (stream: boolean, duration: number) =>
      load({ url, body: chatBody(stream), connections, duration, keys, pid: server.pid });
    await run(false, 2);
    const ns = await run(false, seconds);
    await run(true, 1);
    const st = await run(true, seconds);
    if (ns.errors || st.errors) throw new Error(`errors under load: ${ns.errors} + ${st.errors}`);
    return {
      nonStreamingUs: ns.cpuPerRequestUs,
      streamingUs: st.cpuPerRequestUs,
      nonStreamingRps: ns.rps,
      streamingRps: st.rps,
    };
  } finally {
    await server.stop();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

prepareOldTree();
const upstream = await startProcess(tsScript("mock-upstream.ts", String(basePort)));
const samples: { old: Sample[]; current: Sample[] } = { old: [], current: [] };
try {
  for (let r = 0; r < rounds; r++) {
    const order: ("old" | "current")[] = r % 2 ? ["current", "old"] : ["old", "current"];
    for (const side of order) {
      const s = await measure(side === "old" ? oldRoot : root, basePort + 1, sideFlags[side]);
      samples[side].push(s);
      console.error(
        `round ${r + 1} ${side}: ${s.nonStreamingUs.toFixed(0)} µs/req non-streaming, ${s.streamingUs.toFixed(0)} streaming`,
      );
    }
  }
} finally {
  await upstream.stop();
}

const load1 = fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0];
const row = (label: string, pick: (s: Sample) => number, digits = 0) => {
  const o = median(samples.old.map(pick));
  const c = median(samples.current.map(pick));
  return `| ${label} | ${o.toFixed(digits)} | ${c.toFixed(digits)} | ${(c / o).toFixed(2)} |`;
};
console.log(
  [
    `A/B: ${sha}${sideFlags.old.length ? ` with ${sideFlags.old.join(" ")}` : ""} (old) vs the working tree${sideFlags.current.length ? ` with ${sideFlags.current.join(" ")}` : ""} (current), ${db}, ${connections} connections, ${seconds} s per cell, median of ${rounds} alternated rounds, load average ${load1} at the end.`,
    "",
    "| measure | old | current | current ÷ old |",
    "| --- | --- | --- | --- |",
    row("CPU µs/req, non-streaming", (s) => s.nonStreamingUs),
    row("CPU µs/req, streaming", (s) => s.streamingUs),
    row("req/s, non-streaming", (s) => s.nonStreamingRps),
    row("req/s, streaming", (s) => s.streamingRps),
  ].join("\n"),
);
process.exit(0);
