/**
 * Adapter for any OpenAI-compatible upstream (vLLM, SGLang, Ollama, llama.cpp, Moonshot, OpenAI, …). One undici
 * keep-alive pool per upstream; the validated request is forwarded with the upstream's model name; streamed
 * chunks are passed on one by one as engine events. Failures before anything reached the client are retried
 * (connection errors and 502/503/504); afterwards they end the stream. Usage comes from the upstream when it
 * reports it, otherwise it is counted with the gateway tokenizer.
 */
import { createParser, type EventSourceParser } from "eventsource-parser";
import { Pool, errors as undiciErrors } from "undici";
import { countTokens } from "../../chat/tokenizer.ts";
import type { ChatRequest } from "../../chat/types.ts";
import type { UpstreamRoute } from "../../env.ts";
import { listenAbort } from "../../lib/abort-listeners.ts";
import { type Engine, type EngineContext, EngineError, type EngineEvent, type FinishReason } from "../types.ts";
import { simpleAnswer, textDelta } from "./text-delta.ts";
import { callUpstream, type UpstreamCall } from "./upstream-call.ts";

const RETRIES = 2;
const RETRY_STATUSES = new Set([502, 503, 504]);

interface UpstreamUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  cached_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
}

interface UpstreamToolCall {
  index?: number;
  id?: string;
  type?: string;
  function?: { name?: string; arguments?: string };
}

interface UpstreamChoice {
  index?: number;
  message?: { content?: string | null; reasoning_content?: string | null; tool_calls?: UpstreamToolCall[] | null };
  delta?: { content?: string | null; reasoning_content?: string | null; tool_calls?: UpstreamToolCall[] | null };
  finish_reason?: string | null;
  usage?: UpstreamUsage | null;
}

interface UpstreamBody {
  choices?: UpstreamChoice[];
  usage?: UpstreamUsage | null;
  system_fingerprint?: string | null;
  error?: { message?: string; type?: string };
}

function finishReasonOf(v: string | null | undefined): FinishReason {
  return v === "length" || v === "tool_calls" ? v : "stop";
}

function cachedOf(u: UpstreamUsage | null | undefined): number {
  return u?.cached_tokens ?? u?.prompt_tokens_details?.cached_tokens ?? 0;
}

function toolType(t: string | undefined): "function" | "builtin_function" | undefined {
  return t === "builtin_function" ? t : t === "function" ? t : undefined;
}

/** What the back office shows of an upstream: counts since start, the last outcome of each kind, latency. */
export interface UpstreamHealth {
  requests: number;
  errors: number;
  lastOkAt: number | null;
  lastErrorAt: number | null;
  lastError: string | null;
  /** Time to the response headers, exponentially averaged over recent requests (ms). */
  latencyMs: number | null;
}

export class OpenAICompatibleEngine implements Engine {
  readonly info = { fingerprint: "moonport-upstream" };
  private readonly pool: Pool;
  private readonly basePath: string;
  readonly health: UpstreamHealth = {
    requests: 0,
    errors: 0,
    lastOkAt: null,
    lastErrorAt: null,
    lastError: null,
    latencyMs: null,
  };

  constructor(private readonly route: UpstreamRoute) {
    const url = new URL(route.baseUrl);
    this.basePath = url.pathname.replace(/\/+$/, "");
    this.pool = new Pool(url.origin, {
      // Every request in flight holds a connection (a stream for its whole length): requests beyond this wait.
      connections: route.maxConnections,
      keepAliveTimeout: 30_000,
      connect: { timeout: route.connectTimeoutMs },
      headersTimeout: route.responseTimeoutMs,
      bodyTimeout: route.responseTimeoutMs,
    });
    const auth: Record<string, string> = route.apiKey ? { authorization: `Bearer ${route.apiKey}` } : {};
    this.jsonHeaders = { "content-type": "application/json", accept: "application/json", ...auth };
    this.streamHeaders = { "content-type": "application/json", accept: "text/event-stream", ...auth };
  }

