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
