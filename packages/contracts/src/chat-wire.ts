/**
 * Wire shapes of `POST /v1/chat/completions` (docs/api-compat.md §2.1–§2.8) and of the gateway's error envelope (§3),
 * for the web app (the playground builds requests and reads responses and chunks) and for the server code that writes
 * them (apps/server/src/chat). Plain types, no zod: the gateway validates bodies by hand with the exact messages
 * of the API we are compatible with, and builds responses and chunks without parsing them again on the hot path.
 */

export type ChatRole = "system" | "user" | "assistant" | "tool";

export interface ChatTextPart {
  type: "text";
  text: string;
}

/** Images travel inline as base64 data URLs (`data:image/png;base64,…`); links are refused. */
export interface ChatImagePart {
  type: "image_url";
  image_url: { url: string } | string;
}

export type ChatContentPart = ChatTextPart | ChatImagePart;

export interface ChatToolCall {
  id: string;
  type: "function" | "builtin_function";
  /** `arguments` is a JSON string. */
  function: { name: string; arguments: string };
}

export interface ChatRequestMessage {
  role: ChatRole;
  /** A string, or parts (text and, in user messages of vision models, images). */
  content?: string | ChatContentPart[] | null;
  name?: string;
  /** Partial mode: only on the last message, an assistant one, whose content the reply continues. */
  partial?: boolean;
  /** On assistant messages. */
  tool_calls?: ChatToolCall[];
  /** On tool messages: the call this message answers. */
  tool_call_id?: string;
}

/** A JSON schema whose root has type object. */
export interface ChatToolParameters {
  type: "object";
  properties?: Record<string, unknown>;
  required?: string[];
  [keyword: string]: unknown;
}

export interface ChatFunctionTool {
  type: "function";
  /** `name` matches ^[a-zA-Z_][a-zA-Z0-9-_]{2,63}$. */
  function: { name: string; description?: string; parameters?: ChatToolParameters };
}

/** Built-in functions run by the platform; today only `$web_search` (§2.5). */
export interface ChatBuiltinTool {
  type: "builtin_function";
  function: { name: "$web_search" };
}

export type ChatTool = ChatFunctionTool | ChatBuiltinTool;

export type ChatToolChoice = "none" | "auto" | { type: "function"; function: { name: string } };

export interface ChatCompletionRequest {
  model: string;
  messages: ChatRequestMessage[];
  /** Output tokens; defaults to 1024, lowered to what fits the context. */
  max_tokens?: number;
  /** Same as max_tokens (its newer name). */
  max_completion_tokens?: number;
  /** 0 to 1. */
  temperature?: number;
  top_p?: number;
  /** 1 to 5; only 1 when temperature is (close to) 0. */
  n?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  response_format?: { type: "text" | "json_object" };
  /** At most 5 strings of at most 32 bytes each. */
  stop?: string | string[] | null;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  /** At most 128. */
  tools?: ChatTool[];
  tool_choice?: ChatToolChoice | null;
  seed?: number;
}

export type ChatFinishReason = "stop" | "length" | "tool_calls";

/** Cached tokens appear both top-level and in the details; reasoning tokens only for thinking models. */
export interface ChatUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  cached_tokens: number;
  prompt_tokens_details: { cached_tokens: number };
  completion_tokens_details?: { reasoning_tokens: number };
}

export interface ChatCompletionMessage {
  role: "assistant";
  content: string;
  /** Thinking models: the reasoning before the answer. */
  reasoning_content?: string;
  tool_calls?: ChatToolCall[];
}

/** The non-streaming response (§2.7). */
export interface ChatCompletion {
  id: string;
  object: "chat.completion";
  /** Unix seconds. */
  created: number;
  /** The model id the request named (an -auto model stays -auto here). */
  model: string;
  system_fingerprint: string;
  choices: { index: number; message: ChatCompletionMessage; finish_reason: ChatFinishReason }[];
  usage: ChatUsage;
}

export interface ChatToolCallDelta {
  /** Position of the call within its choice's tool_calls. */
  index: number;
  /** id, type and name come with a call's first fragment. */
  id?: string;
  type?: "function" | "builtin_function";
  /** Fragments of the arguments string, to concatenate. */
  function: { name?: string; arguments: string };
}

export interface ChatCompletionChunkDelta {
  /** Only in the first chunk of each choice, with empty content. */
  role?: "assistant";
  content?: string;
  /** Every reasoning fragment comes before any content. */
  reasoning_content?: string;
  tool_calls?: ChatToolCallDelta[];
}

export interface ChatCompletionChunkChoice {
  index: number;
  delta: ChatCompletionChunkDelta;
  finish_reason: ChatFinishReason | null;
  /** The Moonshot quirk: each choice's final chunk carries that choice's usage. */
  usage?: ChatUsage;
}

/**
 * One event of a stream (§2.8), sent as `data: <json>\n\n`; the stream ends with `data: [DONE]`. With
 * `stream_options.include_usage`, every chunk has `usage: null` except one last chunk with no choices and the
 * request's usage. An error after the stream began arrives as a `data:` event holding an `GatewayErrorBody`.
 */
export interface ChatCompletionChunk {
  id: string;
  object: "chat.completion.chunk";
  created: number;
  model: string;
  system_fingerprint: string;
  choices: ChatCompletionChunkChoice[];
  usage?: ChatUsage | null;
}

/** The data of the event that ends a stream. */
export const CHAT_STREAM_DONE = "[DONE]";

/**
 * Error types of docs/api-compat.md §3; SDKs pick their exception class from the status, clients can switch on these.
 */
export type GatewayErrorType =
  | "invalid_request_error"
  | "content_filter"
  | "invalid_authentication_error"
  | "incorrect_api_key_error"
  | "exceeded_current_quota_error"
  | "permission_denied_error"
  | "resource_not_found_error"
  | "engine_overloaded_error"
  | "rate_limit_reached_error"
  | "server_error"
  | "unexpected_output";

/** Every gateway error body, and a stream's error event: `{"error":{"type","message"}}`. */
export interface GatewayErrorBody {
  error: { type: GatewayErrorType; message: string };
}
