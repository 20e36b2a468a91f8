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
 *
 * `--interleave <cells> [--together]` keeps both servers running instead and alternates short cells between them (old,
 * current, current, old, …; `--seconds` each, default 3), each side's CPU read once its last bill batch has
 * committed (1 s after the load stops), with each side's median p99 latency. The ratio is the median over
 * consecutive old/current pairs. On a VM whose speed drifts by tens of percent from minute to minute, pairs
 * seconds apart compare far better than rounds minutes apart. `--together` loads both sides in the same seconds
 * instead (two loads from this process, half the connections each is not applied: each side gets
 * `--connections`), so even drift within seconds hits both alike. `--repeat <n>` runs the interleaved cells with n
 * pairs of fresh processes, one after another, and pools their pairs (with each pair of processes' own median).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import {
  argValue,
  chatBody,
  cpuMs,
  HERE,
  load,
  type Proc,
  serveFlags,
  startProcess,
  tsRunner,
  tsScript,
} from "./harness.ts";

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => argValue(name) ?? fallback;
const ref = args.find((a, i) => !a.startsWith("--") && (i === 0 || !args[i - 1]!.startsWith("--")));
if (!ref) {
  console.error(
    'usage: npm run bench:ab -- <git-ref> [--rounds 4] [--seconds 8] [--connections 64] [--db pglite|postgres] [--old-flags "…"] [--new-flags "…"] [--interleave <pairs> [--together] [--repeat <n>]]',
  );
  process.exit(2);
}
const rounds = Number(flag("rounds", "4"));
const seconds = Number(flag("seconds", "8"));
const connections = Number(flag("connections", "64"));
const db = flag("db", "pglite");
/**
 * With --interleave: how many pairs of fresh processes to run one after another, pooling their pairs. A process
 * can settle into a cheaper or a dearer state for its whole life (its compiler's choices, its heap), so on a noisy
 * VM one pair of processes can read ±10 % where the next reads the opposite (0.92 × then 1.04 × for the same change,
 * minutes apart); the per-process medians show whether that happened.
 */
const repeats = Number(flag("repeat", "1"));
if (!Number.isInteger(repeats) || repeats < 1) {
  console.error(`--repeat takes a whole number of process pairs, 1 or more (got ${flag("repeat", "")})`);
  process.exit(2);
}
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
  const server = await startSide(tree, port, flags);
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

