/**
 * What the chat core needs from a model engine: one validated chat request in, a stream of events out. The chat
 * core turns events into a JSON response or SSE chunks and bills the usage event through its caller's meter.
 * Engines never see HTTP, keys or money, and import from the chat core only its types and token counting.
 */
import type { ChatRequest } from "../chat/types.ts";

export type FinishReason = "stop" | "length" | "tool_calls";

export interface ToolCallDelta {
  /** Position of the call within its choice's tool_calls. */
  index: number;
  /** Present on the first fragment of a call. */
  id?: string;
  type?: "function" | "builtin_function";
  name?: string;
  /** A fragment of the JSON arguments string. */
  arguments?: string;
}

export type EngineEvent =
  | {
      type: "delta";
      choice: number;
      content?: string;
      reasoning?: string;
      toolCalls?: ToolCallDelta[];
    }
  | {
      type: "finish";
      choice: number;
      finishReason: FinishReason;
      /** Tokens this choice produced (reasoning included). */
      completionTokens: number;
    }
  | {
      /** Sent once, after every choice has finished. */
      type: "usage";
      promptTokens: number;
      cachedTokens: number;
    };

export interface EngineContext {
  signal: AbortSignal;
  /** Scope of the automatic prefix cache (the organization): prompts never share cache entries across it. */
  cacheScope: string;
}

/** Metadata the engine contributes to responses. */
export interface EngineInfo {
  /** `system_fingerprint` of responses. */
  fingerprint: string;
}

export interface Engine {
  readonly info: EngineInfo;
  chat(request: ChatRequest, ctx: EngineContext): AsyncIterable<EngineEvent>;
  /**
   * The same events in batches: everything one read of an upstream produced (often a whole short stream), so the
   * chat core resumes, tallies and writes once per read instead of once per event. Engines that produce events one
   * at a time (the simulator's paced tokens) leave it out.
   */
  chatBatches?(request: ChatRequest, ctx: EngineContext): AsyncIterable<EngineEvent[]>;
}

/** An engine failure the gateway turns into an API error (upstream HTTP errors, timeouts). */
export class EngineError extends Error {
  constructor(
    readonly kind: "bad_request" | "auth" | "not_found" | "rate_limited" | "overloaded" | "timeout" | "upstream",
    message: string,
    /** True when nothing has been sent to the client yet and another attempt is safe. */
    readonly beforeFirstByte = true,
  ) {
    super(message);
    this.name = "EngineError";
  }
}