  /** The request headers of every call (undici only reads them): built once, not per request. */
  private readonly jsonHeaders: Record<string, string>;
  private readonly streamHeaders: Record<string, string>;

  async close(): Promise<void> {
    await this.pool.close();
  }

  private upstreamBody(req: ChatRequest): string {
    const body: Record<string, unknown> = { ...req.body };
    body.model = this.route.upstreamModel ?? req.model.id;
    // The admitted budget, so the upstream never produces more than we admitted.
    body.max_tokens = req.maxTokens;
    // `delete` and a new nested object made V8 serialise the copy about three times slower (2.7 vs 0.9 µs for a
    // short chat): delete only when the field is there, and append stream_options to the text.
    if (body.max_completion_tokens !== undefined) delete body.max_completion_tokens;
    if (!req.stream) return JSON.stringify(body);
    if (body.stream_options !== undefined) delete body.stream_options;
    const json = JSON.stringify(body);
    return `${json.slice(0, -1)},"stream_options":{"include_usage":true}}`;
  }

  /**
   * Sends the request and records the outcome in `health` (a client's own cancellation is not the upstream's
   * fault); resolves with a response whose status is below 400. UpstreamBatches calls it.
   */
  async send(req: ChatRequest, signal: AbortSignal): Promise<UpstreamCall> {
    const h = this.health;
    const started = performance.now();
    h.requests++;
    try {
      const res = await this.attempt(req, signal);
      const ms = performance.now() - started;
      h.latencyMs = h.latencyMs === null ? ms : h.latencyMs * 0.8 + ms * 0.2;
      h.lastOkAt = Date.now();
      return res;
    } catch (e) {
      if (!signal.aborted) {
        h.errors++;
        h.lastErrorAt = Date.now();
        h.lastError = (e as Error).message.slice(0, 300);
      }
      throw e;
    }
  }

  /** Sends the request, retrying connection failures and gateway statuses: nothing has reached the client yet. */
  private async attempt(req: ChatRequest, signal: AbortSignal) {
    const body = this.upstreamBody(req);
    const headers = req.stream ? this.streamHeaders : this.jsonHeaders;
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await callUpstream(this.pool, {
          path: `${this.basePath}/chat/completions`,
          headers,
          body,
          signal,
        });
        if (res.statusCode < 400) return res;
        const text = await res.text().catch(() => "");
        if (RETRY_STATUSES.has(res.statusCode) && attempt < RETRIES) {
          await backoff(attempt, signal);
          continue;
        }
        throw mapStatus(res.statusCode, text);
      } catch (e) {
        if (e instanceof EngineError || signal.aborted) throw e;
        const timeout = e instanceof undiciErrors.HeadersTimeoutError || e instanceof undiciErrors.BodyTimeoutError;
        if (timeout) throw new EngineError("timeout", "The upstream model did not answer in time");
        if (attempt < RETRIES) {
          await backoff(attempt, signal);
          continue;
        }
        throw new EngineError("upstream", `The upstream model is unreachable: ${(e as Error).message}`);
      }
    }
  }

  async *chat(req: ChatRequest, ctx: EngineContext): AsyncIterable<EngineEvent> {
    for await (const batch of this.chatBatches(req, ctx)) yield* batch;
  }

  /** A plain iterator, not a generator (see UpstreamBatches). */
  chatBatches(req: ChatRequest, ctx: EngineContext): AsyncIterableIterator<EngineEvent[]> {
    return new UpstreamBatches(this, req, ctx.signal);
  }
}

/**
 * The events of one upstream response: one batch for a JSON answer, one batch per read of a stream. Not an async
 * generator: on Node 20 a generator object per request made everything it reaches (the request, the reply, the
 * parsed body) survive young-generation collections and get promoted (`npm run bench:gc` shows it).
 */
