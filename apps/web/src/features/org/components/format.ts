import { type Currency, formatMoney, NANO_PER_UNIT } from "@moonport/contracts";

/**
 * Display of nano-unit amounts: two decimals, or four when the amount is below one unit so that small API
 * spends do not show as zero. The one place console amounts are rounded.
 */
export function money(nanos: string | bigint, currency: Currency): string {
  const n = typeof nanos === "string" ? BigInt(nanos) : nanos;
  const abs = n < 0n ? -n : n;
  return formatMoney(n, currency, abs !== 0n && abs < NANO_PER_UNIT ? 4 : 2);
}

/** Chart axes need numbers; precision beyond 1e-6 of a unit is invisible on a chart. */
export function chartValue(nanos: string): number {
  return Number(BigInt(nanos) / 1000n) / 1_000_000;
}

export function formatInt(n: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(n);
}
