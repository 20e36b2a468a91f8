/**
 * Engine events → the wire shapes of docs/api-compat.md §2.7 (one JSON object) and §2.8 (SSE chunks). Also keeps the
 * running tally of what was produced, so a request cut short is billed for exactly that.
 */
import { randomFillSync } from "node:crypto";
import {
  CHAT_STREAM_DONE,
  type ChatCompletion,
  type ChatCompletionChunkChoice,
  type ChatCompletionChunkDelta,
  type ChatToolCall,
  type ChatUsage,
  type GatewayErrorType,
} from "@moonport/contracts";
import type { EngineEvent, FinishReason, ToolCallDelta } from "../engines/types.ts";
import { countTokens } from "./tokenizer.ts";

/** Random bytes for completion ids, refilled 256 ids at a time (randomBytes per call is slow). */
const idPool = Buffer.alloc(16 * 256);
let idAt = idPool.length;

/**
 * `chatcmpl-` + 32 hex characters (128 random bits). From a pool of our own rather than randomUUID's: the UUID's
 * dashes had to be removed again, 0.36 against 0.10 µs per id.
 */
export function newCompletionId(): string {
  if (idAt === idPool.length) {
    randomFillSync(idPool);
    idAt = 0;
  }
  const hex = idPool.toString("hex", idAt, idAt + 16);
  idAt += 16;
  return `chatcmpl-${hex}`;
}

interface ChoiceState {
  content: string;
  reasoning: string;
  toolCalls: ChatToolCall[];
  finishReason: FinishReason | null;
  completionTokens: number | null;
}

/** Usage as the API reports it: cached tokens top-level and in the details; reasoning tokens for thinking models. */
export function wireUsage(prompt: number, completion: number, cached: number, reasoning = 0): ChatUsage {
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    cached_tokens: cached,
    prompt_tokens_details: { cached_tokens: cached },
    ...(reasoning > 0 ? { completion_tokens_details: { reasoning_tokens: reasoning } } : {}),
  };
}

/**
 * `JSON.stringify(wireUsage(…))` without the objects, for the SSE chunks that carry usage (each stream writes one
 * or two). All integers, so nothing needs escaping; chat-response.test.ts holds it to the same bytes.
 */
export function wireUsageJson(prompt: number, completion: number, cached: number, reasoning = 0): string {
  const details = reasoning > 0 ? `,"completion_tokens_details":{"reasoning_tokens":${reasoning}}` : "";
  return `{"prompt_tokens":${prompt},"completion_tokens":${completion},"total_tokens":${prompt + completion},"cached_tokens":${cached},"prompt_tokens_details":{"cached_tokens":${cached}}${details}}`;
}

/** Accumulates events per choice; the source of the non-streaming body and of the usage that is billed. */
export class ChatTally {
  readonly choices: ChoiceState[];
  promptTokens: number | null = null;
  cachedTokens = 0;

  /**
   * `contextCached`: tokens of an explicit context cache at the start of the prompt. The engine sees an ordinary
   * prompt and reports no cache hit for them, yet the answer header names them as saved, so the body reports
   * them as cached too (docs/api-compat.md §2.7, §7.1).
   */
  constructor(
    n: number,
    private readonly contextCached = 0,
  ) {
    // A loop, not Array.from({ length: n }, …): one tally per request, and Array.from took 0.33 µs against 0.03.
    this.choices = [];
    for (let i = 0; i < n; i++) {
      this.choices.push({ content: "", reasoning: "", toolCalls: [], finishReason: null, completionTokens: null });
    }
  }

  add(ev: EngineEvent): void {
    if (ev.type === "usage") {
      this.promptTokens = ev.promptTokens;
      this.cachedTokens = Math.max(ev.cachedTokens, Math.min(this.contextCached, ev.promptTokens));
      return;
    }
    const c = this.choices[ev.choice];
    if (!c) return;
    if (ev.type === "finish") {
      c.finishReason = ev.finishReason;
      c.completionTokens = ev.completionTokens;
      return;
    }
    if (ev.content) c.content += ev.content;
    if (ev.reasoning) c.reasoning += ev.reasoning;
    if (ev.toolCalls) for (const d of ev.toolCalls) mergeToolCall(c.toolCalls, d);
  }

  /** Completion tokens: as the engine reported them, or counted from what was produced when a choice was cut off. */
  completionTokens(choice: number): number {
    const c = this.choices[choice]!;
    if (c.completionTokens !== null) return c.completionTokens;
    let n = countTokens(c.content) + countTokens(c.reasoning);
    for (const t of c.toolCalls) n += countTokens(t.function.name) + countTokens(t.function.arguments);
    return n;
  }

  /** Reasoning tokens of one choice (or all choices), counted from the reasoning text. */
  reasoningTokens(choice?: number): number {
    const list = choice === undefined ? this.choices : [this.choices[choice]!];
    let n = 0;
    for (const c of list) if (c.reasoning) n += countTokens(c.reasoning);
    return n;
  }

  totalCompletionTokens(): number {
    let n = 0;
    for (let i = 0; i < this.choices.length; i++) n += this.completionTokens(i);
    return n;
  }

  /** `$web_search` calls returned to the client: each one is billed a per-call fee. */
  webSearchCalls(): number {
    let n = 0;
    for (const c of this.choices) for (const t of c.toolCalls) if (t.function.name === "$web_search") n++;
    return n;
  }
}

function mergeToolCall(list: ChatToolCall[], d: ToolCallDelta): void {
  let t = list[d.index];
  if (!t) {
    t = { id: d.id ?? "", type: d.type ?? "function", function: { name: d.name ?? "", arguments: "" } };
    list[d.index] = t;
  }
  if (d.id) t.id = d.id;
  if (d.type) t.type = d.type;
  if (d.name) t.function.name = d.name;
  if (d.arguments) t.function.arguments += d.arguments;
}

