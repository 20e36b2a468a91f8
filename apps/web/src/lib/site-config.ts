/**
 * Deployment addresses known only when the server runs (CN_SITE_URL, GLOBAL_API_BASE_URL, … or the request's
 * own origin). Prerendered files carry the SITE_TOKENS of @moonport/contracts; the server replaces them in every HTML,
 * XML and text file it sends (apps/server/src/http/web.ts), including the inline script that hands the same values to the
 * browser, so hydration renders exactly what the server sent. One build therefore serves any deployment.
 */
import { type Currency, type Edition, type Locale, SITE_TOKENS, type SiteTokenValues } from "@moonport/contracts";

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
/** Same as EDITION_CURRENCY[localeEdition(locale)], without pulling the edition schemas (zod) into docs pages. */
export const localeCurrency = (locale: Locale): Currency => (locale === "en-US" ? "USD" : "CNY");

export function siteUrl(locale: Locale): string {
  const c = siteConfig();
  return localeEdition(locale) === "global" ? c.siteGlobal : c.siteCn;
}

export function apiBaseUrl(locale: Locale): string {
  const c = siteConfig();
  return localeEdition(locale) === "global" ? c.apiGlobal : c.apiCn;
}

/** BRAND_NAME, known from the first render on (no request), so prerendered pages hydrate without a second pass. */
export function brandName(): string {
  return siteConfig().brand;
}

/** The brand for components; a hook by name only, so callers need not change if it ever becomes reactive. */
export const useBrand = brandName;

/**
 * The other edition's site, for the footer link, and whether the deployment has two hosts at all. `twoHost` is
 * the token's text ("true" | "false", the token itself while prerendering): render it into an attribute and let
 * CSS hide the link, because a prerendered page cannot know the deployment and a branch on it would not hydrate.
 */
export function otherEditionSite(locale: Locale): { edition: Edition; url: string; twoHost: string } {
  const c = siteConfig();
  return localeEdition(locale) === "global"
    ? { edition: "cn", url: c.siteCn, twoHost: c.twoHost }
    : { edition: "global", url: c.siteGlobal, twoHost: c.twoHost };
}
