/**
 * How a request's prompt is counted: every message's framing, text, name, tool calls and images, plus the tool
 * definitions (api-compat §2.4: tool definitions count toward prompt tokens). Used for validation, admission
 * (TPM), /v1/tokenizers/estimate-token-count and the simulator's usage, so they all agree.
 */

import { countTokens, countTokensUpTo, IMAGE_TOKENS, MESSAGE_OVERHEAD, REPLY_PRIMING } from "./tokenizer.ts";
import type { ChatMessage, ToolDef } from "./types.ts";

/** Framing of one tool definition or tool call (type, braces, separators). */
const TOOL_OVERHEAD = 8;

/**
 * Tokens of the messages. Stops counting once `limit` is passed (the caller rejects the request anyway), so an
 * oversized prompt costs no more than one context window of work.
 */
export function countMessageTokens(messages: readonly ChatMessage[], limit = Number.MAX_SAFE_INTEGER): number {
  let total = REPLY_PRIMING;
  for (const m of messages) {
    total += MESSAGE_OVERHEAD + countTokensUpTo(m.content, limit - total);
    if (m.name) total += countTokens(m.name);
    if (m.toolCalls) {
      for (const c of m.toolCalls) {
        total += TOOL_OVERHEAD + countTokens(c.function.name) + countTokensUpTo(c.function.arguments, limit - total);
      }
    }
    total += m.images.length * IMAGE_TOKENS;
    if (total > limit) return total;
  }
  return total;
}

/** Tokens of the tool definitions as the model sees them. */
export function countToolTokens(tools: readonly ToolDef[]): number {
  let total = 0;
  for (const t of tools) {
    total += TOOL_OVERHEAD + countTokens(t.name);
    if (t.type === "function") {
      total += countTokens(t.description) + countTokens(JSON.stringify(t.parameters));
    }
  }
  return total;
}

/** Tokens of one message, for the automatic prefix cache. */
export function countOneMessage(m: ChatMessage): number {
  return countMessageTokens([m]) - REPLY_PRIMING;
}
