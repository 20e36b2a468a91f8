/**
 * The SSE writer of a chat run (docs/api-compat.md §2.8): the role chunks, one chunk per engine delta, each choice's
 * final chunk with its usage, the include_usage chunk and `[DONE]`; an engine failure after the headers becomes an
 * SSE error event. The run is settled before the final bytes.
 */
import { once } from "node:events";
import type { ServerResponse } from "node:http";
import type { FastifyReply } from "fastify";
import type { EngineEvent } from "../engines/types.ts";
import { recordAbandoned } from "../observability/index.ts";
import { ChunkWriter, SSE_DONE, sseError, wireUsageJson } from "./chat-response.ts";
import { GatewayError, gatewayErrors } from "./errors.ts";
import type { ChatRun } from "./run-chat.ts";

/**
 * The SSE output of one stream. Text written in the same turn of the event loop (the role chunk with the first
 * batch, a batch with the finish chunk after it) leaves in one `res.write` at the end of the turn (setImmediate,
 * after the turn's I/O callbacks), and the last text goes out with `res.end`: each write of a chunked response
 * costs Node a chunk header, a pass through the stream machinery and buffers for the socket's writev: 0.95 × the
 * CPU per stream of a write per call inside a cork (`npm run bench:ab -- <ref> --interleave 8
 * --together`); releasing the writes at setImmediate rather than writing at once measured 0.85 ×.
 */
class SseOutput {
  private text = "";
  private flushing: NodeJS.Immediate | null = null;

  constructor(
    private readonly res: ServerResponse,
    private readonly signal: AbortSignal,
  ) {}

  /**
   * Queues `text` for the end of the turn. Returns a promise only when the socket has asked the writer to wait
   * (backpressure from an earlier turn's write): no promise per chunk. It settles when the client disconnects too,
   * so a stalled client that goes away cannot hold the run.
   */
  write(text: string): Promise<unknown> | undefined {
    this.text += text;
    this.flushing ??= setImmediate(flushOutput, this);
    const res = this.res;
    if (res.writableNeedDrain && !res.destroyed)
      return once(res, "drain", { signal: this.signal }).catch(() => undefined);
    return undefined;
  }

  flush(): void {
    this.flushing = null;
    const text = this.text;
    if (!text) return;
    this.text = "";
    if (!this.res.writableEnded) this.res.write(text);
  }

  /**
   * The engine has finished: what is queued waits for `end` instead of the end of the turn, so that the last
   * batch, the usage and `[DONE]` leave with the end of the response in one write. It waits only for the
   * settlement's journal write. `strace`: one write(2) per short stream instead of two when streams come one at
   * a time (under the bench's load the journal's write usually came first and the two already met).
   */
  hold(): void {
    if (this.flushing) clearImmediate(this.flushing);
    this.flushing = null;
  }

  /** What is still queued and `text`, then the end of the response, in one write. */
  end(text = ""): void {
    this.hold();
    const all = this.text + text;
    this.text = "";
    if (!this.res.writableEnded) this.res.end(all);
  }
}

function flushOutput(out: SseOutput) {
  out.flush();
}

const SSE_HEAD = [
  "content-type",
  "text/event-stream; charset=utf-8",
  "cache-control",
  "no-cache",
  "connection",
  "keep-alive",
  "x-accel-buffering",
  "no",
];
const SSE_HEAD_NAMES = new Set(SSE_HEAD.filter((_, i) => i % 2 === 0));

/**
 * The stream's head as a flat [name, value, …] list: the reply's headers (rate limits, request id, timing), then the
 * stream's own, which win. Node writes such a list as it is; the object spread it replaced (the reply's headers
 * copied into a new object, then walked by writeHead) cost ~5 µs per stream (`bench:profile --stream`).
 */
function sseHead(reply: FastifyReply): string[] {
  const out = SSE_HEAD.slice();
  const headers = reply.getHeaders();
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || SSE_HEAD_NAMES.has(name)) continue;
    if (Array.isArray(value)) for (const v of value) out.push(name, String(v));
    else out.push(name, String(value));
  }
  return out;
}

/**
 * Streams a run as SSE. The caller has waited for the first batch of engine events (`first`), so a failure before it is an
 * ordinary HTTP error; headers set on `reply` so far go out with the stream's. `onError` hears of failures that
 * are not API errors (they reach the client as a generic server_error event) and of server-side API errors
 * (5xx: an upstream that failed or sent what cannot be read), which reach the client as they are.
 */
export async function streamRun(
  run: ChatRun,
  batches: AsyncIterator<EngineEvent[]>,
  first: IteratorResult<EngineEvent[]>,
  onError: (e: unknown) => void,
  reply: FastifyReply,
  signal: AbortSignal,
): Promise<void> {
  const { chat, meta, tally } = run;
  const res = reply.raw;
  reply.hijack();
  res.writeHead(200, sseHead(reply));
  const writer = new ChunkWriter(meta);
  const out = new SseOutput(res, signal);
  const usageNull = chat.includeUsage;
  let status: "ok" | "client_closed" | "upstream_error" = "ok";
  let roles = "";
  for (let i = 0; i < chat.n; i++) roles += writer.roleChunk(i, usageNull);
  out.write(roles);
  // A choice's last chunk carries its usage, which needs the prompt count: hold finishes until usage arrives.
  const held: { choice: number; reason: "stop" | "length" | "tool_calls" }[] = [];
  const flushFinishes = () => {
    const prompt = tally.promptTokens ?? chat.promptTokens;
    let text = "";
    for (const f of held) {
      text += writer.finish(
        f.choice,
        f.reason,
        wireUsageJson(prompt, tally.completionTokens(f.choice), tally.cachedTokens, tally.reasoningTokens(f.choice)),
        usageNull,
      );
    }
    held.length = 0;
    return text;
  };
  try {
    // One string and at most one write per batch (what one upstream read produced).
    for (let r = first; !r.done; r = await batches.next()) {
      if (signal.aborted) break;
      let text = "";
      for (const ev of r.value) {
        if (ev.type === "delta") text += writer.delta(ev, usageNull);
        else if (ev.type === "finish") held.push({ choice: ev.choice, reason: ev.finishReason });
        else if (held.length) text += flushFinishes();
      }
      if (text) {
        const wait = out.write(text);
        if (wait) await wait;
      }
    }
    if (signal.aborted) status = "client_closed";
    else {
      out.hold();
      let tail = held.length ? flushFinishes() : "";
      if (chat.includeUsage) {
        tail += writer.usageChunk(
          wireUsageJson(
            tally.promptTokens ?? chat.promptTokens,
            tally.totalCompletionTokens(),
            tally.cachedTokens,
            tally.reasoningTokens(),
          ),
        );
      }
      // Journal the bill before the last bytes: a crash between response and bill cannot lose it.
      await run.settle(status);
      out.end(tail + SSE_DONE);
    }
  } catch (e) {
    status = signal.aborted ? "client_closed" : "upstream_error";
    if (!signal.aborted) {
      const g = e instanceof GatewayError ? e : gatewayErrors.serverError();
      // An upstream's failure is an API error for the client and, like the 5xx answers, a line in the log.
      if (!(e instanceof GatewayError) || g.status >= 500) onError(e);
      await run.settle(status);
      out.write(sseError(g.type, g.message) + SSE_DONE);
    }
  } finally {
    // Settles only if nothing above did (settle runs once).
    await run.settle(status);
    out.end();
    if (status === "client_closed") recordAbandoned(reply);
  }
}
