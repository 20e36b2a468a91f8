import fc from "fast-check";
import { countTokens as reference } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { countTokens, countTokensAsync, countTokensUpTo, RUN } from "./tokenizer.ts";

const PLAIN = { disallowedSpecial: new Set<string>() };

/** Ordinary text: words, numbers, CJK, emoji, punctuation, code and whitespace of every kind, in any mix. */
const word = fc.oneof(
  fc.stringMatching(/^[a-zA-Z]{1,12}$/),
  fc.stringMatching(/^[A-Z][a-z]{0,10}('s|'re|'ll)?$/),
  fc.stringMatching(/^[0-9]{1,9}$/),
  fc.string({ unit: fc.constantFrom(..."你好世界中文的是一了人我在有他这为之大来以个"), minLength: 1, maxLength: 20 }),
  fc.constantFrom(
    "😀",
    "👍🏽",
    "🇨🇳",
    "é",
    "ñ",
    "ß",
    "Ωμέγα",
    "Привет",
    "مرحبا",
    "नमस्ते",
    "<|endoftext|>",
    "https://example.com/a/b?q=1",
  ),
  fc.string({ unit: fc.constantFrom(..."!?.,;:()[]{}<>/\\\"'`~@#$%^&*-_=+|"), minLength: 1, maxLength: 6 }),
  fc.string({ unit: fc.constantFrom(" ", "\n", "\t", "\r\n", "\u3000", "\u00a0"), minLength: 1, maxLength: 4 }),
  fc.string({ unit: "grapheme", maxLength: 8 }),
);
const text = fc.array(word, { maxLength: 200 }).map((ws) => ws.join(""));

describe("tokenizer", () => {
  it("counts ordinary text exactly as gpt-tokenizer does", () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(countTokens(t)).toBe(reference(t, PLAIN));
      }),
      { seed: 20261122, numRuns: 3000 },
    );
  });

  it("counts long ordinary text (sliced at piece boundaries) exactly", () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 50, maxLength: 120 }), (parts) => {
        const t = parts.join(" ");
        expect(countTokens(t)).toBe(reference(t, PLAIN));
        expect(countTokensUpTo(t, Number.MAX_SAFE_INTEGER)).toBe(reference(t, PLAIN));
      }),
      { seed: 7, numRuns: 40 },
    );
  });

  it("the async count equals the sync count, and stops past the limit", async () => {
    const t = "Lorem ipsum dolor sit amet, 你好世界。 ".repeat(5000) + "x".repeat(RUN * 40);
    const n = countTokens(t);
    expect(await countTokensAsync(t)).toBe(n);
    expect(await countTokensAsync(t, 1000)).toBe(1001);
    expect(countTokensUpTo(t, 1000)).toBe(1001);
  });

  it("is linear on runs without spaces (ASCII, CJK, emoji, marks, newlines)", () => {
    const runs = {
      ascii: "a".repeat(500_000),
      mixedCase: "aZ".repeat(250_000),
      cjk: "中".repeat(500_000),
      emoji: "😀".repeat(250_000),
      marks: `e${"\u0301".repeat(500_000)}`,
      newlines: `!${"/\n".repeat(250_000)}`,
    };
    for (const [name, run] of Object.entries(runs)) {
      const t0 = performance.now();
      const n = countTokens(run);
      const ms = performance.now() - t0;
      // gpt-tokenizer alone: 80,000 "a" took 3 s, these would take minutes (marks overflow its regex stack).
      expect(ms, name).toBeLessThan(2000);
      expect(n, name).toBeGreaterThan(0);
    }
  });
});
