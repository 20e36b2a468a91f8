import {
  DEFAULT_LOCALE,
  LOCALE_COOKIE,
  LOCALE_COOKIE_MAX_AGE_S,
  LOCALES,
  type Locale,
  parseLocale,
} from "@moonport/contracts";
import i18next, { type i18n } from "i18next";
import { useTranslation } from "react-i18next";
import { resources } from "./resources.ts";

export function readLocaleCookie(): Locale {
  if (typeof document === "undefined") return DEFAULT_LOCALE;
  const m = new RegExp(`(?:^|; )${LOCALE_COOKIE}=([^;]*)`).exec(document.cookie);
  return parseLocale(m?.[1] ? decodeURIComponent(m[1]) : undefined) ?? DEFAULT_LOCALE;
}

/** Sets the one-year locale cookie; callers reload so prerendered pages come back in that language. */
export function writeLocaleCookie(locale: Locale) {
  // biome-ignore lint/suspicious/noDocumentCookie: the locale must be readable by the server on the next request
  document.cookie = `${LOCALE_COOKIE}=${locale}; path=/; max-age=${LOCALE_COOKIE_MAX_AGE_S}; samesite=lax`;
}

/** Switches the UI language: the cookie decides which prerendered file the server sends, so reload. */
export function switchLocale(locale: Locale) {
  writeLocaleCookie(locale);
  window.location.reload();
}

/**
 * The locale a page renders in. Prerendering renders each public page once per locale under a `/<locale>`
 * prefix (see react-router.config.ts); in the browser the URL is unprefixed and the `locale` cookie decides,
 * the same cookie the server used to pick the prerendered file, so hydration sees the same language.
 */
export function localeForPath(pathname: string): Locale {
  return parseLocale(pathname.split("/")[1]) ?? readLocaleCookie();
}

/** `/zh-CN/docs/x` → `/docs/x`; unprefixed paths are returned unchanged. */
export function stripLocalePrefix(pathname: string): string {
  const first = pathname.split("/")[1];
  if (!first || !(LOCALES as readonly string[]).includes(first)) return pathname;
  return pathname.slice(first.length + 1) || "/";
}

const instances = new Map<Locale, i18n>();

/**
 * One i18next instance per locale (not the global singleton), so prerendering pages of both locales in one
 * process never mixes languages. Resources are bundled, so initialisation is synchronous.
 */
export function initI18n(locale: Locale): i18n {
  let instance = instances.get(locale);
  if (!instance) {
    instance = i18next.createInstance();
    void instance.init({
      resources,
      lng: locale,
      fallbackLng: false,
      defaultNS: "common",
      interpolation: { escapeValue: false },
      initAsync: false,
      returnNull: false,
    });
    instances.set(locale, instance);
  }
  return instance;
}

/** The UI locale of the current render. */
export function useLocale(): Locale {
  const { i18n } = useTranslation();
  return parseLocale(i18n.language) ?? DEFAULT_LOCALE;
}
