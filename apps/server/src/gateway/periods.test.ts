import { describe, expect, it } from "vitest";
import { periodStarts } from "./periods.ts";

describe("budget periods", () => {
  it("start at local midnight in Asia/Shanghai, which is 16:00 UTC the day before", () => {
    const now = Date.parse("2026-03-01T17:30:00Z"); // 01:30 on 2 March in Shanghai
    const p = periodStarts(now, "Asia/Shanghai");
    expect(new Date(p.day).toISOString()).toBe("2026-03-01T16:00:00.000Z");
    expect(new Date(p.month).toISOString()).toBe("2026-02-28T16:00:00.000Z");
    expect(new Date(p.nextDay).toISOString()).toBe("2026-03-02T16:00:00.000Z");
  });

  it("start at UTC midnight for the global edition", () => {
    const p = periodStarts(Date.parse("2026-03-01T17:30:45.123Z"), "UTC");
    expect(new Date(p.day).toISOString()).toBe("2026-03-01T00:00:00.000Z");
    expect(new Date(p.month).toISOString()).toBe("2026-03-01T00:00:00.000Z");
  });
});
