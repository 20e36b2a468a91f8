/**
 * Picks the engine for a request: a configured OpenAI-compatible upstream for the model (by requested id, then
 * by the routed sibling, then "*"), otherwise the built-in simulator.
 */

import type { ChatRequest } from "../chat/types.ts";
import type { Config } from "../env.ts";
import { OpenAICompatibleEngine, type UpstreamHealth } from "./openai-compatible/index.ts";
import { SimulatorEngine } from "./simulator/index.ts";
import { DocsSearchProvider, HttpSearchProvider, type SearchProvider } from "./simulator/search.ts";
import type { Engine } from "./types.ts";

export interface EngineRouter {
  forRequest(req: Pick<ChatRequest, "model" | "billedModel">): Engine;
  /** Each configured upstream (by the model id it serves, "*" for the fallback) and its health on this instance. */
  upstreams(): { model: string; baseUrl: string; health: UpstreamHealth }[];
  /** The search behind `$web_search`, also the official web-search tool's (modules/tools/official). */
  webSearch: SearchProvider;
  close(): Promise<void>;
}

export function createEngines(config: Config): EngineRouter {
  const docs = new DocsSearchProvider(config.docsDir);
  const webSearch: SearchProvider =
    config.webSearch.provider === "http" && config.webSearch.url
      ? new HttpSearchProvider(config.webSearch.url, config.webSearch.token)
      : docs;
  const simulator = new SimulatorEngine({ delayMs: config.simulatorDelayMs, docs, webSearch });
  const upstreams = new Map<string, OpenAICompatibleEngine>();
  for (const [model, route] of Object.entries(config.upstreams))
    upstreams.set(model, new OpenAICompatibleEngine(route));
  const fallback = upstreams.get("*");
  return {
    webSearch,
    forRequest(req) {
      return upstreams.get(req.model.id) ?? upstreams.get(req.billedModel.id) ?? fallback ?? simulator;
    },
    upstreams() {
      return [...upstreams].map(([model, engine]) => ({
        model,
        // The address without credentials or query: the back office shows where, never secrets.
        baseUrl: (() => {
          const u = new URL(config.upstreams[model]!.baseUrl);
          return `${u.origin}${u.pathname}`;
        })(),
        health: { ...engine.health },
      }));
    },
    async close() {
      await Promise.all([...upstreams.values()].map((u) => u.close()));
    },
  };
}
