/**
 * How a request's prompt is counted: every message's framing, text, name, tool calls and images, plus the tool
 * definitions (docs/api-compat.md §2.4: tool definitions count toward prompt tokens). Used for validation, admission
 * (TPM), /v1/tokenizers/estimate-token-count and the simulator's usage, so they all agree.
 *
 * Request paths count with `countPromptTokens`, which yields to the event loop while it works through a long
 * prompt (a short text is counted without an await: four awaits per chat were ~2 µs of every request)
 * and remembers each message's and tool's count; the synchronous functions used later (the simulator's
 * prefix cache) reuse those counts instead of counting again.
 */
import {
  countTokens,
  countTokensAsync,
  countTokensUpTo,
  IMAGE_TOKENS,
  MESSAGE_OVERHEAD,
  REPLY_PRIMING,
  SLICE,
} from "./tokenizer.ts";
import type { ChatMessage, ToolDef } from "./types.ts";

/** Framing of one tool definition or tool call (type, braces, separators). */
const TOOL_OVERHEAD = 8;

/** Complete counts (never cut short by a limit) of messages and tools counted by countPromptTokens. */
const counted = new WeakMap<ChatMessage | ToolDef, number>();

/**
 * Tokens of the messages. Stops counting once `limit` is passed (the caller rejects the request anyway), so an
 * oversized prompt costs no more than one context window of work.
 */
export function countMessageTokens(messages: readonly ChatMessage[], limit = Number.MAX_SAFE_INTEGER): number {
  let total = REPLY_PRIMING;
  for (const m of messages) {
    const known = counted.get(m);
    if (known !== undefined) total += known;
    else {
      total += MESSAGE_OVERHEAD + countTokensUpTo(m.content, limit - total);
      if (m.name) total += countTokens(m.name);
      if (m.toolCalls) {
        for (const c of m.toolCalls) {
          total += TOOL_OVERHEAD + countTokens(c.function.name) + countTokensUpTo(c.function.arguments, limit - total);
        }
      }
      total += m.images.length * IMAGE_TOKENS;
    }
    if (total > limit) return total;
  }
  return total;
}

function toolText(t: ToolDef): string[] {
  return t.type === "function" ? [t.name, t.description, JSON.stringify(t.parameters)] : [t.name];
}

/** Tokens of the tool definitions as the model sees them. */
export function countToolTokens(tools: readonly ToolDef[]): number {
  let total = 0;
  for (const t of tools) {
    const known = counted.get(t);
    if (known !== undefined) total += known;
    else total += TOOL_OVERHEAD + toolText(t).reduce((n, s) => n + countTokens(s), 0);
  }
  return total;
}

/**
 * Messages plus tools, as countMessageTokens + countToolTokens count them, for request paths: long texts are
 * counted in slices with a turn of the event loop between them, and counting stops once `limit` is passed.
 */
export async function countPromptTokens(
  messages: readonly ChatMessage[],
  tools: readonly ToolDef[],
  limit = Number.MAX_SAFE_INTEGER,
): Promise<number> {
  let total = REPLY_PRIMING;
  for (const m of messages) {
    let n = MESSAGE_OVERHEAD + m.images.length * IMAGE_TOKENS;
    const texts = [m.content, m.name ?? ""];
    for (const c of m.toolCalls ?? []) {
      n += TOOL_OVERHEAD;
      texts.push(c.function.name, c.function.arguments);
    }
    for (const text of texts) {
      if (total + n > limit) return total + n;
      n +=
        text.length <= SLICE
          ? countTokensUpTo(text, limit - total - n)
          : await countTokensAsync(text, limit - total - n);
    }
    if (total + n > limit) return total + n;
    counted.set(m, n);
    total += n;
  }
  for (const t of tools) {
    let n = TOOL_OVERHEAD;
    for (const text of toolText(t)) {
      if (total + n > limit) return total + n;
      n +=
        text.length <= SLICE
          ? countTokensUpTo(text, limit - total - n)
          : await countTokensAsync(text, limit - total - n);
    }
    if (total + n > limit) return total + n;
    counted.set(t, n);
    total += n;
  }
  return total;
}
