/**
 * The chat core's request types: a validated chat completion as the engines, the tokenizer and the run loop see
 * it, after `parseChatRequest` (chat-request.ts) has checked the body; the wire shapes clients send and receive are
 * in @moonport/contracts (chat-wire.ts). Types only, importing nothing else of the server, so the engines build on
 * it without reaching into the chat core's code.
 */
import type { ModelEntry } from "@moonport/contracts";

export type Role = "system" | "user" | "assistant" | "tool";

export interface ToolCall {
  id: string;
  type: "function" | "builtin_function";
  function: { name: string; arguments: string };
}

export interface ImagePart {
  type: "image_url";
  /** e.g. image/png */
  mediaType: string;
  /** The base64 payload (without the `data:` header). */
  base64: string;
}

export interface ChatMessage {
  role: Role;
  /** The text of the message (text parts joined with newlines). */
  content: string;
  images: ImagePart[];
  name?: string;
  toolCalls?: ToolCall[];
  toolCallId?: string;
  partial?: boolean;
}

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  description?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  default?: unknown;
  [k: string]: unknown;
}

export interface ToolDef {
  type: "function" | "builtin_function";
  name: string;
  description: string;
  parameters: JsonSchema;
}

export interface ChatRequest {
  /** The model id the client asked for; echoed back in responses. */
  requestedModel: string;
  model: ModelEntry;
  /** The model that runs and is billed: the routed sibling of an -auto model, otherwise `model`. */
  billedModel: ModelEntry;
  messages: ChatMessage[];
  maxTokens: number;
  /** max_tokens was not sent: the default applies and is lowered to what still fits the context. */
  maxTokensDefaulted: boolean;
  temperature: number;
  topP: number;
  n: number;
  presencePenalty: number;
  frequencyPenalty: number;
  responseFormat: "text" | "json_object" | "json_schema";
  /** The schema of `response_format: json_schema`, validated (chat-request.ts); null otherwise. */
  jsonSchema: { name: string; strict: boolean; schema: JsonSchema } | null;
  stop: string[];
  stream: boolean;
  includeUsage: boolean;
  tools: ToolDef[];
  toolChoice: "none" | "auto" | "required" | { name: string };
  seed: number | undefined;
  /** Partial mode: the last assistant message is the prefix the reply continues (docs/api-compat.md §2.3). */
  partial: { prefix: string; name?: string } | null;
  /** Messages plus tool definitions, as counted by the gateway tokenizer. */
  promptTokens: number;
  /** The body as received, for adapters that forward it. */
  body: Record<string, unknown>;
}
