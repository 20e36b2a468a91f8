/**
 * The one tokenizer of the gateway: request validation, /v1/tokenizers/estimate-token-count, the simulator's
 * usage and the upstream adapter's fallback all count with these functions, so the numbers always agree.
 *
 * gpt-tokenizer ships its encodings inside the package (nothing is downloaded), but on its own it is not safe for
 * user input: its byte-pair merge is quadratic in the length of one pre-tokenized piece, and a piece is a whole
 * run without spaces (160,000 × "a" took 12 s of one core, 5 MB minutes), and its split regex overflows the
 * regex stack on a run of a few million combining marks. So counting first cuts the text itself:
 *
 * - maximal runs of RUN or more non-space, space, or [\r\n/] characters (the only way a split piece or a regex
 *   scan can grow long) are counted in CHUNK-sized parts;
 * - the text between them goes through the encoding's own split regex; pieces longer than MAX_PIECE are counted
 *   in parts too, and the rest goes to gpt-tokenizer in contiguous regions cut at piece boundaries (exactly its
 *   count: the split has no look-behind, so a region starting at a piece boundary splits as the whole text does).
 *
 * Every count is linear in the text, and exact for text without such runs or pieces (prose, code, CJK sentences:
 * a property test compares it with gpt-tokenizer). Work comes in parts of at most about SLICE characters, so
 * `countTokensAsync` can give the event loop a turn between them.
 */
import { decode, encode, countTokens as libCount } from "gpt-tokenizer/encoding/o200k_base";
import { O200K_TOKEN_SPLIT_REGEX } from "gpt-tokenizer/encodingParams/constants";

/** User text may contain "<|endoftext|>" and friends: count them as plain text, never reject or interpret. */
const PLAIN = { disallowedSpecial: new Set<string>() } as const;

/** Fixed cost of one message's framing (role marker, separators), as chat templates spend it. */
export const MESSAGE_OVERHEAD = 4;
/** Tokens that prime the assistant's reply after the last message. */
export const REPLY_PRIMING = 3;
/** Every image part costs a fixed amount, whatever its size (docs/api-compat.md §2.3). */
export const IMAGE_TOKENS = 1024;

/** Runs of one character class at least this long are counted in parts (UTF-16 units). */
export const RUN = 1024;
/** Split pieces longer than this are counted in parts; no word of ordinary text is this long. */
const MAX_PIECE = 256;
/** Part size: a merge over ≤ 64 units (≤ 256 bytes) costs microseconds. */
const CHUNK = 64;
/** Work between two turns of the event loop in countTokensAsync (a few milliseconds). */
export const SLICE = 16_384;

const MEMO_MAX_ENTRIES = 20_000;
const MEMO_MAX_CHARS = 8_192;
const memo = new Map<string, number>();

function exact(text: string): number {
  return libCount(text, PLAIN);
}

/** JavaScript's \s, the class the split regex uses. */
function isSpace(c: number): boolean {
  return c <= 0x20
    ? c === 0x20 || (c >= 0x09 && c <= 0x0d)
    : c >= 0xa0 &&
        (c === 0xa0 ||
          c === 0x1680 ||
          (c >= 0x2000 && c <= 0x200a) ||
          c === 0x2028 ||
          c === 0x2029 ||
          c === 0x202f ||
          c === 0x205f ||
          c === 0x3000 ||
          c === 0xfeff);
}

/** [start, end) of every maximal run of ≥ RUN non-space, space or [\r\n/] characters, merged where they overlap. */
function longRuns(text: string): [number, number][] {
  const runs: [number, number][] = [];
  const add = (start: number, end: number) => {
    if (end - start < RUN) return;
    const last = runs[runs.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else runs.push([start, end]);
  };
  let ns = 0; // start of the current non-space run
  let sp = 0; // start of the current space run
  let nl = 0; // start of the current [\r\n/] run
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      if (ns < i) add(ns, i);
      ns = i + 1;
    } else {
      if (sp < i) add(sp, i);
      sp = i + 1;
    }
    if (c !== 0x0a && c !== 0x0d && c !== 0x2f) {
      if (nl < i) add(nl, i);
      nl = i + 1;
    }
  }
  // Runs end in any order (a [\r\n/] run may end after a non-space run that started later): sort, then merge.
  for (const start of [ns, sp, nl]) add(start, text.length);
  runs.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const r of runs) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push(r);
  }
  return merged;
}

/** Counts text[start, end) in CHUNK-sized parts (never splitting a surrogate pair). */
function* countInParts(text: string, start: number, end: number): Generator<number> {
  let sum = 0;
  let since = 0;
  for (let i = start; i < end; ) {
    let to = Math.min(end, i + CHUNK);
    const last = text.charCodeAt(to - 1);
    if (to < end && last >= 0xd800 && last <= 0xdbff) to--;
    sum += exact(text.slice(i, to));
    since += to - i;
    i = to;
    if (since >= SLICE) {
      yield sum;
      sum = 0;
      since = 0;
    }
  }
  if (sum) yield sum;
}

/** Counts text without long runs: regions of ordinary pieces exactly, long pieces in parts. */
function* countSegment(segment: string): Generator<number> {
  if (segment.length <= MAX_PIECE) {
    yield exact(segment);
    return;
  }
  const split = new RegExp(O200K_TOKEN_SPLIT_REGEX.source, "gu");
  let from = 0;
  for (let m = split.exec(segment); m !== null; m = split.exec(segment)) {
    const start = m.index;
    const end = split.lastIndex;
    if (end - start > MAX_PIECE) {
      if (start > from) yield exact(segment.slice(from, start));
      yield* countInParts(segment, start, end);
      from = end;
    } else if (end - from >= SLICE) {
      yield exact(segment.slice(from, end));
      from = end;
    }
  }
  if (from < segment.length) yield exact(segment.slice(from));
}

/** Token counts of consecutive parts of `text`, each at most about SLICE characters of work; they sum to the count. */
function* countInSlices(text: string): Generator<number> {
  let from = 0;
  for (const [start, end] of longRuns(text)) {
    if (start > from) yield* countSegment(text.slice(from, start));
    yield* countInParts(text, start, end);
    from = end;
  }
  if (from < text.length) yield* countSegment(from === 0 ? text : text.slice(from));
}

function countUncached(text: string, limit: number): number {
  let n = 0;
  for (const part of countInSlices(text)) {
    n += part;
    if (n > limit) return limit + 1;
  }
  return n;
}

/** Token count of a string: exact for ordinary text, linear for any. */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length > MEMO_MAX_CHARS) return countUncached(text, Number.MAX_SAFE_INTEGER);
  const hit = memo.get(text);
  if (hit !== undefined) return hit;
  const n = countUncached(text, Number.MAX_SAFE_INTEGER);
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
 * counting all of it.
 */
export function countTokensUpTo(text: string, limit: number): number {
  if (text.length <= MEMO_MAX_CHARS) return countTokens(text);
  return countUncached(text, limit);
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * countTokensUpTo for request paths: the same count, with a turn of the event loop every SLICE characters, so a
 * 100 MB body delays other requests by milliseconds, not seconds.
 */
export async function countTokensAsync(text: string, limit = Number.MAX_SAFE_INTEGER): Promise<number> {
  if (text.length <= SLICE) return countTokensUpTo(text, limit);
  let n = 0;
  for (const part of countInSlices(text)) {
    n += part;
    if (n > limit) return limit + 1;
    await nextTurn();
  }
  return n;
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
