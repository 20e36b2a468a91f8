import { z } from "zod";
import { Currency, Edition } from "../edition.ts";
import { isPeriod, vmsg } from "../validation.ts";
import { Nanos, SpendPoint } from "./common.ts";

export const TierRow = z.object({
  tier: z.number().int(),
  name: z.string(),
  /** Cumulative cash recharge that unlocks the tier. */
  recharge: Nanos,
  concurrency: z.number().int(),
  rpm: z.number().int(),
  tpm: z.number().int(),
  /** null = unlimited */
  tpd: z.number().int().nullable(),
});
export type TierRow = z.infer<typeof TierRow>;

/** What decided an organization's tier (tiers.ts `tierOf`). */
export const TierSource = z.enum(["recharge", "voucher", "operator"]);
export type TierSource = z.infer<typeof TierSource>;

export const UsageLimits = z.object({
  edition: Edition,
  currency: Currency,
  cumulativeRecharge: Nanos,
  tier: TierRow,
  tierSource: TierSource,
  /** The tier a further recharge reaches (null at the top, and under an operator override). */
  nextTier: TierRow.nullable(),
  /** Cash recharge still needed to reach the next tier (null when there is no next tier). */
  toNextTier: Nanos.nullable(),
  tiers: z.array(TierRow),
  /**
   * Current use, counted from the gateway's bill rows: requests and tokens in the last 60 seconds, tokens since
   * midnight in the edition's zone. Concurrency is held only inside the gateway's limiter, so it is null here.
   */
  current: z.object({
    concurrency: z.number().int().nullable(),
    rpm: z.number().int(),
    tpm: z.number().int(),
    tpd: z.number().int(),
  }),
  source: z.literal("request_bills"),
});
export type UsageLimits = z.infer<typeof UsageLimits>;

export const ConsumptionQuery = z
  .object({
    granularity: z.enum(["year", "month"]).default("month"),
    /** YYYY for a year, YYYY-MM for a month; default: the current one in the edition's zone. */
    period: z.string().optional(),
  })
  .refine((v) => v.period === undefined || isPeriod(v.granularity, v.period), {
    message: vmsg("period_format"),
    path: ["period"],
  });

export const ConsumptionItem = z.object({ id: z.string(), name: z.string(), amount: Nanos });
export type ConsumptionItem = z.infer<typeof ConsumptionItem>;

export const Consumption = z.object({
  currency: Currency,
  timeZone: z.string(),
  granularity: z.enum(["year", "month"]),
  period: z.string(),
  total: Nanos,
  /** Daily points for a month, monthly points for a year. */
  series: z.array(SpendPoint),
  /** Each list sorted by amount, largest first (the top list is its head). */
  byApiKey: z.array(ConsumptionItem),
  byProject: z.array(ConsumptionItem),
  byProductType: z.array(ConsumptionItem),
  byModel: z.array(ConsumptionItem),
});
export type Consumption = z.infer<typeof Consumption>;
