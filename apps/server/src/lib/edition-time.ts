/**
 * Time in an edition's zone (Asia/Shanghai for cn, UTC for global; `EDITION_TIME_ZONE`): the one place that turns
 * instants into local calendar days and months and back. Everything works through the zone's real offsets, so a
 * zone with daylight saving (a deployment may choose one) has 23- and 25-hour days and still gets its midnights and
 * 07:00s right. Used by the gateway (budgets, tokens-per-day windows), the console's usage periods (SQL bounds as
 * local wall-clock strings, turned into instants with `AT TIME ZONE`) and the job schedules.
 */

interface LocalDate {
  year: number;
  month: number;
  day: number;
}

interface LocalDateTime extends LocalDate {
  hour: number;
  minute: number;
  second: number;
}

const pad = (n: number) => String(n).padStart(2, "0");

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string) {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The local wall-clock reading of an instant (epoch ms) in the zone. */
function localDateTime(instant: number, timeZone: string): LocalDateTime {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(instant))) {
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year!,
    month: parts.month!,
    day: parts.day!,
    hour: parts.hour!,
    minute: parts.minute!,
    second: parts.second!,
  };
}

export function localDate(instant: Date, timeZone: string): LocalDate {
  const { year, month, day } = localDateTime(instant.getTime(), timeZone);
  return { year, month, day };
}

/** The zone's offset from UTC at an instant, in ms (Shanghai: +8 h). */
function offsetAt(instant: number, timeZone: string): number {
  const l = localDateTime(instant, timeZone);
  return Date.UTC(l.year, l.month - 1, l.day, l.hour, l.minute, l.second) - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant a local wall-clock time happens in the zone. Out-of-range fields roll over (day 32 is the 1st of the
 * next month). A time skipped by a daylight-saving jump maps to the same distance past the jump (02:30 on a day
 * that jumps from 02:00 to 03:00 → 03:30); a time that happens twice maps to the first.
 */
export function zonedInstant(local: Partial<LocalDateTime> & LocalDate, timeZone: string): number {
  const asUtc = Date.UTC(local.year, local.month - 1, local.day, local.hour ?? 0, local.minute ?? 0, local.second ?? 0);
  // Two passes: the offset at the first guess may differ from the offset at the answer around a transition.
  const first = asUtc - offsetAt(asUtc, timeZone);
  const second = asUtc - offsetAt(first, timeZone);
  if (second === first) return first;
  // Ambiguous or skipped: prefer the earlier reading that still shows the asked wall time, else the later one.
  const candidates = [first, second].sort((a, b) => a - b);
  for (const c of candidates) if (offsetAt(c, timeZone) === asUtc - c) return c;
  return Math.max(first, second);
}

/** Local midnight starting the given local date. */
export function startOfLocalDay(d: LocalDate, timeZone: string): number {
  return zonedInstant({ year: d.year, month: d.month, day: d.day }, timeZone);
}

/** The calendar date after `d`. */
export function nextLocalDate(d: LocalDate): LocalDate {
  const next = new Date(Date.UTC(d.year, d.month - 1, d.day + 1));
  return { year: next.getUTCFullYear(), month: next.getUTCMonth() + 1, day: next.getUTCDate() };
}

interface Periods {
  /** Start of the local day and month containing the instant, and the start of the next local day (epoch ms). */
  day: number;
  month: number;
  nextDay: number;
  /** The local date of the instant and the first of its month, "YYYY-MM-DD" (project_spend_days keys). */
  date: string;
  monthDate: string;
}

function computePeriods(now: number, timeZone: string): Periods {
  const today = localDateTime(now, timeZone);
  const month = `${today.year}-${pad(today.month)}`;
  return {
    day: startOfLocalDay(today, timeZone),
    month: startOfLocalDay({ year: today.year, month: today.month, day: 1 }, timeZone),
    nextDay: startOfLocalDay(nextLocalDate(today), timeZone),
    date: `${month}-${pad(today.day)}`,
    monthDate: `${month}-01`,
  };
}

/** The current periods per time zone: valid until nextDay, so admission formats a date once a day, not per request. */
const current = new Map<string, Periods>();

/** Start of the current local day and month, as UTC instants (ms). The result is shared: do not mutate it. */
export function periodStarts(now: number, timeZone: string): Readonly<Periods> {
  const hit = current.get(timeZone);
  if (hit && now >= hit.day && now < hit.nextDay) return hit;
  const computed = computePeriods(now, timeZone);
  // Only the present day is cached: a lookup for another instant (a replay, a test) must not evict it.
  if (Math.abs(now - Date.now()) < 60_000) current.set(timeZone, computed);
  return computed;
}

/** "07:00" → the next instant strictly after `after` at which the zone's clocks show that time. */
export function nextDailyAt(after: number, timeZone: string, at: string): number {
  const [hour, minute] = parseClock(at);
  const today = localDateTime(after, timeZone);
  const todayAt = zonedInstant({ ...today, hour, minute, second: 0 }, timeZone);
  if (todayAt > after) return todayAt;
  return zonedInstant({ ...nextLocalDate(today), hour, minute, second: 0 }, timeZone);
}

/**
 * When a local day's figures become final: at `at` (07:00 for daily bills) of the following local day. Until then
 * the day is provisional (late bills of a crashed instance's journal may still arrive).
 */
export function dayFinalAt(d: LocalDate, timeZone: string, at = "07:00"): number {
  const [hour, minute] = parseClock(at);
  return zonedInstant({ ...nextLocalDate(d), hour, minute, second: 0 }, timeZone);
}

function parseClock(at: string): [number, number] {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(at);
  if (!m) throw new RangeError(`expected HH:MM, got ${JSON.stringify(at)}`);
  return [Number(m[1]), Number(m[2])];
}

// ─── console periods: local wall-clock bounds for SQL ──────────────────────────────────────────────────────────

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
  const next = nextLocalDate(d);
  const label = `${d.year}-${pad(d.month)}-${pad(d.day)}`;
  return {
    label,
    fromLocal: `${label} 00:00:00`,
    toLocal: `${next.year}-${pad(next.month)}-${pad(next.day)} 00:00:00`,
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
