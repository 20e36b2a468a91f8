/**
 * Rate-limit tiers per edition (docs/api-compat.md §8.3). The tier follows cumulative cash recharge; vouchers do not
 * count. `null` means unlimited.
 */
import type { Edition } from "./edition.ts";
import { parseMoney } from "./money.ts";

export interface Tier {
  tier: number;
  name: string;
  /** Cumulative cash recharge that unlocks this tier, in nano-units of the edition's currency. */
  cumulativeRecharge: bigint;
  concurrency: number;
  rpm: number;
  tpm: number;
  tpd: number | null;
}

const row = (
  tier: number,
  name: string,
  recharge: string,
  concurrency: number,
  rpm: number,
  tpm: number,
  tpd: number | null,
): Tier => ({
  tier,
  name,
  cumulativeRecharge: parseMoney(recharge),
  concurrency,
  rpm,
  tpm,
  tpd,
});

export const TIERS: Record<Edition, Tier[]> = {
  cn: [
    row(0, "Tier0", "0", 1, 3, 500_000, 1_500_000),
    row(1, "Tier1", "50", 50, 200, 2_000_000, null),
    row(2, "Tier2", "100", 100, 500, 3_000_000, null),
    row(3, "Tier3", "500", 200, 5_000, 3_000_000, null),
    row(4, "Tier4", "5000", 400, 5_000, 4_000_000, null),
    row(5, "Tier5", "20000", 1_000, 10_000, 5_000_000, null),
  ],
  global: [
    row(0, "Free", "0", 1, 3, 32_000, 1_500_000),
    row(1, "Tier1", "10", 50, 200, 128_000, 10_000_000),
    row(2, "Tier2", "20", 100, 500, 128_000, 20_000_000),
    row(3, "Tier3", "100", 200, 5_000, 384_000, null),
    row(4, "Tier4", "1000", 400, 5_000, 768_000, null),
    row(5, "Tier5", "3000", 1_000, 10_000, 2_000_000, null),
  ],
};

/** The highest tier whose threshold the cumulative recharge reaches (or the operator's override). */
export function tierFor(edition: Edition, cumulativeRecharge: bigint, override?: number | null): Tier {
  const tiers = TIERS[edition];
  if (override !== undefined && override !== null) {
    return tiers[Math.max(0, Math.min(override, tiers.length - 1))]!;
  }
  let current = tiers[0]!;
  for (const t of tiers) if (cumulativeRecharge >= t.cumulativeRecharge) current = t;
  return current;
}

/** Operator-granted limits above the tier tables; each present field replaces the tier's (tpd null = unlimited). */
export interface RateLimitOverride {
  concurrency?: number;
  rpm?: number;
  tpm?: number;
  tpd?: number | null;
}

/** The limits that apply: the tier's, with the organization's operator override on top. */
export function withLimitOverride(tier: Tier, override: RateLimitOverride | null | undefined): Tier {
  if (!override) return tier;
  return {
    ...tier,
    concurrency: override.concurrency ?? tier.concurrency,
    rpm: override.rpm ?? tier.rpm,
    tpm: override.tpm ?? tier.tpm,
    tpd: override.tpd !== undefined ? override.tpd : tier.tpd,
  };
}
