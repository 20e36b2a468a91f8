import { type Currency, formatMoney } from "@moonport/contracts";

/**
 * Console display of nano-unit amounts: every significant decimal (at least two), so a spend of ¥0.0043 is visible
 * in a balance of ¥99.9957. `formatMoney` in contracts is the one place amounts are rounded.
 */
export function money(nanos: string | bigint, currency: Currency): string {
  return formatMoney(nanos, currency);
}

/** Chart axes need numbers; precision beyond 1e-6 of a unit is invisible on a chart. */
export function chartValue(nanos: string): number {
  return Number(BigInt(nanos) / 1000n) / 1_000_000;
}

/** Integers as the page writes them ("500,000"), also inside messages. */
export function formatInt(n: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(n);
}