export interface ResponseMeta {
  id: string;
  created: number;
  /** The model id the client asked for. */
  model: string;
  fingerprint: string;
}

/** The non-streaming `chat.completion` body. */
export function completionBody(meta: ResponseMeta, tally: ChatTally, promptFallback: number): ChatCompletion {
  const prompt = tally.promptTokens ?? promptFallback;
  return {
    id: meta.id,
    object: "chat.completion",
    created: meta.created,
    model: meta.model,
    system_fingerprint: meta.fingerprint,
    choices: tally.choices.map((c, index) => ({
      index,
      message: {
        role: "assistant",
        content: c.content,
        ...(c.reasoning ? { reasoning_content: c.reasoning } : {}),
        ...(c.toolCalls.length ? { tool_calls: c.toolCalls } : {}),
      },
      finish_reason: c.finishReason ?? "stop",
    })),
    usage: wireUsage(prompt, tally.totalCompletionTokens(), tally.cachedTokens, tally.reasoningTokens()),
  };
}

/**
 * `JSON.stringify(completionBody(…))`, written out when every choice is plain text (no reasoning, no tool
 * calls): the body of almost every non-streaming answer without its nested objects, 0.8 against 2.2 µs per answer
 * in a micro-benchmark. Other answers take the general path. chat-response.test.ts holds the two to the
 * same bytes.
 */
export function completionJson(meta: ResponseMeta, tally: ChatTally, promptFallback: number): string {
  let choices = "";
  for (let i = 0; i < tally.choices.length; i++) {
    const c = tally.choices[i]!;
    if (c.reasoning || c.toolCalls.length) return JSON.stringify(completionBody(meta, tally, promptFallback));
    choices += `${i ? "," : ""}{"index":${i},"message":{"role":"assistant","content":${JSON.stringify(c.content)}},"finish_reason":"${c.finishReason ?? "stop"}"}`;
  }
  const usage = wireUsageJson(tally.promptTokens ?? promptFallback, tally.totalCompletionTokens(), tally.cachedTokens);
  return `{"id":${JSON.stringify(meta.id)},"object":"chat.completion","created":${meta.created},"model":${JSON.stringify(meta.model)},"system_fingerprint":${JSON.stringify(meta.fingerprint)},"choices":[${choices}],"usage":${usage}}`;
}

/** How a written-out chunk closes: with `"usage":null` when the client asked for the usage chunk (include_usage). */
function chunkEnd(usageNull: boolean): string {
  return usageNull ? ',"usage":null}' : "}";
}

/** Serialises one SSE event. The JSON prefix is built once per request to keep per-chunk work small. */
export class ChunkWriter {
  private readonly head: string;
  constructor(meta: ResponseMeta) {
    this.head = `{"id":${JSON.stringify(meta.id)},"object":"chat.completion.chunk","created":${meta.created},"model":${JSON.stringify(meta.model)},"system_fingerprint":${JSON.stringify(meta.fingerprint)},"choices":`;
  }

  private frame(choices: ChatCompletionChunkChoice[], usage: ChatUsage | null | undefined): string {
    const tail = usage === undefined ? "}" : `,"usage":${JSON.stringify(usage)}}`;
    return `data: ${this.head}${JSON.stringify(choices)}${tail}\n\n`;
  }

  /** The first chunk of a choice: role and empty content (docs/api-compat.md §2.8). Written out: one per stream. */
  roleChunk(index: number, usageNull: boolean): string {
    const tail = chunkEnd(usageNull);
    return `data: ${this.head}[{"index":${index},"delta":{"role":"assistant","content":""},"finish_reason":null}]${tail}\n\n`;
  }

  delta(ev: Extract<EngineEvent, { type: "delta" }>, usageNull: boolean): string {
    // Most chunks carry only text: the same bytes as the general case below, without building the objects.
    if (ev.content && !ev.reasoning && ev.toolCalls === undefined && Number.isInteger(ev.choice)) {
      const tail = chunkEnd(usageNull);
      return `data: ${this.head}[{"index":${ev.choice},"delta":{"content":${JSON.stringify(ev.content)}},"finish_reason":null}]${tail}\n\n`;
    }
    const delta: ChatCompletionChunkDelta = {};
    if (ev.reasoning) delta.reasoning_content = ev.reasoning;
    if (ev.content) delta.content = ev.content;
    if (ev.toolCalls) {
      delta.tool_calls = ev.toolCalls.map((d) => ({
        index: d.index,
        ...(d.id ? { id: d.id } : {}),
        ...(d.type ? { type: d.type } : {}),
        function: { ...(d.name ? { name: d.name } : {}), arguments: d.arguments ?? "" },
      }));
    }
    return this.frame([{ index: ev.choice, delta, finish_reason: null }], usageNull ? null : undefined);
  }

  /**
   * The last chunk of a choice carries its usage inside the choice (the Moonshot quirk); `usage` is
   * wireUsageJson's text.
   */
  finish(index: number, reason: FinishReason, usage: string, usageNull: boolean): string {
    const tail = chunkEnd(usageNull);
    return `data: ${this.head}[{"index":${index},"delta":{},"finish_reason":"${reason}","usage":${usage}}]${tail}\n\n`;
  }

  /** With stream_options.include_usage: one more chunk, no choices, top-level usage (wireUsageJson's text). */
  usageChunk(usage: string): string {
    return `data: ${this.head}[],"usage":${usage}}\n\n`;
  }
}

export const SSE_DONE = `data: ${CHAT_STREAM_DONE}\n\n`;

export function sseError(type: GatewayErrorType, message: string): string {
  return `data: ${JSON.stringify({ error: { type, message } })}\n\n`;
}
