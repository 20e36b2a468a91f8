/**
 * The model catalog and every price, in one place (docs/product-spec.md §9, docs/api-compat.md §8): used by the gateway
 * (/v1/models, context checks, -auto routing), billing (exact nano-unit prices), the console (consumption by model) and
 * the pricing pages. Prices are decimal strings per 1M tokens (or per call); `perTokenNanos` turns them into exact
 * integers. An operator adapting the catalog edits only this file.
 */
import type { Currency } from "./edition.ts";
import { parseMoney } from "./money.ts";

export type PriceGroup = "InferencePrices" | "KimiLatestPrices" | "KimiK2Prices" | "KimiThinkingPrices";

export interface TokenPrices {
  /** per 1M input tokens (cache miss) */
  input: string;
  /** per 1M output tokens */
  output: string;
  /** per 1M input tokens served from the automatic prefix cache; null = no automatic caching */
  cacheHit: string | null;
}

export interface ModelCapabilities {
  vision: boolean;
  toolCalls: boolean;
  jsonMode: boolean;
  /** `response_format` `json_schema` (structured output, docs/api-compat.md §2.1). */
  jsonSchema: boolean;
  /** `tool_choice: "required"` (docs/api-compat.md §2.1); never together with thinking. */
  toolChoiceRequired: boolean;
  partial: boolean;
  webSearch: boolean;
  reasoning: boolean;
  autoCaching: boolean;
}

export interface ModelEntry {
  id: string;
  family: "moonshot-v1" | "kimi-latest" | "kimi-k2" | "kimi-thinking";
  contextWindow: number;
  /** Unix seconds shown as `created` in /v1/models. */
  created: number;
  priceGroup: PriceGroup;
  capabilities: ModelCapabilities;
  defaultTemperature: number;
  prices: Record<Currency, TokenPrices>;
  /**
   * Routing models pick the smallest sibling whose context fits prompt + max_tokens and bill that sibling
   * (docs/api-compat.md §2.9). `kimi-latest` bills by the same rule.
   */
  routesTo?: string[];
  /** Price rows that exist only for billing (kimi-latest-8k …) are not listed in /v1/models. */
  listed: boolean;
}

const V1: ModelCapabilities = {
  vision: false,
  toolCalls: true,
  jsonMode: true,
  jsonSchema: false,
  toolChoiceRequired: false,
  partial: true,
  webSearch: true,
  reasoning: false,
  autoCaching: false,
};
const VISION: ModelCapabilities = { ...V1, vision: true, webSearch: false };
const LATEST: ModelCapabilities = { ...V1, vision: true, autoCaching: true };
const K2: ModelCapabilities = { ...V1, autoCaching: true, jsonSchema: true, toolChoiceRequired: true };
const THINKING: ModelCapabilities = {
  vision: true,
  toolCalls: false,
  jsonMode: false,
  jsonSchema: false,
  toolChoiceRequired: false,
  partial: false,
  webSearch: false,
  reasoning: true,
  autoCaching: false,
};

const p = (cny: [string, string, string | null], usd: [string, string, string | null]) => ({
  CNY: { input: cny[0], output: cny[1], cacheHit: cny[2] },
  USD: { input: usd[0], output: usd[1], cacheHit: usd[2] },
});

const V1_8K = p(["2", "10", null], ["0.2", "2", null]);
const V1_32K = p(["5", "20", null], ["1", "3", null]);
const V1_128K = p(["10", "30", null], ["2", "5", null]);
const LATEST_8K = p(["2", "10", "1"], ["0.2", "2", "0.15"]);
const LATEST_32K = p(["5", "20", "1"], ["1", "3", "0.15"]);
const LATEST_128K = p(["10", "30", "1"], ["2", "5", "0.15"]);

const C2024 = 1711929600; // 2024-04-01
const C2025 = 1752192000; // 2025-07-11

