/**
 * What one request costs, in exact nano-units of the organization's currency. Prices come from the catalog
 * (packages/contracts/src/catalog.ts); nothing here rounds.
 */
import { type Currency, type ModelEntry, parseMoney, perTokenNanos, TOOL_PRICES } from "@moonport/contracts";
import type { Usage } from "./pipeline.ts";

const WEB_SEARCH = TOOL_PRICES.find((t) => t.name === "$web_search")!;

/**
 * Token cost of one inference. `promptTokens` includes `cachedTokens` (OpenAI usage semantics); cached tokens are
 * billed at the model's cache-hit price when it has one, otherwise as ordinary input.
 */
export function inferenceCost(model: ModelEntry, currency: Currency, usage: Usage): bigint {
  const prices = model.prices[currency];
  const cached = BigInt(Math.max(0, Math.min(usage.cachedTokens, usage.promptTokens)));
  const uncached = BigInt(Math.max(0, usage.promptTokens)) - cached;
  const input = perTokenNanos(prices.input);
  const cacheHit = prices.cacheHit === null ? input : perTokenNanos(prices.cacheHit);
  return (
    uncached * input + cached * cacheHit + BigInt(Math.max(0, usage.completionTokens)) * perTokenNanos(prices.output)
  );
}

/** The per-call fee of `$web_search` (spec §9: once per search tool call the model returns). */
export function webSearchFee(currency: Currency, calls: number): bigint {
  return BigInt(Math.max(0, calls)) * parseMoney(WEB_SEARCH.price[currency]);
}