class UpstreamBatches implements AsyncIterableIterator<EngineEvent[]> {
  private phase: "start" | "stream" | "done" = "start";
  private body: AsyncIterator<string> | null = null;
  /** An error frame came after other frames of the same read: those went out first, this is thrown next. */
  private pendingError: EngineError | null = null;
  // Streams only (a JSON answer is read by fromCompletion): made when the stream starts, not per request.
  private finish!: Map<number, FinishReason>;
  /** Text per choice, counted only if the upstream does not report usage (no per-chunk tokenizing). */
  private produced!: Map<number, string>;
  private choiceUsage!: Map<number, UpstreamUsage>;
  private usage: UpstreamUsage | null = null;
  /**
   * The stream's events by the SSE rules (docs/api-compat.md §2.8): an event's `data:` lines joined, `id:`,
   * `retry:` and comments ignored, CR/LF/CRLF line ends; made when the stream starts.
   */
  private parser!: EventSourceParser;
  /** The events of the read being parsed. */
  private batch: EngineEvent[] = [];
  /** [DONE] (or an error frame) seen: the rest of the body is read and ignored. */
  private sawDone = false;

  constructor(
    private readonly engine: OpenAICompatibleEngine,
    private readonly req: ChatRequest,
    private readonly signal: AbortSignal,
  ) {}

  [Symbol.asyncIterator]() {
    return this;
  }

  async return(): Promise<IteratorResult<EngineEvent[]>> {
    this.phase = "done";
    await this.body?.return?.();
    return { value: undefined, done: true };
  }

  /**
   * One async function per read: the failure handling is inside it rather than in a wrapper that awaited it (a
   * promise and a resumption more per read).
   */
  async next(): Promise<IteratorResult<EngineEvent[]>> {
    try {
      if (this.phase === "start") {
        const res = await this.engine.send(this.req, this.signal);
        if (!this.req.stream) {
          this.phase = "done";
          const text = await res.text();
          // The common answer without JSON.parse (text-delta.ts); anything else is read in full.
          let json: UpstreamBody | undefined = simpleAnswer(text);
          if (json === undefined) {
            try {
              json = JSON.parse(text) as UpstreamBody;
            } catch {
              throw new EngineError("upstream", "The upstream model sent a response that is not JSON");
            }
          }
          if (json.error) throw new EngineError("upstream", json.error.message ?? "upstream error");
          return { value: fromCompletion(this.req, json), done: false };
        }
        this.body = res.chunks[Symbol.asyncIterator]();
        this.finish = new Map();
        this.produced = new Map();
        this.choiceUsage = new Map();
        this.parser = createParser({ onEvent: (e) => this.event(e.data) });
        this.phase = "stream";
      }
      if (this.phase === "done") return { value: undefined, done: true };
      if (this.pendingError) throw this.pendingError;
      const body = this.body!;
      for (;;) {
        let r: IteratorResult<string>;
        try {
          r = await body.next();
        } catch (e) {
          if (e instanceof EngineError || this.signal.aborted) throw e;
          throw new EngineError("upstream", `The upstream stream broke: ${(e as Error).message}`, false);
        }
        if (this.signal.aborted) {
          this.phase = "done";
          return { value: undefined, done: true };
        }
        if (r.done) {
          this.phase = "done";
          return { value: this.last(), done: false };
        }
        // Read to the end even after [DONE]: leaving early aborts the upstream request, which costs the pooled
        // connection its keep-alive.
        if (this.sawDone && !this.pendingError) continue;
        const batch = this.frames(r.value);
        if (this.pendingError && !batch.length) throw this.pendingError;
        // The events of this read leave together (one resumption of the chat core, one socket write).
        if (batch.length) return { value: batch, done: false };
      }
    } catch (e) {
      this.phase = "done";
      // Nobody reads the rest: abort it, or the paused upstream socket would hold its pool connection.
      void this.body?.return?.();
      throw e;
    }
  }

