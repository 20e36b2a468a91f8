/**
 * The one tokenizer of the gateway: request validation, /v1/tokenizers/estimate-token-count, the simulator's
 * usage and the upstream adapter's fallback all count with these functions, so the numbers always agree.
 *
 * gpt-tokenizer ships its encodings inside the package (nothing is downloaded). Counting is the most expensive
 * step of validation, so short strings (system prompts, tool schemas, repeated turns of a conversation) are
 * memoised in a bounded map; long strings are counted with an early exit once they cannot fit any context.
 */
import { decode, encode, isWithinTokenLimit } from "gpt-tokenizer/encoding/o200k_base";

/** User text may contain "<|endoftext|>" and friends: count them as plain text, never reject or interpret. */
const PLAIN = { disallowedSpecial: new Set<string>() } as const;

/** Fixed cost of one message's framing (role marker, separators), as chat templates spend it. */
export const MESSAGE_OVERHEAD = 4;
/** Tokens that prime the assistant's reply after the last message. */
export const REPLY_PRIMING = 3;
/** Every image part costs a fixed amount, whatever its size (api-compat §2.3). */
export const IMAGE_TOKENS = 1024;

const MEMO_MAX_ENTRIES = 20_000;
const MEMO_MAX_CHARS = 8_192;
const memo = new Map<string, number>();

/** Exact token count of a string. */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length > MEMO_MAX_CHARS) return encode(text, PLAIN).length;
  const hit = memo.get(text);
  if (hit !== undefined) return hit;
  const n = encode(text, PLAIN).length;
  if (memo.size >= MEMO_MAX_ENTRIES) {
    // Drop the oldest eighth: cheap, and the hot strings come straight back.
    let drop = MEMO_MAX_ENTRIES >> 3;
    for (const k of memo.keys()) {
      memo.delete(k);
      if (--drop === 0) break;
    }
  }
  memo.set(text, n);
  return n;
}

/**
 * Token count, or `limit + 1` as soon as the text is known to exceed `limit`: a 50 MB prompt is rejected without
 * encoding all of it.
 */
export function countTokensUpTo(text: string, limit: number): number {
  if (text.length <= MEMO_MAX_CHARS) return countTokens(text);
  const within = isWithinTokenLimit(text, limit);
  return within === false ? limit + 1 : within;
}

export function encodeText(text: string): number[] {
  return encode(text, PLAIN);
}

export function decodeTokens(tokens: number[]): string {
  return decode(tokens);
}

/**
 * The first `maxTokens` tokens of `text`, cut on a character boundary (a token that ends inside a multi-byte
 * character is dropped rather than emitted as U+FFFD).
 */
export function truncateToTokens(
  text: string,
  maxTokens: number,
): { text: string; tokens: number; truncated: boolean } {
  const tokens = encode(text, PLAIN);
  if (tokens.length <= maxTokens) return { text, tokens: tokens.length, truncated: false };
  let n = maxTokens;
  let out = decode(tokens.slice(0, n));
  while (n > 0 && out.endsWith("\uFFFD")) {
    n--;
    out = decode(tokens.slice(0, n));
  }
  return { text: out, tokens: n, truncated: true };
}
