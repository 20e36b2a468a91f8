/**
 * Deployment addresses known only when the server runs (CN_SITE_URL, GLOBAL_API_BASE_URL, … or the request's
 * own origin). Prerendered files carry the SITE_TOKENS of @moonport/contracts; the server replaces them in every HTML,
 * XML and text file it sends (apps/server/src/http/web.ts), including the inline script that hands the same values to the
 * browser, so hydration renders exactly what the server sent. One build therefore serves any deployment.
 */
import { type Edition, type Locale, SITE_TOKENS, type SiteTokenValues } from "@moonport/contracts";

export type SiteConfig = SiteTokenValues;

declare global {
  interface Window {
    __MP_SITE__?: SiteConfig;
  }
}

/** During prerendering: the tokens themselves; in the browser: the values the server substituted. */
export function siteConfig(): SiteConfig {
  if (typeof window !== "undefined" && window.__MP_SITE__) return window.__MP_SITE__;
  return SITE_TOKENS;
}

/** The inline script rendered in <head>; the server rewrites the tokens inside it. */
export const SITE_CONFIG_SCRIPT = `window.__MP_SITE__=${JSON.stringify(SITE_TOKENS)}`;

export const localeEdition = (locale: Locale): Edition => (locale === "en-US" ? "global" : "cn");

export function siteUrl(locale: Locale): string {
  const c = siteConfig();
  return localeEdition(locale) === "global" ? c.siteGlobal : c.siteCn;
}

export function apiBaseUrl(locale: Locale): string {
  const c = siteConfig();
  return localeEdition(locale) === "global" ? c.apiGlobal : c.apiCn;
}
