import "./zod-setup.ts";
import { z } from "zod";
import type { Locale } from "./locale.ts";

export const EDITIONS = ["cn", "global"] as const;
export const Edition = /* @__PURE__ */ z.enum(EDITIONS);
export type Edition = z.infer<typeof Edition>;

export const CURRENCIES = ["CNY", "USD"] as const;
export const Currency = /* @__PURE__ */ z.enum(CURRENCIES);
export type Currency = z.infer<typeof Currency>;

export const EDITION_CURRENCY: Record<Edition, Currency> = { cn: "CNY", global: "USD" };
export const EDITION_LOCALE: Record<Edition, Locale> = { cn: "zh-CN", global: "en-US" };
/** Business days, daily bills (07:00 rule) and consumption periods use the edition's zone. */
export const EDITION_TIME_ZONE: Record<Edition, string> = { cn: "Asia/Shanghai", global: "UTC" };
/** Each edition has its own currency, so an organization's currency names its edition. */
export const CURRENCY_EDITION: Record<Currency, Edition> = { CNY: "cn", USD: "global" };

/** Public, browser-safe description of one edition (served to the web app at /api/config). */
export const EditionConfig = /* @__PURE__ */ z.object({
  edition: Edition,
  currency: Currency,
  locale: z.enum(["zh-CN", "en-US"]),
  timeZone: z.string(),
  siteUrl: z.string(),
  apiBaseUrl: z.string(),
  title: z.string(),
  description: z.string(),
  keywords: z.array(z.string()),
  analytics: z.array(z.object({ src: z.string().optional(), inline: z.string().optional() })),
});
export type EditionConfig = z.infer<typeof EditionConfig>;

/** GET /api/config: the brand and the request's edition, plus the other edition (linked in two-host mode). */
export const PublicConfig = /* @__PURE__ */ z.object({
  brandName: z.string(),
  locale: z.enum(["zh-CN", "en-US"]),
  twoHost: z.boolean(),
  edition: EditionConfig,
  other: EditionConfig,
});
export type PublicConfig = z.infer<typeof PublicConfig>;

/**
 * Which edition a request belongs to. With two hosts configured, the host pins the edition; with one host,
 * the edition follows the locale (overseas mode, i.e. global, only for en-US).
 */
export function resolveEdition(opts: {
  host: string | undefined;
  locale: Locale;
  hosts: Partial<Record<Edition, string>>;
}): Edition {
  const { host, locale, hosts } = opts;
  if (hosts.cn && hosts.global && host) {
    const h = host.toLowerCase();
    if (h === hostOf(hosts.global)) return "global";
    if (h === hostOf(hosts.cn)) return "cn";
  }
  return locale === "en-US" ? "global" : "cn";
}

function hostOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return url.toLowerCase();
  }
}
