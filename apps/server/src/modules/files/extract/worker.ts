/**
 * The extraction worker thread (started by pool.ts, one per file): reads the file at `workerData.path`, posts
 * `{ok, text}` or `{ok: false, reason}` and exits. Its heap is capped by the pool's resourceLimits and its time by
 * the pool's timer; both end the thread, not the server.
 */
import { parentPort, workerData } from "node:worker_threads";
import { ExtractError } from "./extract-error.ts";
import { type ExtractInput, extractText } from "./parsers.ts";

const input = workerData as ExtractInput;

extractText(input).then(
  (text) => parentPort?.postMessage({ ok: true, text }),
  (err: unknown) => {
    const reason =
      err instanceof ExtractError
        ? err.message
        : `the file cannot be parsed: ${err instanceof Error ? err.message : String(err)}`;
    parentPort?.postMessage({ ok: false, reason: reason.slice(0, 500) });
  },
);
