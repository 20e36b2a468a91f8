/**
 * `npm run bench:profile [-- --stream] [--target floor|floor-raw|pglite|postgres] [--seconds 10] [--connections 64] [--heap]`:
 * CPU profile of one server under load, split by component per request. Starts the mock upstream and the target,
 * warms it up, runs V8's sampling profiler inside the target while autocannon sends load, and prints CPU µs per
 * request per component (database, HTTP server, upstream client, gateway, chat core, GC, Node) and the hottest
 * functions. The profile is kept in .tmp/profiles/ (open it in Chrome DevTools or speedscope). CPU time per
 * request does not depend on other load on the machine the way throughput does, so runs compare on a busy box.
 * With `--heap` (Moonport targets) it samples allocations instead and prints the bytes allocated per request by
 * function: what fills the young generation, and so how often scavenges run.
 */
import fs from "node:fs";
import path from "node:path";
import { chatBody, cpuMs, load, startTarget, targetOptions } from "./harness.ts";
import { summarizeHeapProfile, summarizeProfile } from "./profile-summary.ts";

const options = targetOptions(10);
const { stream, target, seconds, connections, targetPort: TARGET_PORT } = options;

async function main() {
  const { upstream, server } = await startTarget(options);
  const keys = (server.info.keys as string[] | undefined) ?? [];
  const url = `http://127.0.0.1:${TARGET_PORT}/v1/chat/completions`;
  const body = chatBody(stream);
  try {
    await load({ url, body, connections: 8, duration: 3, keys });
    const dir = path.resolve(".tmp/profiles");
    fs.mkdirSync(dir, { recursive: true });
    const survivors = process.argv.includes("--survivors");
    if (survivors || process.argv.includes("--heap")) {
      const heapFile = path.join(dir, `${target}-${stream ? "stream" : "json"}-${Date.now()}.heapprofile`);
      await server.command(survivors ? "heap-start survivors" : "heap-start");
      const run = await load({ url, body, connections, duration: seconds, keys });
      await server.command(`heap-stop ${heapFile}`);
      const h = summarizeHeapProfile(heapFile, 30);
      console.log(
        `${target} ${stream ? "streaming" : "non-streaming"}, ${connections} connections, ${seconds} s: ${run.requests} requests; ${(h.totalBytes / run.requests / 1024).toFixed(1)} KB ${survivors ? "reaching the old generation" : "allocated"} per request (sampled)\n`,
      );
      for (const [name, b] of h.functions) console.log(`${(b / run.requests).toFixed(0).padStart(7)} B  ${name}`);
      console.log(`\nprofile: ${path.relative(process.cwd(), heapFile)}`);
      return;
    }
    const file = path.join(dir, `${target}-${stream ? "stream" : "json"}-${Date.now()}.cpuprofile`);
    await server.command("profile-start");
    const cpu0 = cpuMs(server.pid);
    const run = await load({ url, body, connections, duration: seconds, keys });
    const cpu = cpuMs(server.pid) - cpu0;
    await server.command(`profile-stop ${file}`);
    const s = summarizeProfile(file, 30);
    const perReq = (ms: number) => ((ms * 1000) / run.requests).toFixed(1);
    console.log(
      `${target} ${stream ? "streaming" : "non-streaming"}, ${connections} connections, ${seconds} s: ${run.requests} requests (${run.rps.toFixed(0)}/s), ${run.errors} errors`,
    );
    console.log(
      `process CPU ${((cpu * 1000) / run.requests).toFixed(0)} µs/req (all threads); main thread sampled busy ${perReq(s.busyMs)} µs/req (profiler overhead included)`,
    );
    console.log("\n| component | µs/req | share |\n| --- | --- | --- |");
    for (const c of s.components) console.log(`| ${c.name} | ${perReq(c.ms)} | ${(100 * c.share).toFixed(1)} % |`);
    console.log("\nhottest functions (self time):");
    for (const f of s.functions)
      console.log(`${perReq(f.ms).padStart(7)} µs  ${(100 * f.share).toFixed(1).padStart(5)} %  ${f.name}`);
    console.log(`\nprofile: ${path.relative(process.cwd(), file)}`);
  } finally {
    await server.stop();
    await upstream.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
