/**
 * A streaming nesting-depth check for JSON bodies. JSON.parse builds whatever it is given: a body nested millions
 * deep costs seconds and gigabytes before any validation runs. This transform watches the bytes as they arrive
 * and fails the request at the first byte that opens level `maxDepth + 1`, long before the body is complete.
 * Bytes are scanned, not characters: the structural characters are ASCII and never occur inside a multi-byte
 * UTF-8 sequence.
 */
import { Transform, type TransformCallback } from "node:stream";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

export function limitJsonDepth(maxDepth: number, onTooDeep: () => Error): Transform {
  let depth = 0;
  let inString = false;
  let escaped = false;
  return new Transform({
    transform(chunk: Buffer | string, _enc: BufferEncoding, done: TransformCallback) {
      const buf = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      // Next backslash at or after i (cached: searching again for every string would be quadratic).
      let backslash = -1;
      for (let i = 0; i < buf.length; i++) {
        const b = buf[i]!;
        if (inString) {
          if (escaped) escaped = false;
          else if (b === BACKSLASH) escaped = true;
          else if (b === QUOTE) inString = false;
          else {
            // Skip to the next quote or backslash natively: long strings (base64 images) cost no JS loop.
            if (backslash !== Number.POSITIVE_INFINITY && backslash < i) {
              const at = buf.indexOf(BACKSLASH, i);
              backslash = at === -1 ? Number.POSITIVE_INFINITY : at;
            }
            const quote = buf.indexOf(QUOTE, i);
            const next = Math.min(quote === -1 ? Number.POSITIVE_INFINITY : quote, backslash);
            if (next === Number.POSITIVE_INFINITY) break;
            i = next - 1;
          }
        } else if (b === QUOTE) inString = true;
        else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
          if (++depth > maxDepth) {
            done(onTooDeep());
            return;
          }
        } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) depth--;
      }
      done(null, buf);
    },
  });
}

/**
 * Bodies up to this size (by Content-Length) are checked after they are read, in one pass over the text, instead
 * of by a stream transform while they arrive: the transform, its stream pipeline and the AbortController the
 * pipeline makes (a DOMException on every finish) cost ~100 µs of CPU per request, while reading and scanning a
 * small body is bounded by its size. Larger bodies and bodies without a length keep the early refusal.
 */
export const SCAN_AFTER_READ_LIMIT = 64 * 1024;

/** The same rule as `limitJsonDepth`, over a complete body: true if it opens level `maxDepth + 1`. */
export function exceedsJsonDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // Skip the string: to the next quote not escaped by an odd run of backslashes.
      for (i++; i < n; i++) {
        const s = text.charCodeAt(i);
        if (s === BACKSLASH) i++;
        else if (s === QUOTE) break;
      }
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > maxDepth) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}
