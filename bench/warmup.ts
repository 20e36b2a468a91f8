/**
 * How long a target takes to warm up: one fresh target (the floor, or the gateway on PGlite or PostgreSQL) loaded
 * in back-to-back cells at the bench's connections, non-streaming then streaming, printing each cell's CPU per
 * request split into the main thread and the other threads (V8's compiler and garbage-collection helpers, libuv's
 * pool). The other threads' share falls as the compiler settles; `npm run bench` warms every target up for as
 * long (BENCH_WARMUP_S) before it measures. With `--idle <s>`, each mode's cells are followed by that many seconds
 * without load and two more cells: what a quiet period costs the traffic after it (V8's memory reducer shrinks an
 * idle heap and ages its code; the serve flags keep both, see docs/decisions/0009-v8-young-generation-flags.md).
 * Usage: npm run bench:warmup -- [--target floor|floor-raw|pglite|postgres] [--cells 10] [--seconds 3] [--connections 64]
 *        [--idle 100]
 */
import { argValue, chatBody, load, mainAndOtherTicks, startTarget, targetOptions } from "./harness.ts";

const options = targetOptions(3);
const cells = Number(argValue("cells") ?? 10);
const idleS = Number(argValue("idle") ?? 0);
const { upstream, server } = await startTarget(options);
const url = `http://127.0.0.1:${options.targetPort}/v1/chat/completions`;
const keys = server.info.keys as string[] | undefined;
const pid = server.pid;

const ticks = () => mainAndOtherTicks(pid);

console.log(`| mode | cell | started (UTC) | req/s | CPU µs/req | main thread | other threads |`);
console.log(`| --- | --- | --- | --- | --- | --- | --- |`);
try {
  for (const stream of [false, true]) {
    const body = chatBody(stream);
    for (let i = 1; i <= cells + (idleS > 0 ? 2 : 0); i++) {
      if (i === cells + 1) await new Promise((r) => setTimeout(r, idleS * 1000));
      const started = new Date().toISOString().slice(11, 19);
      const before = ticks();
      const r = await load({
        url,
        body,
        connections: options.connections,
        duration: options.seconds,
        keys,
        pid,
        settleMs: 1000,
      });
      const after = ticks();
      const perRequest = (t: number) => ((t * 10_000) / Math.max(1, r.requests)).toFixed(0);
      console.log(
        `| ${stream ? "streaming" : "non-streaming"} | ${i > cells ? `${i} (after ${idleS} s idle)` : i} | ${started} | ${r.rps.toFixed(0)} | ${r.cpuPerRequestUs.toFixed(0)} | ${perRequest(after.main - before.main)} | ${perRequest(after.other - before.other)} |`,
      );
    }
  }
} finally {
  await server.stop();
  await upstream.stop();
}
