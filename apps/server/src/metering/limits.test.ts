/** The in-process counters used without Redis: fixed windows from the first hit, give-backs, expiry. */
import { describe, expect, it } from "vitest";
import { WindowCounters } from "./limits.ts";

describe("WindowCounters", () => {
  it("counts a fixed window from its first hit and starts a new one when it has passed", () => {
    const c = new WindowCounters(60_000);
    expect(c.consume("org", 1, 1_000)).toEqual({ consumedPoints: 1, msBeforeNext: 60_000 });
    expect(c.consume("org", 5, 31_000)).toEqual({ consumedPoints: 6, msBeforeNext: 30_000 });
    expect(c.consume("other", 2, 31_000)).toEqual({ consumedPoints: 2, msBeforeNext: 60_000 });
    // The first window ended at 61,000: the next hit opens a new one.
    expect(c.consume("org", 1, 61_000)).toEqual({ consumedPoints: 1, msBeforeNext: 60_000 });
  });

  it("gives back what a refused request took", () => {
    const c = new WindowCounters(60_000);
    c.consume("org", 10, 0);
    c.giveBack("org", 4);
    expect(c.consume("org", 0, 1).consumedPoints).toBe(6);
    // Nothing to give back to once the window is gone.
    c.giveBack("gone", 3);
    expect(c.consume("gone", 1, 2).consumedPoints).toBe(1);
  });

  it("forgets windows that have passed", () => {
    const c = new WindowCounters(1_000);
    for (let i = 0; i < 100; i++) c.consume(`org${i}`, 1, 0);
    c.consume("late", 1, 5_000);
    expect((c as unknown as { windows: Map<string, unknown> }).windows.size).toBe(1);
  });
});
