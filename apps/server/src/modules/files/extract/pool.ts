/**
 * Runs extractions in worker threads: at most `workers` at once, each a fresh thread with a heap cap
 * (resourceLimits) and a deadline (terminate). A fresh thread per file means a hostile file cannot leave state
 * behind for the next one; the few hundred milliseconds of start-up are small next to parsing.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

export type ExtractResult =
  | { ok: true; text: string }
  /** `aborted`: the server is stopping; the file is not at fault and is extracted again later. */
  | { ok: false; reason: string; aborted?: true };

export interface Extractor {
  extract(input: { path: string; filename: string; batch?: boolean }): Promise<ExtractResult>;
  /** Terminates running workers (app shutdown); their files are extracted again after the restart. */
  close(): Promise<void>;
}

const WORKER = fileURLToPath(new URL("./worker-entry.mjs", import.meta.url));

export function createExtractor(opts: {
  workers: number;
  timeoutMs: number;
  memoryMb: number;
  tessDir: string;
}): Extractor {
  let active = 0;
  const waiting: (() => void)[] = [];
  const running = new Set<Worker>();
  let closed = false;

  async function slot(): Promise<() => void> {
    if (active >= opts.workers) await new Promise<void>((r) => waiting.push(r));
    active++;
    return () => {
      active--;
      waiting.shift()?.();
    };
  }

  function runOne(input: { path: string; filename: string; batch?: boolean }): Promise<ExtractResult> {
    return new Promise((resolve) => {
      const worker = new Worker(WORKER, {
        workerData: { ...input, tessDir: opts.tessDir },
        resourceLimits: {
          maxOldGenerationSizeMb: opts.memoryMb,
          maxYoungGenerationSizeMb: Math.min(64, Math.max(8, Math.floor(opts.memoryMb / 8))),
          stackSizeMb: 4,
        },
        stdout: true,
        stderr: true,
      });
      running.add(worker);
      let settled = false;
      const finish = (r: ExtractResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        running.delete(worker);
        void worker.terminate();
        resolve(r);
      };
      const timer = setTimeout(
        () => finish({ ok: false, reason: `extraction took longer than ${Math.round(opts.timeoutMs / 1000)} s` }),
        opts.timeoutMs,
      );
      worker.on("message", (m: ExtractResult) => finish(m));
      worker.on("error", (err: Error & { code?: string }) =>
        finish({
          ok: false,
          reason:
            err.code === "ERR_WORKER_OUT_OF_MEMORY"
              ? `extracting the file needs more than ${opts.memoryMb} MB of memory`
              : `the file cannot be parsed: ${err.message}`,
        }),
      );
      worker.on("exit", (code) =>
        finish(
          closed
            ? { ok: false, reason: "the server stopped during extraction", aborted: true }
            : { ok: false, reason: `the extraction worker stopped (exit code ${code})` },
        ),
      );
    });
  }

  return {
    async extract(input) {
      if (closed) return { ok: false, reason: "the server is stopping", aborted: true };
      const release = await slot();
      try {
        return await runOne({ ...input, path: path.resolve(input.path) });
      } finally {
        release();
      }
    },
    async close() {
      closed = true;
      await Promise.all([...running].map((w) => w.terminate()));
    },
  };
}
