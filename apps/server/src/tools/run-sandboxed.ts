import { Worker } from "node:worker_threads";
import { concurrencyLimit } from "./concurrency-limit.ts";

/**
 * Runs a custom function tool's code in QuickJS. Each call gets its own worker thread and, inside
 * it, a fresh QuickJS runtime: nothing survives between calls, the user's code sees no host object, and a call
 * that runs away is stopped three ways — QuickJS's interrupt handler at the wall-time limit, its memory and stack
 * limits, and, should the worker itself hang, `terminate()` shortly after the deadline. The server's own event
 * loop never runs the user's code, so it keeps serving whatever the code does.
 */
export interface SandboxLimits {
  /** QuickJS heap limit. */
  memoryBytes: number;
  /** QuickJS stack limit (deep recursion ends here, not in the host). */
  stackBytes: number;
  /** Wall time for the whole call, QuickJS start-up excluded. */
  wallMs: number;
  /** The JSON result is cut off above this many characters. */
  maxOutputChars: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  memoryBytes: 16 * 1024 * 1024,
  stackBytes: 512 * 1024,
  wallMs: 2_000,
  maxOutputChars: 64 * 1024,
};

export type SandboxFailure = "timeout" | "memory" | "stack" | "error" | "output_too_large" | "crashed";

export type SandboxResult =
  | { ok: true; output: string; durationMs: number }
  | { ok: false; kind: SandboxFailure; reason: string; durationMs: number };

/** At most this many sandboxes at once; more calls wait their turn (the machine's cores are shared). */
const MAX_CONCURRENT = 4;
/** Extra time for the worker to start QuickJS and answer before it is terminated from outside. */
const START_GRACE_MS = 3_000;

const limited = concurrencyLimit(MAX_CONCURRENT);

interface WorkerAnswer {
  ok: boolean;
  output?: string;
  kind?: "timeout" | "memory" | "stack" | "error";
  name?: string;
  message?: string;
}

/** The failure in words a developer acts on (English, like the /v1 tool messages it becomes). */
function reasonOf(kind: SandboxFailure, limits: SandboxLimits, answer?: WorkerAnswer): string {
  switch (kind) {
    case "timeout":
      return `the code ran longer than the ${limits.wallMs} ms limit and was stopped`;
    case "memory":
      return `the code used more than the ${Math.round(limits.memoryBytes / 1024 / 1024)} MB memory limit and was stopped`;
    case "stack":
      return "the code exceeded the stack limit (too deep recursion) and was stopped";
    case "output_too_large":
      return `the result is longer than ${limits.maxOutputChars} characters`;
    case "crashed":
      return "the sandbox stopped unexpectedly";
    default:
      return `${answer?.name ?? "Error"}: ${answer?.message ?? "unknown error"}`;
  }
}

/**
 * Calls `handler(args)` defined by `code` with `input` (a JSON text of the arguments) and resolves with the JSON
 * text of its result, or a failure with a clear reason. Never rejects.
 */
export async function runSandboxed(opts: {
  code: string;
  input: string;
  limits?: Partial<SandboxLimits>;
  /** "handler" (custom function tools: call `handler(args)`) or "script" (run the code, collect console lines). */
  mode?: "handler" | "script";
}): Promise<SandboxResult> {
  const limits = { ...DEFAULT_SANDBOX_LIMITS, ...opts.limits };
  return limited(() => runInWorker(opts.code, opts.input, opts.mode ?? "handler", limits));
}

async function runInWorker(
  code: string,
  input: string,
  mode: "handler" | "script",
  limits: SandboxLimits,
): Promise<SandboxResult> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  const answer = await new Promise<WorkerAnswer | "killed" | "crashed">((resolve) => {
    const worker = new Worker(new URL("./sandbox-worker.mjs", import.meta.url), {
      workerData: { code, input, limits, mode },
      // A second fence around QuickJS's own limit: the worker's V8 heap holds only the WASM module and strings.
      resourceLimits: { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const finish = (value: WorkerAnswer | "killed" | "crashed") => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
      void worker.terminate();
    };
    const timer = setTimeout(() => finish("killed"), limits.wallMs + START_GRACE_MS);
    worker.once("message", (m: WorkerAnswer) => finish(m));
    worker.once("error", () => finish("crashed"));
    worker.once("exit", () => finish("crashed"));
  });
  if (answer === "killed")
    return { ok: false, kind: "timeout", reason: reasonOf("timeout", limits), durationMs: took() };
  if (answer === "crashed")
    return { ok: false, kind: "crashed", reason: reasonOf("crashed", limits), durationMs: took() };
  if (!answer.ok) {
    const kind = answer.kind ?? "error";
    return { ok: false, kind, reason: reasonOf(kind, limits, answer), durationMs: took() };
  }
  const output = answer.output ?? "null";
  if (output.length > limits.maxOutputChars) {
    return { ok: false, kind: "output_too_large", reason: reasonOf("output_too_large", limits), durationMs: took() };
  }
  return { ok: true, output, durationMs: took() };
}
