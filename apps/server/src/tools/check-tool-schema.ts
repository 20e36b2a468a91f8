import { Worker } from "node:worker_threads";
import { concurrencyLimit } from "./concurrency-limit.ts";
import { checkSchema } from "./schema-check-core.mjs";

/** How long a schema check may take once Ajv is loaded, before it is stopped. */
export const SCHEMA_CHECK_DEADLINE_MS = 2_000;
/** Loading Ajv in a fresh worker takes a moment, longer on a busy machine; beyond this something is wrong. */
const START_LIMIT_MS = 15_000;

/** Checks at once; more wait their turn, so a burst of saves cannot start a worker each. */
const MAX_CONCURRENT = 2;
const limited = concurrencyLimit(MAX_CONCURRENT);

export type SchemaCheckResult =
  | { ok: true }
  | { ok: false; path: "parameters" | "exampleInput"; reason: string }
  | { ok: false; path: "timeout" };

/**
 * Checks a user's JSON Schema (meta-schema, compile) and, when given, an example against it, with Ajv — in a worker
 * thread when the schema holds a pattern. Validation runs the schema's `pattern`s, and a pattern like `^(a+)+$` against 30 a's and a b backtracks
 * for minutes: in a worker that is terminated at the deadline it costs the server nothing but the worker.
 */
export async function checkToolSchema(
  parameters: Record<string, unknown>,
  exampleInput?: Record<string, unknown>,
  deadlineMs = SCHEMA_CHECK_DEADLINE_MS,
): Promise<SchemaCheckResult> {
  // Only `pattern` and `patternProperties` run the user's regular expressions; without them Ajv's work is bounded
  // by the schema's 2,000 characters, and a worker's start-up would cost more than the check.
  if (!JSON.stringify(parameters).includes('"pattern')) return checkSchema(parameters, exampleInput);
  return limited(() => checkInWorker(parameters, exampleInput, deadlineMs));
}

function checkInWorker(
  parameters: Record<string, unknown>,
  exampleInput: Record<string, unknown> | undefined,
  deadlineMs: number,
): Promise<SchemaCheckResult> {
  return new Promise<SchemaCheckResult>((resolve) => {
    const worker = new Worker(new URL("./schema-check-worker.mjs", import.meta.url), {
      workerData: { parameters, exampleInput },
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
    });
    let settled = false;
    const finish = (value: SchemaCheckResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(value);
      void worker.terminate();
    };
    let timer = setTimeout(() => finish({ ok: false, path: "timeout" }), START_LIMIT_MS);
    worker.on("message", (m: SchemaCheckResult | { ready: true }) => {
      if (!("ready" in m)) return finish(m);
      clearTimeout(timer);
      timer = setTimeout(() => finish({ ok: false, path: "timeout" }), deadlineMs);
    });
    // A schema deep enough to overflow the worker's stack is not a valid one for us either.
    worker.once("error", (e) => finish({ ok: false, path: "parameters", reason: e.message }));
    worker.once("exit", () => finish({ ok: false, path: "parameters", reason: "the schema could not be checked" }));
  });
}