export const MODELS: ModelEntry[] = [
  ...(["8k", "32k", "128k"] as const).flatMap((size) => {
    const ctx = { "8k": 8192, "32k": 32768, "128k": 131072 }[size];
    const prices = { "8k": V1_8K, "32k": V1_32K, "128k": V1_128K }[size];
    return [
      {
        id: `moonshot-v1-${size}`,
        family: "moonshot-v1",
        contextWindow: ctx,
        created: C2024,
        priceGroup: "InferencePrices",
        capabilities: V1,
        defaultTemperature: 0,
        prices,
        listed: true,
      },
      {
        id: `moonshot-v1-${size}-vision-preview`,
        family: "moonshot-v1",
        contextWindow: ctx,
        created: C2024,
        priceGroup: "InferencePrices",
        capabilities: VISION,
        defaultTemperature: 0,
        prices,
        listed: true,
      },
    ] satisfies ModelEntry[];
  }),
  {
    id: "moonshot-v1-auto",
    family: "moonshot-v1",
    contextWindow: 131072,
    created: C2024,
    priceGroup: "InferencePrices",
    capabilities: V1,
    defaultTemperature: 0,
    prices: V1_128K,
    routesTo: ["moonshot-v1-8k", "moonshot-v1-32k", "moonshot-v1-128k"],
    listed: true,
  },
  {
    id: "kimi-latest",
    family: "kimi-latest",
    contextWindow: 131072,
    created: C2025,
    priceGroup: "KimiLatestPrices",
    capabilities: LATEST,
    defaultTemperature: 0.3,
    prices: LATEST_128K,
    routesTo: ["kimi-latest-8k", "kimi-latest-32k", "kimi-latest-128k"],
    listed: true,
  },
  ...(
    [
      ["kimi-latest-8k", 8192, LATEST_8K],
      ["kimi-latest-32k", 32768, LATEST_32K],
      ["kimi-latest-128k", 131072, LATEST_128K],
    ] as const
  ).map(
    ([id, contextWindow, prices]): ModelEntry => ({
      id,
      family: "kimi-latest",
      contextWindow,
      created: C2025,
      priceGroup: "KimiLatestPrices",
      capabilities: LATEST,
      defaultTemperature: 0.3,
      prices,
      listed: false,
    }),
  ),
  {
    id: "kimi-thinking-preview",
    family: "kimi-thinking",
    contextWindow: 131072,
    created: C2025,
    priceGroup: "KimiThinkingPrices",
    capabilities: THINKING,
    defaultTemperature: 0.8,
    prices: p(["200", "200", null], ["30", "30", null]),
    listed: true,
  },
  {
    id: "kimi-k2-0905-preview",
    family: "kimi-k2",
    contextWindow: 262144,
    created: 1757030400,
    priceGroup: "KimiK2Prices",
    capabilities: K2,
    defaultTemperature: 0.6,
    prices: p(["4", "16", "1"], ["0.6", "2.5", "0.15"]),
    listed: true,
  },
  {
    id: "kimi-k2-0711-preview",
    family: "kimi-k2",
    contextWindow: 131072,
    created: C2025,
    priceGroup: "KimiK2Prices",
    capabilities: K2,
    defaultTemperature: 0.6,
    prices: p(["4", "16", "1"], ["0.6", "2.5", "0.15"]),
    listed: true,
  },
  {
    id: "kimi-k2-turbo-preview",
    family: "kimi-k2",
    contextWindow: 262144,
    created: 1754006400,
    priceGroup: "KimiK2Prices",
    capabilities: K2,
    defaultTemperature: 0.6,
    prices: p(["8", "32", "2"], ["1.2", "5", "0.3"]),
    listed: true,
  },
];

const BY_ID = new Map(MODELS.map((m) => [m.id, m]));

export function findModel(id: string): ModelEntry | undefined {
  return BY_ID.get(id);
}

/** The sibling a routing model bills for `prompt + maxTokens`, or the model itself. */
export function resolveRoutedModel(model: ModelEntry, promptPlusMax: number): ModelEntry {
  if (!model.routesTo) return model;
  for (const id of model.routesTo) {
    const sibling = BY_ID.get(id)!;
    if (promptPlusMax <= sibling.contextWindow) return sibling;
  }
  return BY_ID.get(model.routesTo[model.routesTo.length - 1]!)!;
}

/** Price per single token in nano-units, exact: "0.15" per 1M → 150n. */
export function perTokenNanos(pricePerMillion: string): bigint {
  return parseMoney(pricePerMillion) / 1_000_000n;
}

/** Context caching (explicit cache API): creation per 1M tokens, storage per 1M tokens per minute, per call. */
export const CONTEXT_CACHING_PRICES: Record<Currency, { create: string; storagePerMinute: string; call: string }> = {
  CNY: { create: "4", storagePerMinute: "1", call: "0.01" },
  USD: { create: "1", storagePerMinute: "0.15", call: "0.0015" },
};

/** Limits of explicit context caching (docs/api-compat.md §7.1, docs/product-spec.md §9). */
export const CONTEXT_CACHE_LIMITS = {
  /** The only `model` value: a family, whose 8k, 32k and 128k models can all use the cache. */
  family: "moonshot-v1",
  /** The model whose limits validate cache content (the family's largest context). */
  checkModel: "moonshot-v1-128k",
  maxTokensPerCache: 128_000,
  maxTokensPerOrg: 1_000_000,
  /** Default and longest lifetime: one hour. */
  defaultTtlSeconds: 3600,
  maxTtlSeconds: 3600,
  maxNameChars: 256,
  maxDescriptionChars: 512,
  maxMetadataPairs: 16,
  maxMetadataKeyChars: 64,
  maxMetadataValueChars: 512,
  /** Tag names: a letter, then letters, digits, `_`, `-`, `.`; 1–128 characters (docs/api-compat.md §7.1). */
  tagPattern: /^[A-Za-z][A-Za-z0-9_.-]{0,127}$/,
} as const;

export interface ToolPrice {
  name: string;
  displayName: Record<"en-US" | "zh-CN", string>;
  price: Record<Currency, string>;
  unit: "call";
  comment: Record<"en-US" | "zh-CN", string>;
}

export const TOOL_PRICES: ToolPrice[] = [
  {
    name: "$web_search",
    displayName: { "en-US": "Web search", "zh-CN": "联网搜索" },
    price: { CNY: "0.03", USD: "0.005" },
    unit: "call",
    comment: {
      "en-US":
        "Charged once per $web_search tool call the model returns; the search results are billed as input tokens of the next call.",
      "zh-CN": "模型每返回一次 $web_search 工具调用计费一次；搜索结果作为下一次调用的输入 Tokens 计费。",
    },
  },
];

export const PRODUCT_TYPES = [
  "model_inference",
  "context_caching",
  "auto_caching",
  "$web_search",
  "bill",
  "bill_repair",
  "tool_call",
] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];
