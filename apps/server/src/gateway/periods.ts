/**
 * Budget periods (day, month) in the edition's time zone (Asia/Shanghai for cn, UTC for global).
 */
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

export interface Periods {
  day: number;
  month: number;
  nextDay: number;
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

function computePeriods(now: number, timeZone: string): Periods {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(now))) {
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  }
  const localAsUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  const offset = localAsUtc - Math.floor(now / 1000) * 1000;
  const day = Date.UTC(parts.year!, parts.month! - 1, parts.day!) - offset;
  const month = Date.UTC(parts.year!, parts.month! - 1, 1) - offset;
  return { day, month, nextDay: day + 86_400_000 };
}