async function startSide(tree: string, port: number, flags: string[]): Promise<Proc> {
  return startProcess(
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
}

interface ModeCells {
  ratios: number[];
  us: { old: number[]; current: number[] };
  rps: { old: number[]; current: number[] };
  p99: { old: number[]; current: number[] };
}

const emptyCells = (): ModeCells => ({
  ratios: [],
  us: { old: [], current: [] },
  rps: { old: [], current: [] },
  p99: { old: [], current: [] },
});

function addCells(into: ModeCells, from: ModeCells) {
  into.ratios.push(...from.ratios);
  for (const side of ["old", "current"] as const) {
    into.us[side].push(...from.us[side]);
    into.rps[side].push(...from.rps[side]);
    into.p99[side].push(...from.p99[side]);
  }
}

/**
 * See the header: both sides running, short alternating cells, the ratio of adjacent pairs. One call is one pair
 * of fresh processes; its cells are added to `into` (non-streaming, streaming).
 */
async function interleaved(cells: number, repeat: number, into: [ModeCells, ModeCells]) {
  const cellSeconds = Number(flag("seconds", "3"));
  const sides = {
    old: await startSide(oldRoot, basePort + 1, sideFlags.old),
    current: await startSide(root, basePort + 2, sideFlags.current),
  };
  const cell = async (side: "old" | "current", stream: boolean, seconds: number) => {
    const server = sides[side];
    const keys = server.info.keys as string[];
    const port = side === "old" ? basePort + 1 : basePort + 2;
    const url = `http://127.0.0.1:${port}/v1/chat/completions`;
    const cpu0 = cpuMs(server.pid);
    const run = await load({ url, body: chatBody(stream), connections, duration: seconds, keys });
    if (run.errors) throw new Error(`${side}: ${run.errors} errors under load`);
    // The cell's last bill batch commits up to 500 ms after the load: counted here, not in the next cell.
    await new Promise((r) => setTimeout(r, 1000));
    return { us: ((cpuMs(server.pid) - cpu0) * 1000) / run.requests, rps: run.rps, p99: run.p99 };
  };
  try {
    for (const stream of [false, true]) {
      const out = into[stream ? 1 : 0];
      for (const side of ["old", "current"] as const) await cell(side, stream, 2);
      for (let i = 0; i < cells; i++) {
        const order = i % 2 ? (["current", "old"] as const) : (["old", "current"] as const);
        const pair = { old: { us: 0, rps: 0, p99: 0 }, current: { us: 0, rps: 0, p99: 0 } };
        if (together) {
          // Both loaded in the same seconds: whatever the VM does to one cell it does to the other.
          // Each pair starts the other side's load first (the first one started was seen to get a little more).
          const [a, b] = await Promise.all(order.map((side) => cell(side, stream, cellSeconds)));
          pair[order[0]] = a!;
          pair[order[1]] = b!;
        } else for (const side of order) pair[side] = await cell(side, stream, cellSeconds);
        for (const side of order) {
          out.us[side].push(pair[side].us);
          out.rps[side].push(pair[side].rps);
          out.p99[side].push(pair[side].p99);
        }
        out.ratios.push(pair.current.us / pair.old.us);
        console.error(
          `${repeats > 1 ? `processes ${repeat + 1}, ` : ""}${stream ? "streaming" : "non-streaming"} pair ${i + 1}: old ${pair.old.us.toFixed(0)} µs/req, current ${pair.current.us.toFixed(0)} (${(pair.current.us / pair.old.us).toFixed(2)})`,
        );
      }
    }
  } finally {
    await Promise.all([sides.old.stop(), sides.current.stop()]);
  }
}

/** The table rows of one mode, over every pair of every repeat. */
function modeLines(stream: boolean, c: ModeCells, perRepeat: number[]): string[] {
  const mode = stream ? "streaming" : "non-streaming";
  const range = `pairs ${Math.min(...c.ratios).toFixed(2)}–${Math.max(...c.ratios).toFixed(2)}`;
  const each = perRepeat.length > 1 ? `; each pair of processes ${perRepeat.map((r) => r.toFixed(2)).join(", ")}` : "";
  return [
    `| CPU µs/req, ${mode} | ${median(c.us.old).toFixed(0)} | ${median(c.us.current).toFixed(0)} | ${median(c.ratios).toFixed(2)} (${range}${each}) |`,
    `| req/s, ${mode} | ${median(c.rps.old).toFixed(0)} | ${median(c.rps.current).toFixed(0)} | ${(median(c.rps.current) / median(c.rps.old)).toFixed(2)} |`,
    // At full load: mostly queueing, but a longer event-loop stall (a bigger bill batch) shows here.
    `| p99 latency ms, ${mode} | ${median(c.p99.old).toFixed(0)} | ${median(c.p99.current).toFixed(0)} | ${(median(c.p99.current) / median(c.p99.old)).toFixed(2)} |`,
  ];
}

prepareOldTree();
const upstream = await startProcess(tsScript("mock-upstream.ts", String(basePort)));
const interleave = Number(flag("interleave", "0"));
/** With --interleave: load both sides at the same time in every cell instead of one after the other. */
const together = args.includes("--together");
if (interleave > 0) {
  const all: [ModeCells, ModeCells] = [emptyCells(), emptyCells()];
  const perRepeat: [number[], number[]] = [[], []];
  try {
    for (let r = 0; r < repeats; r++) {
      const one: [ModeCells, ModeCells] = [emptyCells(), emptyCells()];
      await interleaved(interleave, r, one);
      for (const m of [0, 1] as const) {
        perRepeat[m].push(median(one[m].ratios));
        addCells(all[m], one[m]);
      }
    }
  } finally {
    await upstream.stop();
  }
  const lines = [...modeLines(false, all[0], perRepeat[0]), ...modeLines(true, all[1], perRepeat[1])];
  const load1 = fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0];
  console.log(
    [
      `A/B interleaved: ${sha}${sideFlags.old.length ? ` with ${sideFlags.old.join(" ")}` : ""} (old) vs the working tree${sideFlags.current.length ? ` with ${sideFlags.current.join(" ")}` : ""} (current), ${db}, ${connections} connections, ${interleave} pairs of ${flag("seconds", "3")} s cells per mode${repeats > 1 ? ` from each of ${repeats} pairs of fresh processes, pooled` : ""}${together ? " (both sides loaded at once)" : ""}, load average ${load1} at the end.`,
      "",
      "| measure | old (median) | current (median) | current ÷ old (median of pairs) |",
      "| --- | --- | --- | --- |",
      ...lines,
    ].join("\n"),
  );
  process.exit(0);
}
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
