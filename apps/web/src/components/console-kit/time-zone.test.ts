import { describe, expect, it } from "vitest";
import { daysAgoIn, timeZoneName } from "./time-zone.ts";

describe("timeZoneName", () => {
  it("names the zone in the locale instead of showing its id", () => {
    expect(timeZoneName("Asia/Shanghai", "zh-CN")).toBe("中国标准时间");
    expect(timeZoneName("Asia/Shanghai", "en-US")).toBe("China Standard Time");
  });

  it("falls back to the id for an unknown zone", () => {
    expect(timeZoneName("Mars/Olympus", "en-US")).toBe("Mars/Olympus");
  });
});

describe("daysAgoIn", () => {
  // 20:00 UTC on 31 December is already 1 January in Shanghai: the cn edition's bills are on the new day.
  const lateUtc = new Date("2026-12-31T20:00:00Z");

  it("takes today from the edition's zone, not the browser's", () => {
    expect(daysAgoIn("Asia/Shanghai", 0, lateUtc)).toBe("2027-01-01");
    expect(daysAgoIn("UTC", 0, lateUtc)).toBe("2026-12-31");
  });

  it("counts calendar days back across month and year ends", () => {
    expect(daysAgoIn("Asia/Shanghai", 6, lateUtc)).toBe("2026-12-26");
    expect(daysAgoIn("UTC", 31, new Date("2026-03-01T12:00:00Z"))).toBe("2026-01-29");
  });
});
