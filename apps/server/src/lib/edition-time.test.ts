import { describe, expect, it } from "vitest";
import {
  dayFinalAt,
  dayPeriod,
  localDate,
  monthPeriod,
  nextDailyAt,
  parsePeriod,
  periodStarts,
  yearPeriod,
  zonedInstant,
} from "./edition-time.ts";

describe("calendar periods in an edition's time zone", () => {
  it("reads the local date of an instant in Shanghai and in UTC", () => {
    const instant = new Date("2026-11-30T17:30:00Z");
    expect(localDate(instant, "Asia/Shanghai")).toEqual({ year: 2026, month: 12, day: 1 });
    expect(localDate(instant, "UTC")).toEqual({ year: 2026, month: 11, day: 30 });
  });

  it("bounds a month by local midnights and lists every day, February of a leap year included", () => {
    const feb = monthPeriod(2028, 2);
    expect(feb).toMatchObject({ label: "2028-02", fromLocal: "2028-02-01 00:00:00", toLocal: "2028-03-01 00:00:00" });
    expect(feb.buckets).toHaveLength(29);
    expect(monthPeriod(2026, 12).toLocal).toBe("2027-01-01 00:00:00");
  });

  it("bounds a year with twelve monthly buckets and a day with the next local midnight", () => {
    expect(yearPeriod(2026).buckets.at(-1)).toBe("2026-12");
    expect(dayPeriod({ year: 2026, month: 12, day: 31 }).toLocal).toBe("2027-01-01 00:00:00");
  });

  it("defaults to the current month or year in the zone", () => {
    const now = new Date("2026-12-31T20:00:00Z");
    expect(parsePeriod("month", undefined, "Asia/Shanghai", now).label).toBe("2027-01");
    expect(parsePeriod("year", undefined, "UTC", now).label).toBe("2026");
    expect(parsePeriod("month", "2026-03", "UTC", now).buckets).toHaveLength(31);
  });
});

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

  it("know days of 23 and 25 hours in a daylight-saving zone", () => {
    // New York: clocks jump 02:00 → 03:00 on 8 March 2026 and fall back 02:00 → 01:00 on 1 November 2026.
    const spring = periodStarts(Date.parse("2026-03-08T12:00:00Z"), "America/New_York");
    expect(new Date(spring.day).toISOString()).toBe("2026-03-08T05:00:00.000Z");
    expect(new Date(spring.nextDay).toISOString()).toBe("2026-03-09T04:00:00.000Z");
    expect(spring.nextDay - spring.day).toBe(23 * 3_600_000);
    const fall = periodStarts(Date.parse("2026-11-01T12:00:00Z"), "America/New_York");
    expect(fall.nextDay - fall.day).toBe(25 * 3_600_000);
    expect(new Date(fall.month).toISOString()).toBe("2026-11-01T04:00:00.000Z");
  });
});

describe("daily schedules in the edition's zone", () => {
  it("finds the next 07:00 strictly after an instant, today's or tomorrow's", () => {
    // 06:59 and 07:00 in Shanghai (UTC+8) on 2 March.
    expect(new Date(nextDailyAt(Date.parse("2026-03-01T22:59:00Z"), "Asia/Shanghai", "07:00")).toISOString()).toBe(
      "2026-03-01T23:00:00.000Z",
    );
    expect(new Date(nextDailyAt(Date.parse("2026-03-01T23:00:00Z"), "Asia/Shanghai", "07:00")).toISOString()).toBe(
      "2026-03-02T23:00:00.000Z",
    );
    expect(new Date(nextDailyAt(Date.parse("2026-12-31T23:30:00Z"), "UTC", "07:00")).toISOString()).toBe(
      "2027-01-01T07:00:00.000Z",
    );
  });

  it("keeps 07:00 local across a daylight-saving change", () => {
    const before = nextDailyAt(Date.parse("2026-03-07T12:00:00Z"), "America/New_York", "07:00");
    const after = nextDailyAt(before, "America/New_York", "07:00");
    expect(new Date(before).toISOString()).toBe("2026-03-08T11:00:00.000Z"); // 07:00 EDT
    expect(after - before).toBe(24 * 3_600_000);
    expect(new Date(nextDailyAt(before - 86_400_000, "America/New_York", "07:00")).toISOString()).toBe(
      "2026-03-07T12:00:00.000Z", // 07:00 EST
    );
  });

  it("finalizes a day at 07:00 of the next local day (the daily bill rule), also at month and year ends", () => {
    expect(new Date(dayFinalAt({ year: 2026, month: 11, day: 30 }, "Asia/Shanghai")).toISOString()).toBe(
      "2026-11-30T23:00:00.000Z",
    );
    expect(new Date(dayFinalAt({ year: 2026, month: 12, day: 31 }, "UTC")).toISOString()).toBe(
      "2027-01-01T07:00:00.000Z",
    );
    expect(new Date(dayFinalAt({ year: 2026, month: 10, day: 31 }, "America/New_York")).toISOString()).toBe(
      "2026-11-01T12:00:00.000Z", // 07:00 EST, the day the clocks fell back
    );
  });

  it("maps a wall time skipped by a daylight-saving jump past the jump, and refuses a malformed clock", () => {
    expect(
      new Date(zonedInstant({ year: 2026, month: 3, day: 8, hour: 2, minute: 30 }, "America/New_York")).toISOString(),
    ).toBe("2026-03-08T07:30:00.000Z");
    expect(() => nextDailyAt(0, "UTC", "7:00")).toThrow(RangeError);
  });
});
