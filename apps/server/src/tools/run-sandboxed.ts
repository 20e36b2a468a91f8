import { Worker } from "node:worker_threads";
import type { AppContext } from "../context.ts";
import {
  createSandboxScheduler,
  SandboxBusy,
  type SandboxBusyScope,
  type SandboxOwner,
  type SandboxScheduler,
} from "./sandbox-scheduler.ts";

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

type WorkerFailure = "timeout" | "memory" | "stack" | "never_settled" | "error" | "crashed";

export type SandboxFailure = WorkerFailure | "output_too_large" | "busy";

export type SandboxResult =
  | { ok: true; output: string; durationMs: number }
  | { ok: false; kind: Exclude<SandboxFailure, "busy">; reason: string; durationMs: number }
  /** Refused before running: a cap of the scheduler was reached (nothing ran). */
  | { ok: false; kind: "busy"; scope: SandboxBusyScope; reason: string; durationMs: 0 };

/** Extra time for the worker to start QuickJS and answer before it is terminated from outside. */
const START_GRACE_MS = 3_000;

const schedulers = new WeakMap<object, SandboxScheduler>();

/** The scheduler of one app (its caps come from the configuration), made on first use. */
export function sandboxSchedulerFor(ctx: Pick<AppContext, "config">): SandboxScheduler {
  let scheduler = schedulers.get(ctx);
  if (!scheduler) {
    scheduler = createSandboxScheduler(ctx.config.toolSandboxes);
    schedulers.set(ctx, scheduler);
  }
  return scheduler;
}

interface WorkerAnswer {
  ok: boolean;
  output?: string;
  kind?: WorkerFailure;
  name?: string;
  message?: string;
}

const BUSY_REASON: Record<SandboxBusyScope, string> = {
  org: "too many tool runs of this organization are running or waiting; try again in a few seconds",
  user: "too many of your tool runs are running or waiting; try again in a few seconds",
  server: "the tool sandboxes are busy; try again in a few seconds",
};

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
    case "never_settled":
      return "the returned promise never settled: nothing was left to run that could settle it, so the call was stopped";
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
  ctx: Pick<AppContext, "config">;
  /** Whose call it is: the scheduler's caps and turns are per organization (and per user when given). */
  owner: SandboxOwner;
  code: string;
  input: string;
  limits?: Partial<SandboxLimits>;
  /** "handler" (custom function tools: call `handler(args)`) or "script" (run the code, collect console lines). */
  mode?: "handler" | "script";
}): Promise<SandboxResult> {
  const limits = { ...DEFAULT_SANDBOX_LIMITS, ...opts.limits };
  try {
    return await sandboxSchedulerFor(opts.ctx).run(opts.owner, () =>
      runInWorker(opts.code, opts.input, opts.mode ?? "handler", limits),
    );
  } catch (e) {
    if (e instanceof SandboxBusy)
      return { ok: false, kind: "busy", scope: e.scope, reason: BUSY_REASON[e.scope], durationMs: 0 };
    throw e;
  }
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
