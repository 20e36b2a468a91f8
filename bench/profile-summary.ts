/**
 * Reads a V8 CPU profile (.cpuprofile, from `node --cpu-prof` or the inspector) and splits the sampled CPU time
 * into components of the gateway's hot path, per request: the database (PGlite's WebAssembly and its driver),
 * the HTTP server (Fastify, Node's HTTP parser and sockets), the upstream client (undici), our gateway, chat core
 * and engine code, garbage collection and the rest of Node. Self time is attributed to the innermost frame that
 * belongs to a component, so a Node built-in called from undici counts as undici.
 */
import fs from "node:fs";

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

const COMPONENTS: [string, RegExp][] = [
  [
    "database (PGlite, drivers, drizzle)",
    /@electric-sql\/pglite|^wasm:|drizzle-orm|node_modules\/pg(-|\/)|GenericJSToWasm/,
  ],
  ["gateway (src/gateway)", /apps\/server\/src\/gateway\//],
  ["chat core (src/chat)", /apps\/server\/src\/chat\//],
  ["engine (src/engines)", /apps\/server\/src\/engines\//],
  ["other app code (src)", /apps\/server\/src\//],
  ["upstream client (undici)", /node_modules\/undici\//],
  [
    "HTTP server (fastify)",
    /node_modules\/(fastify|@fastify|find-my-way|avvio|light-my-request|secure-json-parse|fast-json-stringify|pino)/,
  ],
  ["redis client", /node_modules\/(ioredis|@redis|redis)/],
  ["rate limiter", /rate-limiter-flexible/],
  ["tokenizer", /gpt-tokenizer/],
];

function componentOf(url: string, fn: string): string | null {
  const key = url || fn;
  for (const [name, re] of COMPONENTS) if (re.test(key)) return name;
  return null;
}

export interface ProfileSummary {
  totalMs: number;
  busyMs: number;
  components: { name: string; ms: number; share: number }[];
  functions: { name: string; ms: number; share: number }[];
}

export function summarizeProfile(file: string, topFunctions = 25): ProfileSummary {
  const p = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  let total = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const d = p.timeDeltas[i] ?? 0;
    selfUs.set(p.samples[i]!, (selfUs.get(p.samples[i]!) ?? 0) + d);
    total += d;
  }
  const comp = new Map<string, number>();
  const fns = new Map<string, number>();
  let idle = 0;
  for (const [id, us] of selfUs) {
    const n = byId.get(id)!;
    const { functionName, url, lineNumber } = n.callFrame;
    if (functionName === "(idle)") {
      idle += us;
      continue;
    }
    const short = url.replace(/^.*node_modules\//, "").replace(/^.*\/apps\/server\/src\//, "src/");
    const fk = `${functionName || "(anonymous)"} ${short}${short ? `:${lineNumber + 1}` : ""}`;
    fns.set(fk, (fns.get(fk) ?? 0) + us);
    let name: string | null = null;
    if (functionName === "(garbage collector)") name = "garbage collection";
    else {
      // Innermost frame that belongs to a component.
      for (let cur: number | undefined = id; cur !== undefined && !name; cur = parent.get(cur)) {
        const f = byId.get(cur)!.callFrame;
        name = componentOf(f.url, f.functionName);
      }
    }
    name ??= "Node.js (sockets, streams, timers, other)";
    comp.set(name, (comp.get(name) ?? 0) + us);
  }
  const busy = total - idle;
  const sorted = (m: Map<string, number>, n: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => ({ name, ms: us / 1000, share: us / busy }));
  return {
    totalMs: total / 1000,
    busyMs: busy / 1000,
    components: sorted(comp, 20),
    functions: sorted(fns, topFunctions),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const s = summarizeProfile(process.argv[2]!, Number(process.argv[3] ?? 40));
  console.log(`sampled ${s.totalMs.toFixed(0)} ms, busy ${s.busyMs.toFixed(0)} ms`);
  for (const c of s.components) console.log(`${(100 * c.share).toFixed(1).padStart(5)} %  ${c.name}`);
  console.log("");
  for (const f of s.functions) console.log(`${(100 * f.share).toFixed(1).padStart(5)} %  ${f.name}`);
}

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

/**
 * Reads a sampling heap profile (HeapProfiler.stopSampling, collected objects included) and returns the bytes
 * allocated per function, largest first: what fills the young generation, so what makes scavenges frequent.
 */
export function summarizeHeapProfile(file: string, top = 30): { totalBytes: number; functions: [string, number][] } {
  const { head } = JSON.parse(fs.readFileSync(file, "utf8")) as { head: HeapNode };
  const bytes = new Map<string, number>();
  let totalBytes = 0;
  const stack: HeapNode[] = [head];
  for (let n = stack.pop(); n; n = stack.pop()) {
    const { functionName, url, lineNumber } = n.callFrame;
    const short = url.replace(/^.*node_modules\//, "").replace(/^.*\/apps\/server\/src\//, "src/");
    const key = `${functionName || "(anonymous)"} ${short}${short ? `:${lineNumber + 1}` : ""}`;
    bytes.set(key, (bytes.get(key) ?? 0) + n.selfSize);
    totalBytes += n.selfSize;
    stack.push(...n.children);
  }
  return { totalBytes, functions: [...bytes].sort((a, b) => b[1] - a[1]).slice(0, top) };
}