  /** The events of the complete SSE events in the stream so far, after `chunk`. */
  private frames(chunk: string): EngineEvent[] {
    this.batch = [];
    this.parser.feed(chunk);
    return this.batch;
  }

  private event(data: string): void {
    if (this.sawDone || data === "") return;
    const batch = this.batch;
    if (data === "[DONE]") {
      this.sawDone = true;
      return;
    }
    const text = textDelta(data);
    if (text) {
      // The common frame, read without JSON.parse (text-delta.ts); the same event as the full reading below.
      this.count(text.choice, text.content);
      if (text.content) batch.push({ type: "delta", choice: text.choice, content: text.content });
      return;
    }
    let json: UpstreamBody;
    try {
      json = JSON.parse(data) as UpstreamBody;
    } catch {
      // Skipping it would hand the client a shorter answer (or an empty one) as if nothing had gone wrong.
      this.pendingError = new EngineError(
        "upstream",
        `The upstream model sent an event that could not be read: ${JSON.stringify(data.slice(0, 120))}`,
        false,
      );
      this.sawDone = true;
      return;
    }
    if (json.error) {
      // What came before the error in this read still reaches the client (and is billed) first.
      this.pendingError = new EngineError("upstream", json.error.message ?? "upstream error", false);
      this.sawDone = true;
      return;
    }
    if (json.usage) this.usage = json.usage;
    for (const c of json.choices ?? []) {
      const i = c.index ?? 0;
      const d = c.delta ?? {};
      const ev: Extract<EngineEvent, { type: "delta" }> = { type: "delta", choice: i };
      if (d.content) ev.content = d.content;
      if (d.reasoning_content) ev.reasoning = d.reasoning_content;
      if (d.tool_calls?.length) {
        ev.toolCalls = d.tool_calls.map((t, k) => ({
          index: t.index ?? k,
          ...(t.id ? { id: t.id } : {}),
          ...(toolType(t.type) ? { type: toolType(t.type) } : {}),
          ...(t.function?.name ? { name: t.function.name } : {}),
          arguments: t.function?.arguments ?? "",
        }));
        for (const t of d.tool_calls) this.count(i, (t.function?.name ?? "") + (t.function?.arguments ?? ""));
      }
      this.count(i, d.content);
      this.count(i, d.reasoning_content);
      if (ev.content || ev.reasoning || ev.toolCalls) batch.push(ev);
      if (c.finish_reason) this.finish.set(i, finishReasonOf(c.finish_reason));
      if (c.usage) this.choiceUsage.set(i, c.usage);
    }
  }

  private count(i: number, text: string | null | undefined) {
    if (text) this.produced.set(i, (this.produced.get(i) ?? "") + text);
  }

  /** The finish events (with each choice's completion tokens) and the usage, once the stream has ended. */
  private last(): EngineEvent[] {
    const { finish, produced, choiceUsage, usage } = this;
    const indices = [...new Set([...finish.keys(), ...produced.keys()])].sort((a, b) => a - b);
    if (indices.length === 0) indices.push(0);
    const reported = (i: number) => choiceUsage.get(i)?.completion_tokens;
    const perChoice =
      indices.length === 1 && (reported(indices[0]!) ?? usage?.completion_tokens) !== undefined
        ? [reported(indices[0]!) ?? usage!.completion_tokens!]
        : choiceUsage.size === indices.length
          ? indices.map((i) => reported(i)!)
          : spread(
              indices.map((i) => countTokens(produced.get(i) ?? "")),
              usage?.completion_tokens,
            );
    const last: EngineEvent[] = indices.map((i, k) => ({
      type: "finish",
      choice: i,
      finishReason: finish.get(i) ?? "stop",
      completionTokens: perChoice[k]!,
    }));
    const first = choiceUsage.get(indices[0]!);
    last.push({
      type: "usage",
      promptTokens: usage?.prompt_tokens ?? first?.prompt_tokens ?? this.req.promptTokens,
      cachedTokens: cachedOf(usage ?? first),
    });
    return last;
  }
}

