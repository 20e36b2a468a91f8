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
