/**
 * Calendar periods in an edition's time zone. Bounds are local wall-clock strings that SQL turns into instants
 * with `AT TIME ZONE`, so daylight-saving zones work too.
 */
export interface LocalDate {
  year: number;
  month: number;
  day: number;
}

export function localDate(instant: Date, timeZone: string): LocalDate {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" })
    .formatToParts(instant)
    .reduce<Record<string, string>>((acc, p) => {
      acc[p.type] = p.value;
      return acc;
    }, {});
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day) };
}

const pad = (n: number) => String(n).padStart(2, "0");

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export interface Period {
  /** "2026" or "2026-11" */
  label: string;
  /** local wall-clock bounds, [from, to) */
  fromLocal: string;
  toLocal: string;
  /** bucket labels of the series, in order */
  buckets: string[];
  bucket: "day" | "month";
}

export function monthPeriod(year: number, month: number): Period {
  const next = month === 12 ? { y: year + 1, m: 1 } : { y: year, m: month + 1 };
  const n = daysInMonth(year, month);
  return {
    label: `${year}-${pad(month)}`,
    fromLocal: `${year}-${pad(month)}-01 00:00:00`,
    toLocal: `${next.y}-${pad(next.m)}-01 00:00:00`,
    buckets: Array.from({ length: n }, (_, i) => `${year}-${pad(month)}-${pad(i + 1)}`),
    bucket: "day",
  };
}

export function yearPeriod(year: number): Period {
  return {
    label: String(year),
    fromLocal: `${year}-01-01 00:00:00`,
    toLocal: `${year + 1}-01-01 00:00:00`,
    buckets: Array.from({ length: 12 }, (_, i) => `${year}-${pad(i + 1)}`),
    bucket: "month",
  };
}

export function dayPeriod(d: LocalDate): Period {
  const next = new Date(Date.UTC(d.year, d.month - 1, d.day + 1));
  const label = `${d.year}-${pad(d.month)}-${pad(d.day)}`;
  return {
    label,
    fromLocal: `${label} 00:00:00`,
    toLocal: `${next.getUTCFullYear()}-${pad(next.getUTCMonth() + 1)}-${pad(next.getUTCDate())} 00:00:00`,
    buckets: [label],
    bucket: "day",
  };
}

/** "2026-11" / "2026" → period; undefined → the current one in the zone. */
export function parsePeriod(
  granularity: "year" | "month",
  value: string | undefined,
  timeZone: string,
  now = new Date(),
): Period {
  const today = localDate(now, timeZone);
  if (granularity === "year") return yearPeriod(value ? Number(value) : today.year);
  if (value) {
    const [y, m] = value.split("-").map(Number);
    return monthPeriod(y!, m!);
  }
  return monthPeriod(today.year, today.month);
}
