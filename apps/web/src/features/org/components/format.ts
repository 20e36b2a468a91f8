import { type Currency, formatMoney, NANO_PER_UNIT } from "@moonport/contracts";

/**
 * Display of nano-unit amounts: two decimals from one unit up; below that, enough decimals for two significant
 * digits (API calls cost fractions of a cent), at most nine. The one place console amounts are rounded.
 */
export function money(nanos: string | bigint, currency: Currency): string {
  const n = typeof nanos === "string" ? BigInt(nanos) : nanos;
  const abs = n < 0n ? -n : n;
  if (abs === 0n || abs >= NANO_PER_UNIT) return formatMoney(n, currency, 2);
  const digits = Math.min(9, Math.max(2, 11 - abs.toString().length));
  return formatMoney(n, currency, digits);
}

/** Chart axes need numbers; precision beyond 1e-6 of a unit is invisible on a chart. */
export function chartValue(nanos: string): number {
  return Number(BigInt(nanos) / 1000n) / 1_000_000;
}

export function formatInt(n: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(n);
}
