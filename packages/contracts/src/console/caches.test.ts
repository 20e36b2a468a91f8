import { describe, expect, it } from "vitest";
import { estimateCaching } from "./caches.ts";

describe("estimateCaching", () => {
  it("prices the context with and without a cache exactly (CNY, moonshot-v1-32k)", () => {
    // 100k tokens, 50 calls over 60 minutes. Input 5 per M (32k), creation 4 per M, storage 1 per M per minute,
    // call 0.01: without 50 × 100k × 5e-6 = 25; with 0.4 + 0.1 × 60 + 0.5 = 6.9.
    const e = estimateCaching({
      model: "moonshot-v1-32k",
      currency: "CNY",
      contextTokens: 100_000,
      calls: 50,
      minutes: 60,
    });
    expect(e.withoutCache).toBe(25_000_000_000n);
    expect(e.withCache).toBe(6_900_000_000n);
    expect(e.savings).toBe(18_100_000_000n);
    expect(e.tokensPerMinute).toBe(83_333);
  });

  it("says when caching costs more (few calls, long storage) and bills a started minute as whole", () => {
    const e = estimateCaching({
      model: "moonshot-v1-8k",
      currency: "USD",
      contextTokens: 10_000,
      calls: 1,
      minutes: 59.5,
    });
    expect(e.savings).toBeLessThan(0n);
    expect(e.withCache).toBe(10_000n * 1000n + 10_000n * 150n * 60n + 1_500_000n);
  });
});
