/**
 * Adapter for any OpenAI-compatible upstream (vLLM, SGLang, Ollama, llama.cpp, Moonshot, OpenAI, …). One undici
 * keep-alive pool per upstream; the validated request is forwarded with the upstream's model name; streamed
 * chunks are passed on one by one as engine events. Failures before anything reached the client are retried
 * (connection errors and 502/503/504); afterwards they end the stream. Usage comes from the upstream when it
 * reports it, otherwise it is counted with the gateway tokenizer.
 */
import { Pool, errors as undiciErrors } from "undici";
import { countTokens } from "../../chat/tokenizer.ts";
import type { ChatRequest } from "../../chat/types.ts";
import type { UpstreamRoute } from "../../env.ts";
import { type Engine, type EngineContext, EngineError, type EngineEvent, type FinishReason } from "../types.ts";
import { callUpstream } from "./upstream-call.ts";

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
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private upstreamBody(req: ChatRequest): string {
    const body: Record<string, unknown> = { ...req.body };
    body.model = this.route.upstreamModel ?? req.model.id;
    // The admitted budget, so the upstream never produces more than we admitted.
    body.max_tokens = req.maxTokens;
    delete body.max_completion_tokens;
    if (req.stream) body.stream_options = { include_usage: true };
    return JSON.stringify(body);
  }

  /** Sends the request and records the outcome in `health` (a client's own cancellation is not the upstream's fault). */
  private async send(req: ChatRequest, signal: AbortSignal) {
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
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: req.stream ? "text/event-stream" : "application/json",
      ...(this.route.apiKey ? { authorization: `Bearer ${this.route.apiKey}` } : {}),
    };
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

  async *chatBatches(req: ChatRequest, ctx: EngineContext): AsyncIterable<EngineEvent[]> {
    const res = await this.send(req, ctx.signal);
    if (!req.stream) {
      let json: UpstreamBody;
      try {
        json = JSON.parse(await res.text()) as UpstreamBody;
      } catch {
        throw new EngineError("upstream", "The upstream model sent a response that is not JSON");
      }
      if (json.error) throw new EngineError("upstream", json.error.message ?? "upstream error");
      yield [...this.fromCompletion(req, json)];
      return;
    }
    yield* this.fromStream(req, res.chunks, ctx.signal);
  }

  private *fromCompletion(req: ChatRequest, json: UpstreamBody): Iterable<EngineEvent> {
    const choices = json.choices ?? [];
    const counted = choices.map((c) => {
      const m = c.message ?? {};
      let n = countTokens(m.content ?? "") + countTokens(m.reasoning_content ?? "");
      for (const t of m.tool_calls ?? [])
        n += countTokens(t.function?.name ?? "") + countTokens(t.function?.arguments ?? "");
      return n;
    });
    const reported = json.usage?.completion_tokens;
    const perChoice = spread(counted, reported);
    for (const [i, c] of choices.entries()) {
      const m = c.message ?? {};
      yield {
        type: "delta",
        choice: c.index ?? i,
        content: m.content ?? "",
        ...(m.reasoning_content ? { reasoning: m.reasoning_content } : {}),
        ...(m.tool_calls?.length
          ? {
              toolCalls: m.tool_calls.map((t, index) => ({
                index,
                id: t.id ?? `${t.function?.name ?? "call"}:${index}`,
                type: toolType(t.type) ?? "function",
                name: t.function?.name ?? "",
                arguments: t.function?.arguments ?? "",
              })),
            }
          : {}),
      };
      yield {
        type: "finish",
        choice: c.index ?? i,
        finishReason: finishReasonOf(c.finish_reason),
        completionTokens: perChoice[i]!,
      };
    }
    yield {
      type: "usage",
      promptTokens: json.usage?.prompt_tokens ?? req.promptTokens,
      cachedTokens: cachedOf(json.usage),
    };
  }

  private async *fromStream(
    req: ChatRequest,
    body: AsyncIterable<string>,
    signal: AbortSignal,
  ): AsyncIterable<EngineEvent[]> {
    const finish = new Map<number, FinishReason>();
    // Text per choice, counted only if the upstream does not report usage (no per-chunk tokenizing).
    const produced = new Map<number, string>();
    const choiceUsage = new Map<number, UpstreamUsage>();
    let usage: UpstreamUsage | null = null;
    let buffer = "";
    let done = false;
    const count = (i: number, text: string | null | undefined) => {
      if (text) produced.set(i, (produced.get(i) ?? "") + text);
    };
    try {
      // Read to the end even after [DONE]: leaving the loop early aborts the upstream request, which costs the
      // pooled connection its keep-alive.
      for await (const chunk of body) {
        if (signal.aborted) return;
        if (done) continue;
        buffer += chunk;
        // The events of this read leave together (one resumption of the chat core, one socket write).
        const batch: EngineEvent[] = [];
        let start = 0;
        for (let end = buffer.indexOf("\n"); end !== -1; start = end + 1, end = buffer.indexOf("\n", start)) {
          if (!buffer.startsWith("data:", start)) continue;
          const data = buffer.slice(start + 5, end).trim();
          if (data === "[DONE]") {
            done = true;
            break;
          }
          let json: UpstreamBody;
          try {
            json = JSON.parse(data) as UpstreamBody;
          } catch {
            continue;
          }
          if (json.error) {
            // What came before the error in this read still reaches the client (and is billed) first.
            if (batch.length) yield batch;
            throw new EngineError("upstream", json.error.message ?? "upstream error", false);
          }
          if (json.usage) usage = json.usage;
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
              for (const t of d.tool_calls) count(i, (t.function?.name ?? "") + (t.function?.arguments ?? ""));
            }
            count(i, d.content);
            count(i, d.reasoning_content);
            if (ev.content || ev.reasoning || ev.toolCalls) batch.push(ev);
            if (c.finish_reason) finish.set(i, finishReasonOf(c.finish_reason));
            if (c.usage) choiceUsage.set(i, c.usage);
          }
        }
        buffer = done ? "" : buffer.slice(start);
        if (batch.length) yield batch;
      }
    } catch (e) {
      if (e instanceof EngineError || signal.aborted) throw e;
      throw new EngineError("upstream", `The upstream stream broke: ${(e as Error).message}`, false);
    }
    if (signal.aborted) return;
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
      promptTokens: usage?.prompt_tokens ?? first?.prompt_tokens ?? req.promptTokens,
      cachedTokens: cachedOf(usage ?? first),
    });
    yield last;
  }
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

function backoff(attempt: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, 50 * 4 ** attempt);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(t);
        reject(signal.reason);
      },
      { once: true },
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
