import { type AdminCatalog, MODELS, resolveRoutedModel } from "@moonport/contracts";
import type { EngineRouter } from "../../engines/index.ts";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * The catalog as the operator runs it: every model with its prices per edition and what serves it, and each
 * configured upstream's health on this instance (requests, errors, the last error, latency to first byte).
 */
export function getCatalog(engines: EngineRouter): AdminCatalog {
  const upstreams = engines.upstreams();
  const served = new Set(upstreams.map((u) => u.model));
  return {
    models: MODELS.map((m) => {
      const billed = resolveRoutedModel(m, 0);
      return {
        id: m.id,
        family: m.family,
        contextWindow: m.contextWindow,
        listed: m.listed,
        prices: m.prices,
        servedBy: served.has(m.id) ? m.id : served.has(billed.id) ? billed.id : served.has("*") ? "*" : "simulator",
      };
    }),
    upstreams: upstreams.map((u) => ({
      model: u.model,
      baseUrl: u.baseUrl,
      requests: u.health.requests,
      errors: u.health.errors,
      lastOkAt: iso(u.health.lastOkAt),
      lastErrorAt: iso(u.health.lastErrorAt),
      lastError: u.health.lastError,
      latencyMs: u.health.latencyMs === null ? null : Math.round(u.health.latencyMs),
    })),
  };
}
