import { DEFAULT_LOCALE, LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE_S, type Locale, parseLocale } from "@moonport/contracts";
import i18next from "i18next";
import { initReactI18next } from "react-i18next";
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

export function initI18n(locale: Locale) {
  if (!i18next.isInitialized) {
    void i18next.use(initReactI18next).init({
      resources,
      lng: locale,
      fallbackLng: false,
      defaultNS: "common",
      interpolation: { escapeValue: false },
      initImmediate: false,
    });
  } else if (i18next.language !== locale) {
    void i18next.changeLanguage(locale);
  }
  return i18next;
}
