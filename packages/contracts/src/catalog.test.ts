import { describe, expect, it } from "vitest";
import { findModel, MODELS, perTokenNanos, resolveRoutedModel } from "./catalog.ts";
import { formatMoney, parseMoney } from "./money.ts";
import { tierFor, tierProgress } from "./tiers.ts";

describe("catalog", () => {
  it("turns per-million prices into exact per-token nano-units", () => {
    expect(perTokenNanos("0.15")).toBe(150n);
    expect(perTokenNanos("2")).toBe(2000n);
    expect(perTokenNanos("0.2") * 1_000_000n).toBe(parseMoney("0.2"));
  });

  it("has every routed sibling and price in both currencies", () => {
    for (const m of MODELS) {
      for (const id of m.routesTo ?? []) expect(findModel(id), id).toBeDefined();
      for (const c of ["CNY", "USD"] as const) expect(() => perTokenNanos(m.prices[c].input)).not.toThrow();
    }
  });

  it("routes -auto by prompt plus max_tokens", () => {
    const auto = findModel("moonshot-v1-auto")!;
    expect(resolveRoutedModel(auto, 8192).id).toBe("moonshot-v1-8k");
    expect(resolveRoutedModel(auto, 8193).id).toBe("moonshot-v1-32k");
    expect(resolveRoutedModel(auto, 40000).id).toBe("moonshot-v1-128k");
  });

  it("picks the tier by cumulative cash recharge", () => {
    expect(tierFor({ edition: "cn", cumulativeRecharge: 0n }).name).toBe("Tier0");
    expect(tierFor({ edition: "cn", cumulativeRecharge: parseMoney("50") }).name).toBe("Tier1");
    expect(tierFor({ edition: "global", cumulativeRecharge: parseMoney("99.99") }).name).toBe("Tier2");
    expect(tierFor({ edition: "global", cumulativeRecharge: parseMoney("3000") }).tpd).toBeNull();
  });

  it("treats a voucher's tier as a floor that recharges rise above, and the operator's override as the tier", () => {
    const g = (recharge: string, tierFloor: number | null, tierOverride: number | null = null) =>
      tierProgress({ edition: "global", cumulativeRecharge: parseMoney(recharge), tierFloor, tierOverride });
    expect(g("0", 2)).toMatchObject({
      tier: { tier: 2 },
      source: "voucher",
      next: { tier: 3 },
      toNext: parseMoney("100"),
    });
    expect(g("115", 2)).toMatchObject({
      tier: { tier: 3 },
      source: "recharge",
      next: { tier: 4 },
      toNext: parseMoney("885"),
    });
    expect(g("20", 2)).toMatchObject({ tier: { tier: 2 }, source: "recharge", toNext: parseMoney("80") });
    expect(g("115", 2, 1)).toMatchObject({ tier: { tier: 1 }, source: "operator", next: null, toNext: null });
    expect(g("3000", null)).toMatchObject({ tier: { tier: 5 }, next: null, toNext: null });
  });

  it("formats money with one rounding step", () => {
    expect(formatMoney(parseMoney("1234.5"), "CNY")).toBe("¥1,234.50");
    expect(formatMoney(parseMoney("0.0049"), "USD", 3)).toBe("$0.005");
    expect(formatMoney(-parseMoney("0.005"), "USD", 2)).toBe("-$0.01");
  });
});
