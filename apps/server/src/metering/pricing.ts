/**
 * What one request costs, in exact nano-units of the organization's currency. Prices come from the catalog
 * (packages/contracts/src/catalog.ts); nothing here rounds.
 */
import {
  CONTEXT_CACHING_PRICES,
  type Currency,
  type ModelEntry,
  parseMoney,
  perTokenNanos,
  TOOL_PRICES,
} from "@moonport/contracts";
import type { Usage } from "./pipeline.ts";

const WEB_SEARCH = TOOL_PRICES.find((t) => t.name === "$web_search")!;

/**
 * Token cost of one inference. `promptTokens` includes `cachedTokens` (OpenAI usage semantics); cached tokens are
 * billed at the model's cache-hit price when it has one, otherwise as ordinary input.
 */
export function inferenceCost(model: ModelEntry, currency: Currency, usage: Usage): bigint {
  return costAt(unitPrices(model, currency), usage);
}

/** Nano-units per token (decimal strings, so they can be journaled): what a request admitted now will pay. */
interface UnitPrices {
  input: string;
  cacheHit: string;
  output: string;
}

/** Per catalog entry: parsing its price strings on every request showed in the gateway's profile. */
const unitPriceCache = new WeakMap<ModelEntry, Partial<Record<Currency, Readonly<UnitPrices>>>>();

export function unitPrices(model: ModelEntry, currency: Currency): Readonly<UnitPrices> {
  let byCurrency = unitPriceCache.get(model);
  const hit = byCurrency?.[currency];
  if (hit) return hit;
  const prices = model.prices[currency];
  const input = perTokenNanos(prices.input);
  const computed = Object.freeze({
    input: input.toString(),
    cacheHit: (prices.cacheHit === null ? input : perTokenNanos(prices.cacheHit)).toString(),
    output: perTokenNanos(prices.output).toString(),
  });
  if (!byCurrency) {
    byCurrency = {};
    unitPriceCache.set(model, byCurrency);
  }
  byCurrency[currency] = computed;
  return computed;
}

/** Token cost at the given unit prices. */
export function costAt(prices: UnitPrices, usage: Usage): bigint {
  const cached = BigInt(Math.max(0, Math.min(usage.cachedTokens, usage.promptTokens)));
  const uncached = BigInt(Math.max(0, usage.promptTokens)) - cached;
  return (
    uncached * BigInt(prices.input) +
    cached * BigInt(prices.cacheHit) +
    BigInt(Math.max(0, usage.completionTokens)) * BigInt(prices.output)
  );
}

/** The per-call fee of `$web_search` (docs/product-spec.md §9: once per search tool call the model returns). */
export function webSearchFee(currency: Currency, calls: number): bigint {
  return BigInt(Math.max(0, calls)) * parseMoney(WEB_SEARCH.price[currency]);
}

/**
 * Explicit context caching (docs/api-compat.md §7.1) in nano-units: per token created, per token-minute stored, per
 * call.
 */
export function contextCachingPrices(currency: Currency): {
  createPerToken: bigint;
  storagePerTokenMinute: bigint;
  call: bigint;
} {
  const p = CONTEXT_CACHING_PRICES[currency];
  return {
    createPerToken: perTokenNanos(p.create),
    storagePerTokenMinute: perTokenNanos(p.storagePerMinute),
    call: parseMoney(p.call),
  };
}
