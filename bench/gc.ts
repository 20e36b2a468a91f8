/**
 * `npm run bench:gc -- [--target floor|floor-raw|pglite|postgres] [--stream] [--seconds 8] [--connections 64]`: what the
 * garbage collector costs one target under the bench's load, from V8's own per-collection trace
 * (`--trace-gc-nvp`) and the kernel's per-thread CPU counters. Reports per request: young-generation collections'
 * pause on the main thread, bytes promoted to the old generation, how many full (mark-compact) collections ran,
 * and the CPU split between the main thread and every other thread of the process (V8's helper threads do the
 * parallel scavenging and the concurrent marking of full collections).
 *
 * Promoted bytes per request is the figure to compare between commits: unlike CPU time it barely moves with
 * other load on the machine (the floor promotes ~0.1 KB per request).
 */
import fs from "node:fs";
import { chatBody, load, startTarget, targetOptions, threadTicks } from "./harness.ts";

function threadName(pid: number, tid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
  } catch {
    return "(ended)";
  }
}

const options = targetOptions(8);
const { stream, target, seconds, connections, targetPort: TARGET_PORT } = options;

interface GcTotals {
  scavenges: number;
  scavengeMs: number;
  promoted: number;
  fullGcs: number;
  fullGcMs: number;
}

async function main() {
  const { upstream, server } = await startTarget(options, ["--trace-gc-nvp"]);
  const totals: GcTotals = { scavenges: 0, scavengeMs: 0, promoted: 0, fullGcs: 0, fullGcMs: 0 };
  let counting = false;
  let rest = "";
  server.child.stdout!.on("data", (d) => {
    rest += d;
    const lines = rest.split("\n");
    rest = lines.pop()!;
    if (!counting) return;
    for (const line of lines) {
      // One line per collection: "pause=1.2 mutator=… gc=s … promoted=123 …" (s: scavenge, ms/mmc: full).
      const kind = / gc=(\w+)/.exec(line)?.[1];
      if (!kind) continue;
      const field = (k: string) => Number(new RegExp(`(?:^|\\s)${k}=([\\d.]+)`).exec(line)?.[1] ?? 0);
      if (kind === "s") {
        totals.scavenges++;
        totals.scavengeMs += field("pause");
        totals.promoted += field("promoted");
      } else {
        totals.fullGcs++;
        totals.fullGcMs += field("pause");
      }
    }
  });
  const keys = (server.info.keys as string[] | undefined) ?? [];
  const url = `http://127.0.0.1:${TARGET_PORT}/v1/chat/completions`;
  const body = chatBody(stream);
  try {
    await load({ url, body, connections: 8, duration: 3, keys });
    const before = threadTicks(server.pid);
    counting = true;
    const run = await load({ url, body, connections, duration: seconds, keys });
    counting = false;
    const after = threadTicks(server.pid);
    let main = 0;
    let others = 0;
    // Per thread: V8's platform workers (parallel scavenging, concurrent marking, the optimizing compiler),
    // libuv's pool, and whatever else the process runs.
    const byName = new Map<string, number>();
    for (const [tid, ticks] of after) {
      const d = ticks - (before.get(tid) ?? 0);
      if (tid === server.pid) main += d;
      else {
        others += d;
        // Node 20 names every thread "node": the thread id's offset from the process id tells them apart (V8's
        // platform workers start first, libuv's pool when first used).
        const name = `${threadName(server.pid, tid)} +${tid - server.pid}`;
        byName.set(name, (byName.get(name) ?? 0) + d);
      }
    }
    const perReq = (ticks: number) => ((ticks * 10_000) / run.requests).toFixed(0);
    console.log(
      `${target} ${stream ? "streaming" : "non-streaming"}, ${connections} connections, ${seconds} s: ${run.requests} requests (${run.rps.toFixed(0)}/s)`,
    );
    console.log("\n| measure | per request |\n| --- | --- |");
    console.log(`| CPU, main thread | ${perReq(main)} µs |`);
    console.log(`| CPU, other threads (GC helpers, libuv pool) | ${perReq(others)} µs |`);
    for (const [name, ticks] of [...byName].sort((a, b) => b[1] - a[1])) {
      if (ticks > 0) console.log(`| … of which thread ${name} | ${perReq(ticks)} µs |`);
    }
    console.log(
      `| young-generation collections | ${((1000 * totals.scavenges) / run.requests).toFixed(2)} per 1,000 requests |`,
    );
    console.log(`| their pause on the main thread | ${((1000 * totals.scavengeMs) / run.requests).toFixed(1)} µs |`);
    console.log(`| promoted to the old generation | ${(totals.promoted / run.requests).toFixed(0)} bytes |`);
    console.log(
      `| full collections | ${totals.fullGcs} in ${seconds} s, ${((1000 * totals.fullGcMs) / run.requests).toFixed(1)} µs/req of pause |`,
    );
  } finally {
    await server.stop();
    await upstream.stop();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
