/** "YYYY-MM-DD" of the day in `zone`, `days` before today (calendar days, so DST changes do not shift it). */
export function daysAgoIn(zone: string, days: number, now: Date = new Date()): string {
  const today = new Intl.DateTimeFormat("en-CA", {
    timeZone: zone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(now);
  const [y, m, d] = today.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d - days)).toISOString().slice(0, 10);
}

/**
 * An IANA zone as people read it in the locale ("China Standard Time", "中国标准时间"), not its id. Falls back to
 * the id when the runtime does not know the zone.
 */
export function timeZoneName(zone: string, locale: string): string {
  try {
    const parts = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: "long" }).formatToParts(new Date());
    return parts.find((p) => p.type === "timeZoneName")?.value ?? zone;
  } catch {
    return zone;
  }
}
