import { z } from "zod";
import { CONTEXT_CACHING_PRICES, findModel, perTokenNanos } from "../catalog.ts";
import type { Currency } from "../edition.ts";
import { parseMoney } from "../money.ts";
import { Nanos, PageQuery, paged } from "./common.ts";

/**
 * docs/product-spec.md §4: the API's four statuses, and `deleted` for caches removed through the API (their bills
 * stay).
 */
export const ConsoleCacheStatus = z.enum(["pending", "ready", "error", "inactive", "deleted"]);
export type ConsoleCacheStatus = z.infer<typeof ConsoleCacheStatus>;

/**
 * A row of the Context Caching table (docs/product-spec.md §3 Cache). Money is nano-units in the organization's
 * currency.
 */
export const ConsoleCache = z.object({
  id: z.string(),
  name: z.string().nullable(),
  status: ConsoleCacheStatus,
  model: z.string(),
  tokens: z.number().int(),
  createdAt: z.string(),
  expiredAt: z.string(),
  /** Storage minutes billed so far. */
  billingMinutes: z.number().int(),
  /** Chat calls that used the cache. */
  calls: z.number().int(),
  /** Input + output tokens of those calls. */
  chatTokens: z.number().int(),
  spend: z.object({ chat: Nanos, call: Nanos, creation: Nanos, storage: Nanos, total: Nanos }),
  /** What the cached tokens would have cost as input, less what the cache cost (negative: caching cost more). */
  savings: Nanos,
});
export type ConsoleCache = z.infer<typeof ConsoleCache>;

export const CacheSummary = z.object({
  caches: z.number().int(),
  calls: z.number().int(),
  cachedTokens: z.number().int(),
  spend: Nanos,
  savings: Nanos,
});
export type CacheSummary = z.infer<typeof CacheSummary>;

export const ListCachesQuery = PageQuery;
export const CachePage = paged(ConsoleCache).extend({
  currency: z.enum(["CNY", "USD"]),
  summary: CacheSummary,
  /** The organization's tokens-per-minute limit now (the calculator warns when a plan would exceed it). */
  tpm: z.number().int(),
});
export type CachePage = z.infer<typeof CachePage>;

export interface CachingEstimateInput {
  model: string;
  currency: Currency;
  /** Tokens of the cached context. */
  contextTokens: number;
  /** Calls that reuse the context over the duration. */
  calls: number;
  /** How long the cache lives, in minutes (storage is billed per started minute). */
  minutes: number;
}

export interface CachingEstimate {
  /** Every call sends the context as input. */
  withoutCache: bigint;
  /** Creation + storage for the duration + a fee per call (the context is not billed as input again). */
  withCache: bigint;
  savings: bigint;
  /** Context tokens per minute the plan sends (they count toward TPM either way). */
  tokensPerMinute: number;
}

/**
 * The savings calculator (docs/product-spec.md §2, Context Caching): cost of the context part of `calls` calls with and
 * without a cache, exact in nano-units. Output tokens and the question part cost the same either way; left out.
 */
export function estimateCaching(input: CachingEstimateInput): CachingEstimate {
  const model = findModel(input.model);
  if (!model) throw new Error(`unknown model ${input.model}`);
  const p = CONTEXT_CACHING_PRICES[input.currency];
  const tokens = BigInt(Math.max(0, Math.floor(input.contextTokens)));
  const calls = BigInt(Math.max(0, Math.floor(input.calls)));
  const minutes = BigInt(Math.max(1, Math.ceil(input.minutes)));
  const withoutCache = calls * tokens * perTokenNanos(model.prices[input.currency].input);
  const withCache =
    tokens * perTokenNanos(p.create) +
    tokens * perTokenNanos(p.storagePerMinute) * minutes +
    calls * parseMoney(p.call);
  return {
    withoutCache,
    withCache,
    savings: withoutCache - withCache,
    tokensPerMinute: Number((calls * tokens) / minutes),
  };
}
