import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { exceedsJsonDepth, limitJsonDepth } from "./json-depth.ts";

/** The streaming check's verdict on `text`, fed in pieces of `size` bytes. */
async function streamed(text: string, max: number, size: number): Promise<boolean> {
  const buf = Buffer.from(text);
  const pieces = Array.from({ length: Math.ceil(buf.length / size) || 1 }, (_, i) =>
    buf.subarray(i * size, (i + 1) * size),
  );
  try {
    await pipeline(
      Readable.from(pieces),
      limitJsonDepth(max, () => new Error("deep")),
      async (s) => {
        for await (const _ of s) {
          // drain
        }
      },
    );
    return false;
  } catch {
    return true;
  }
}

describe("exceedsJsonDepth (small bodies, after reading)", () => {
  it("agrees with the streaming check on nesting, strings, escapes and multi-byte text", async () => {
    const piece = fc.constantFrom("[", "]", "{", "}", '"', "\\", "\\\\", '\\"', "a", ",", ":", "字", "😀", " ");
    await fc.assert(
      fc.asyncProperty(
        fc.array(piece, { maxLength: 200 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 17 }),
        async (parts, max, size) => {
          const text = parts.join("");
          expect(exceedsJsonDepth(text, max)).toBe(await streamed(text, max, size));
        },
      ),
      { seed: 18, numRuns: 2000 },
    );
  });

  it("counts the level that crosses the limit, not brackets inside strings", () => {
    expect(exceedsJsonDepth(`${"[".repeat(128)}${"]".repeat(128)}`, 128)).toBe(false);
    expect(exceedsJsonDepth(`${"[".repeat(129)}`, 128)).toBe(true);
    expect(exceedsJsonDepth(`{"a":"${"[".repeat(500)}"}`, 128)).toBe(false);
    expect(exceedsJsonDepth(`{"a":"\\"${"[".repeat(500)}"}`, 128)).toBe(false);
  });
});
