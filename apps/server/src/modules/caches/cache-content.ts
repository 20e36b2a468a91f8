/**
 * What a context cache holds and how a chat request is matched against it (docs/api-compat.md §7.1): the messages and
 * tools are validated by the chat core's own rules (partial mode excepted), counted by its tokenizer, and
 * identified by a hash of their canonical JSON, so a request that repeats them in another key order still matches.
 */
import { CONTEXT_CACHE_LIMITS } from "@moonport/contracts";
import { sha256Hex } from "@moonport/db";
import { parseChatRequest } from "../../chat/chat-request.ts";
import { gatewayErrors } from "../../chat/errors.ts";
import { countPromptTokens } from "../../chat/prompt-tokens.ts";

/** JSON with object keys sorted at every level: equal content, equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The identity of cached messages + tools (no tools and an empty list are the same: none). */
export function contentHash(messages: readonly unknown[], tools: readonly unknown[] | null | undefined): string {
  return sha256Hex(canonicalJson({ messages, tools: tools?.length ? tools : null }));
}

/**
 * Validates cache content as a chat request's messages would be, and counts its tokens. Refuses partial mode and
 * more than 128k tokens. Returns the raw messages and tools to store (exactly what the client sent).
 */
export async function checkCacheContent(
  messages: unknown,
  tools: unknown,
): Promise<{ messages: unknown[]; tools: unknown[] | null; tokens: number }> {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw gatewayErrors.invalidRequest("messages must be a non-empty array");
  }
  if (messages.some((m) => m && typeof m === "object" && (m as { partial?: unknown }).partial === true)) {
    throw gatewayErrors.invalidRequest("partial mode is not allowed in a context cache");
  }
  if (tools !== undefined && tools !== null && !Array.isArray(tools)) {
    throw gatewayErrors.invalidRequest("tools must be an array");
  }
  // The chat core's rules for roles, names, tool calls and tool messages; the model only sets the limits.
  const chat = parseChatRequest({ model: CONTEXT_CACHE_LIMITS.checkModel, messages, tools: tools ?? undefined });
  const tokens = await countPromptTokens(chat.messages, chat.tools, CONTEXT_CACHE_LIMITS.maxTokensPerCache + 1);
  if (tokens > CONTEXT_CACHE_LIMITS.maxTokensPerCache) {
    throw gatewayErrors.invalidRequest(
      `a context cache holds at most ${CONTEXT_CACHE_LIMITS.maxTokensPerCache} tokens, these messages have more`,
    );
  }
  return { messages, tools: Array.isArray(tools) && tools.length ? tools : null, tokens };
}
