import { NOT_FOUND_ROUTE } from "../page-map.ts";
import { listRoutes } from "./content.ts";
import { LOCALES } from "./contracts.ts";

/**
 * The unprefixed docs paths to prerender (public-pages.ts prerenders each once per locale): /docs, every page
 * that exists in some locale, and the not-found page the server sends with status 404 for unknown /docs paths.
 */
export function docsPaths(): string[] {
  const routes = new Set(LOCALES.flatMap((l) => listRoutes(l)));
  return ["/docs", `/docs/${NOT_FOUND_ROUTE}`, ...[...routes].sort().map((r) => `/docs/${r}`)];
}
