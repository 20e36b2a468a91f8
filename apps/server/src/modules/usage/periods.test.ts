import { describe, expect, it } from "vitest";
import { dayPeriod, localDate, monthPeriod, parsePeriod, yearPeriod } from "./periods.ts";

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
