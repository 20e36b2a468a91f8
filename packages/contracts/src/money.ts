import type { Currency } from "./edition.ts";

/**
 * Money is an integer count of nano-units (1e-9 of a currency unit) held in a bigint, so that prices like
 * 0.15 per million tokens are an exact integer per token. Rounding happens once, for display and invoices.
 */
export const NANO_PER_UNIT = 1_000_000_000n;

/** Parses a decimal string ("12.5", "-0.000000001") into nano-units; rejects more than 9 decimals. */
export function parseMoney(value: string): bigint {
  const m = /^(-)?(\d+)(?:\.(\d{1,9}))?$/.exec(value.trim());
  if (!m) throw new RangeError(`not a decimal amount: ${value}`);
  const [, sign, whole, frac = ""] = m;
  const nanos = BigInt(whole!) * NANO_PER_UNIT + BigInt(frac.padEnd(9, "0"));
  return sign ? -nanos : nanos;
}

/** Exact decimal string of nano-units, trailing zeros trimmed ("12.5", "0", "-0.000000001"). */
export function formatMoneyExact(nanos: bigint): string {
  const neg = nanos < 0n;
  const abs = neg ? -nanos : nanos;
  const whole = abs / NANO_PER_UNIT;
  const frac = (abs % NANO_PER_UNIT).toString().padStart(9, "0").replace(/0+$/, "");
  return `${neg ? "-" : ""}${whole}${frac ? `.${frac}` : ""}`;
}

/** Rounds half away from zero to `digits` decimals; the single place display rounding happens. */
export function roundMoney(nanos: bigint, digits: number): bigint {
  const step = 10n ** BigInt(9 - digits);
  const half = step / 2n;
  const neg = nanos < 0n;
  const abs = neg ? -nanos : nanos;
  const rounded = ((abs + half) / step) * step;
  return neg ? -rounded : rounded;
}

/**
 * Display string. With `digits`, a fixed number of decimals ("¥12.50" / "$0.0050"). Without, every significant
 * decimal is kept (at least two, at most nine), so that any spend changes what is shown: a balance of 100 after
 * spending 0.0043 reads "¥99.9957", never "¥100.00".
 */
export function formatMoney(nanos: bigint | string, currency: Currency, digits?: number): string {
  const n = typeof nanos === "string" ? BigInt(nanos) : nanos;
  const shown = digits ?? visibleDigits(n);
  const r = roundMoney(n, shown);
  const neg = r < 0n;
  const abs = neg ? -r : r;
  const whole = (abs / NANO_PER_UNIT).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const frac = (abs % NANO_PER_UNIT).toString().padStart(9, "0").slice(0, shown);
  const symbol = currency === "CNY" ? "¥" : "$";
  return `${neg ? "-" : ""}${symbol}${whole}${shown > 0 ? `.${frac}` : ""}`;
}

/** Decimals needed to show an amount exactly: two, or up to its last non-zero nano digit. */
function visibleDigits(nanos: bigint): number {
  const frac = ((nanos < 0n ? -nanos : nanos) % NANO_PER_UNIT).toString().padStart(9, "0").replace(/0+$/, "");
  return Math.max(2, frac.length);
}

/** JSON number for APIs that must speak floats (the balance endpoint): exact decimal text parsed once. */
export function moneyToNumber(nanos: bigint): number {
  return Number(formatMoneyExact(nanos));
}
