import { LOCALES, type Locale } from "@moonport/contracts";
import { readLocaleCookie } from "./index.ts";

/** The locale prefix of a prerendered path ("/en-US/docs/x" → "en-US"), if any. */
export function localeFromPath(pathname: string): Locale | undefined {
  const first = pathname.split("/")[1];
  return LOCALES.find((l) => l === first);
}

/**
 * The language a page renders in: the path's locale prefix (prerendering, or a shared prefixed link), else the
 * locale cookie (the server serves the prefixed copy matching it at the bare URL, setting the cookie if absent).
 */
export function pageLocale(pathname: string): Locale {
  return localeFromPath(pathname) ?? readLocaleCookie();
}

/** Removes the locale prefix: the address to reload after switching language. */
export function stripLocalePrefix(pathname: string): string {
  const l = localeFromPath(pathname);
  return l ? pathname.slice(l.length + 1) || "/" : pathname;
}
