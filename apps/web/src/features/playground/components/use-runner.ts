import type { ChatCompletionRequest, ChatUsage, PlaygroundRunBill } from "@moonport/contracts";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../../lib/api.ts";
import { fetchRunBill } from "../api/get-run-bill.ts";
import { playgroundApi } from "../api/query-keys.ts";
import { runChatStream, type StreamHandlers, type StreamResult } from "../api/run-stream.ts";

/**
 * The bill of a finished run. A stopped run is settled once the server notices the closed connection, a moment
 * after the browser stopped reading, so a missing bill is asked for again a few times.
 */
async function billOf(orgId: string, projectId: string, requestId: string): Promise<PlaygroundRunBill | null> {
  for (let attempt = 0; attempt < 8; attempt++) {
    try {
      return await fetchRunBill(orgId, projectId, requestId);
    } catch (e) {
      if (!(e instanceof ApiError) || e.status !== 404) return null;
      await new Promise((r) => setTimeout(r, 250 * (attempt + 1)));
    }
  }
  return null;
}

export interface RunStatus {
  running: boolean;
  /** Waiting for a free slot of the organization's concurrency limit. */
  waiting?: boolean;
  stopped?: boolean;
  /** Running the model's tool calls between two runs of the tool loop. */
  tools?: boolean;
  /** The tool loop ended at its step limit. */
  stepLimit?: boolean;
  error?: string;
  /** The error's code (`playground_rate_limited`, `playground_insufficient_balance`, …): what it offers to do next. */
  errorCode?: string;
  /** Why the model stopped choice 0: `stop`, `length` (cut off by max_tokens) or `tool_calls`. */
  finishReason?: string;
  usage?: ChatUsage;
  bill?: PlaygroundRunBill;
}

/**
 * Runs of the page, one per panel at a time, each with its own stop. After a run the footer asks the server what
 * it was billed (the same bill row the project's billing shows). `concurrency` is the organization's limit: runs
 * beyond it (compare mode's panels on the lowest tier) wait here for a free slot instead of being refused.
 */
export function useRunner(orgId: string, projectId: string | null, concurrency: number | undefined) {
  const { t } = useTranslation("playground");
  const [status, setStatus] = useState<Record<string, RunStatus>>({});
  const aborts = useRef(new Map<string, AbortController>());
  // Until the limits are known, one run at a time: the lowest tier's limit, never refused.
  const limit = useRef(1);
  limit.current = concurrency ?? 1;
  const slots = useRef({ used: 0, wake: new Set<() => void>() });
  const acquire = useCallback(async (signal: AbortSignal): Promise<boolean> => {
    while (slots.current.used >= limit.current) {
      if (signal.aborted) return false;
      await new Promise<void>((resolve) => {
        slots.current.wake.add(resolve);
        signal.addEventListener("abort", () => resolve(), { once: true });
      });
    }
    if (signal.aborted) return false;
    slots.current.used++;
    return true;
  }, []);
  const release = useCallback(() => {
    slots.current.used--;
    const waiting = [...slots.current.wake];
    slots.current.wake.clear();
    for (const w of waiting) w();
  }, []);
  const patch = useCallback(
    (panelId: string, s: Partial<RunStatus>) =>
      setStatus((prev) => ({ ...prev, [panelId]: { ...(prev[panelId] ?? { running: false }), ...s } })),
    [],
  );

  const stop = useCallback((panelId?: string) => {
    for (const [id, a] of aborts.current) if (!panelId || id === panelId) a.abort();
  }, []);
  useEffect(() => () => stop(), [stop]);

  const run = useCallback(
    async (
      panelId: string,
      request: ChatCompletionRequest,
      handlers: StreamHandlers,
      /** The longest rate-limit wait (Retry-After, seconds) waited out instead of failing. */
      maxWait = 5,
    ): Promise<StreamResult | null> => {
      if (!projectId) return null;
      aborts.current.get(panelId)?.abort();
      const abort = new AbortController();
      aborts.current.set(panelId, abort);
      setStatus((prev) => ({ ...prev, [panelId]: { running: true } }));
      let held = false;
      try {
        if (slots.current.used >= limit.current) patch(panelId, { waiting: true });
        held = await acquire(abort.signal);
        if (!held) {
          patch(panelId, { running: false, waiting: false, stopped: true });
          return { requestId: null, stopped: true, streamError: null };
        }
        patch(panelId, { waiting: false });
        const url = `${playgroundApi(orgId, projectId)}/chat`;
        // The page's own runs stay within the concurrency limit (the slots above); runs elsewhere (another tab, an
        // API key) can still take the organization's slots. A short wait for one is waited out, showing it.
        // The tool loop's follow-up runs wait longer: the user asked for one answer, not for one run per minute.
        const deadline = Date.now() + Math.max(120_000, maxWait * 2000);
        let result: StreamResult | undefined;
        while (!result) {
          try {
            result = await runChatStream(
              url,
              request,
              {
                ...handlers,
                onUsage: (u) => {
                  handlers.onUsage(u);
                  patch(panelId, { usage: u });
                },
              },
              abort.signal,
            );
          } catch (e) {
            const wait = (e as { retryAfter?: number | null }).retryAfter;
            const waitable =
              e instanceof ApiError &&
              e.code === "playground_rate_limited" &&
              !!wait &&
              wait <= maxWait &&
              Date.now() < deadline &&
              !abort.signal.aborted;
            if (!waitable) throw e;
            patch(panelId, { waiting: true });
            await new Promise((r) => setTimeout(r, wait * 1000));
            if (abort.signal.aborted) result = { requestId: null, stopped: true, streamError: null };
          }
        }
        patch(panelId, {
          running: false,
          waiting: false,
          stopped: result.stopped,
          error: result.streamError ? t("errors.stream", { reason: result.streamError }) : undefined,
          finishReason: result.finishReason,
        });
        if (result.requestId)
          void billOf(orgId, projectId, result.requestId).then((bill) => bill && patch(panelId, { bill }));
        return result;
      } catch (e) {
        const known = e instanceof ApiError && e.code !== "network";
        patch(panelId, {
          running: false,
          waiting: false,
          error: known ? e.message : t("errors.network"),
          ...(known ? { errorCode: e.code } : {}),
        });
        return null;
      } finally {
        if (held) release();
        if (aborts.current.get(panelId) === abort) aborts.current.delete(panelId);
      }
    },
    [orgId, projectId, patch, t, acquire, release],
  );

  /**
   * The tool phase of the loop: the panel counts as running (Stop shows, Escape works) while `fn` runs the calls,
   * and stopping aborts `fn`'s signal. Answers whether it ran to the end.
   */
  const hold = useCallback(
    async (panelId: string, fn: (signal: AbortSignal) => Promise<void>): Promise<boolean> => {
      const abort = new AbortController();
      aborts.current.set(panelId, abort);
      patch(panelId, { running: true, tools: true, stopped: false });
      try {
        await fn(abort.signal);
      } finally {
        if (aborts.current.get(panelId) === abort) aborts.current.delete(panelId);
        patch(panelId, { running: false, tools: false, stopped: abort.signal.aborted });
      }
      return !abort.signal.aborted;
    },
    [patch],
  );

  const anyRunning = Object.values(status).some((s) => s.running);
  const reset = useCallback(() => setStatus({}), []);
  return { status, run, hold, patch, stop, anyRunning, reset };
}
