import { describe, expect, it } from "vitest";
import { timeZoneName } from "./time-zone.ts";

describe("timeZoneName", () => {
  it("names the zone in the locale instead of showing its id", () => {
    expect(timeZoneName("Asia/Shanghai", "zh-CN")).toBe("中国标准时间");
    expect(timeZoneName("Asia/Shanghai", "en-US")).toBe("China Standard Time");
  });

  it("falls back to the id for an unknown zone", () => {
    expect(timeZoneName("Mars/Olympus", "en-US")).toBe("Mars/Olympus");
  });
});
