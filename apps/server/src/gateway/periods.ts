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

/** Start of the current local day and month, as UTC instants (ms). */
export function periodStarts(now: number, timeZone: string): { day: number; month: number; nextDay: number } {
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