/** The events of a JSON answer: per choice its delta and finish, then the usage. */
export function fromCompletion(req: ChatRequest, json: UpstreamBody): EngineEvent[] {
  const choices = json.choices ?? [];
  const reported = json.usage?.completion_tokens;
  // One choice and a reported total: nothing to split, so nothing to count (the tokenizer is the costly part).
  const perChoice =
    reported !== undefined && choices.length === 1 ? [reported] : spread(countChoices(choices), reported);
  const out: EngineEvent[] = [];
  // A counted loop and conditional fields rather than entries() and object spreads: once per answer, but the
  // spreads made a new object shape per combination.
  for (let i = 0; i < choices.length; i++) {
    const c = choices[i]!;
    const m = c.message ?? {};
    const delta: Extract<EngineEvent, { type: "delta" }> = {
      type: "delta",
      choice: c.index ?? i,
      content: m.content ?? "",
    };
    if (m.reasoning_content) delta.reasoning = m.reasoning_content;
    if (m.tool_calls?.length) {
      delta.toolCalls = m.tool_calls.map((t, index) => ({
        index,
        id: t.id ?? `${t.function?.name ?? "call"}:${index}`,
        type: toolType(t.type) ?? "function",
        name: t.function?.name ?? "",
        arguments: t.function?.arguments ?? "",
      }));
    }
    out.push(delta);
    out.push({
      type: "finish",
      choice: c.index ?? i,
      finishReason: finishReasonOf(c.finish_reason),
      completionTokens: perChoice[i]!,
    });
  }
  out.push({
    type: "usage",
    promptTokens: json.usage?.prompt_tokens ?? req.promptTokens,
    cachedTokens: cachedOf(json.usage),
  });
  return out;
}

/** The completion tokens of each choice of a JSON answer, by the gateway tokenizer. */
function countChoices(choices: UpstreamChoice[]): number[] {
  return choices.map((c) => {
    const m = c.message ?? {};
    let n = countTokens(m.content ?? "") + countTokens(m.reasoning_content ?? "");
    for (const t of m.tool_calls ?? [])
      n += countTokens(t.function?.name ?? "") + countTokens(t.function?.arguments ?? "");
    return n;
  });
}

/** Splits an upstream-reported total over choices in proportion to what we counted; the sum is exact. */
function spread(counted: number[], total: number | undefined): number[] {
  if (total === undefined || counted.length === 0) return counted;
  if (counted.length === 1) return [total];
  const sum = counted.reduce((a, b) => a + b, 0);
  const out = counted.map((c) => (sum === 0 ? 0 : Math.floor((c * total) / sum)));
  out[out.length - 1]! += total - out.reduce((a, b) => a + b, 0);
  return out;
}

/** The wait before a retry; its abort listener goes when the wait ends (the signal may outlive the request). */
function backoff(attempt: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const unlisten = listenAbort(signal, () => {
      clearTimeout(t);
      reject(signal.reason);
    });
    const t = setTimeout(
      () => {
        unlisten();
        resolve();
      },
      50 * 4 ** attempt,
    );
  });
}

function mapStatus(status: number, text: string): EngineError {
  let message = text.slice(0, 500);
  try {
    const j = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
    message = (typeof j.error === "string" ? j.error : j.error?.message) ?? j.message ?? message;
  } catch {
    // plain text body
  }
  if (status === 400 || status === 422) return new EngineError("bad_request", message || `upstream HTTP ${status}`);
  if (status === 401 || status === 403)
    return new EngineError("auth", `The upstream rejected the gateway's credentials (HTTP ${status})`);
  if (status === 404) return new EngineError("not_found", message || "upstream model not found");
  if (status === 429) return new EngineError("rate_limited", message || "upstream rate limited");
  if (status === 504) return new EngineError("timeout", "The upstream model did not answer in time");
  return new EngineError("upstream", `The upstream model failed (HTTP ${status}): ${message}`);
}
