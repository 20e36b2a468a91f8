/**
 * Rate-limit tiers per edition (docs/api-compat.md §8.3). The tier follows cumulative cash recharge; vouchers do not
 * count. `null` means unlimited.
 */
import type { Edition } from "./edition.ts";
import { parseMoney } from "./money.ts";

export interface Tier {
  tier: number;
  /** The same in both editions; screens show the tier's translated name (`common:tierName.<tier>`) instead. */
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
    row(0, "Tier0", "0", 1, 3, 32_000, 1_500_000),
    row(1, "Tier1", "10", 50, 200, 128_000, 10_000_000),
    row(2, "Tier2", "20", 100, 500, 128_000, 20_000_000),
    row(3, "Tier3", "100", 200, 5_000, 384_000, null),
    row(4, "Tier4", "1000", 400, 5_000, 768_000, null),
    row(5, "Tier5", "3000", 1_000, 10_000, 2_000_000, null),
  ],
};

/** What decides an organization's tier (its row in the organizations table has these fields). */
export interface TierBasis {
  edition: Edition;
  cumulativeRecharge: bigint;
  /** Set by redeeming a voucher code with a minimum tier: the tier never drops below it, recharges still lift it. */
  tierFloor?: number | null;
  /** The operator's explicit setting: while set it is the tier, whatever the recharge or the floor. */
  tierOverride?: number | null;
}

/** Which input decided the tier: cumulative recharge, a voucher's floor, or the operator's override. */
type TierSource = "recharge" | "voucher" | "operator";

const clampTier = (tiers: Tier[], n: number) => tiers[Math.max(0, Math.min(n, tiers.length - 1))]!;

/** The highest tier whose threshold the cumulative recharge reaches. */
function tierByRecharge(edition: Edition, cumulativeRecharge: bigint): Tier {
  let current = TIERS[edition][0]!;
  for (const t of TIERS[edition]) if (cumulativeRecharge >= t.cumulativeRecharge) current = t;
  return current;
}

/**
 * The tier that applies and where it comes from: the operator's override when set; otherwise the higher of the
 * tier earned by recharge and the voucher floor (a floor, never a ceiling: later recharges still raise the tier).
 */
export function tierOf(basis: TierBasis): { tier: Tier; source: TierSource } {
  const tiers = TIERS[basis.edition];
  if (basis.tierOverride !== undefined && basis.tierOverride !== null) {
    return { tier: clampTier(tiers, basis.tierOverride), source: "operator" };
  }
  const earned = tierByRecharge(basis.edition, basis.cumulativeRecharge);
  if (basis.tierFloor !== undefined && basis.tierFloor !== null) {
    const floor = clampTier(tiers, basis.tierFloor);
    if (floor.tier > earned.tier) return { tier: floor, source: "voucher" };
  }
  return { tier: earned, source: "recharge" };
}

export function tierFor(basis: TierBasis): Tier {
  return tierOf(basis).tier;
}

/**
 * The tier with the next one and the cash recharge still needed to reach it. Under an operator override
 * recharging does not move the tier, so there is no next tier to promise (null, like at the top).
 */
export function tierProgress(basis: TierBasis): {
  tier: Tier;
  source: TierSource;
  next: Tier | null;
  toNext: bigint | null;
} {
  const { tier, source } = tierOf(basis);
  const next = source === "operator" ? null : (TIERS[basis.edition].find((t) => t.tier === tier.tier + 1) ?? null);
  // Positive whenever `next` exists: a recharge at or past its threshold would already have earned it.
  const toNext = next ? next.cumulativeRecharge - basis.cumulativeRecharge : null;
  return { tier, source, next, toNext };
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
