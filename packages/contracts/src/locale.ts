import { z } from "zod";

export const LOCALES = ["zh-CN", "en-US"] as const;
// Pure annotations let pages that only need the constants (the docs) leave zod out of their bundle.
export const Locale = /* @__PURE__ */ z.enum(LOCALES);
export type Locale = z.infer<typeof Locale>;
export const DEFAULT_LOCALE: Locale = "zh-CN";
/** Cookie that carries the UI language; lasts one year (docs/product-spec.md §2). */
export const LOCALE_COOKIE = "locale";
export const LOCALE_COOKIE_MAX_AGE_S = 365 * 24 * 60 * 60;

export function parseLocale(value: string | undefined | null): Locale | undefined {
  return (LOCALES as readonly string[]).includes(value ?? "") ? (value as Locale) : undefined;
}

/** Picks the locale from a cookie value first, then Accept-Language, then the default. */
export function negotiateLocale(cookie: string | undefined, acceptLanguage: string | undefined): Locale {
  const fromCookie = parseLocale(cookie);
  if (fromCookie) return fromCookie;
  if (acceptLanguage) {
    for (const part of acceptLanguage.split(",")) {
      const tag = part.split(";")[0]?.trim().toLowerCase() ?? "";
      if (tag.startsWith("zh")) return "zh-CN";
      if (tag.startsWith("en")) return "en-US";
    }
  }
  return DEFAULT_LOCALE;
}

/** A string in every locale; the type makes a missing translation a compile error. */
export type Localized = Record<Locale, string>;
