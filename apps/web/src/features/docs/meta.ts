/**
 * <head> tags of a docs page (docs/product-spec.md §5): per-locale title, description and keywords, canonical and
 * hreflang alternates, Open Graph and Twitter large-image card pointing at the page's generated social card.
 */

import pageMap from "virtual:docs/page-map";
import { LOCALES, type Locale } from "@moonport/contracts";
import type { MetaDescriptor } from "react-router";
import { resources } from "../../i18n/resources.ts";
import { siteUrl } from "../../lib/site-config.ts";
import { localePrefix, NOT_FOUND_ROUTE, SOCIAL_CARD_PATH } from "./page-map.ts";

const OG_LOCALE: Record<Locale, string> = { "en-US": "en_US", "zh-CN": "zh_CN" };

export const pageUrl = (locale: Locale, route: string) => `${siteUrl(locale)}${localePrefix(locale)}/docs/${route}`;

export function docsMeta(locale: Locale, route: string): MetaDescriptor[] {
  const strings = resources[locale].docs;
  const siteTitle = `${strings.brand} ${strings.docsTitle}`;
  const page = route === NOT_FOUND_ROUTE ? undefined : pageMap[locale].pages[route];
  if (!page) {
    return [{ title: `${strings.notFound.title} | ${siteTitle}` }, { name: "robots", content: "noindex" }];
  }
  // A page titled after the site itself (the overview: "Moonport 文档") is not suffixed with it a second time.
  const title = page.title.startsWith(strings.brand) ? page.title : `${page.title} | ${siteTitle}`;
  const description = page.description || strings.siteDescription;
  const keywords = [...page.keywords, ...strings.siteKeywords.split(/,\s*/)].join(", ");
  const url = pageUrl(locale, page.route);
  const image = `${siteUrl(locale)}${SOCIAL_CARD_PATH(locale, page.route)}`;
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: description },
    { name: "keywords", content: keywords },
    { tagName: "link", rel: "canonical", href: url },
    ...LOCALES.filter((l) => pageMap[l].pages[page.route]).map((l) => ({
      tagName: "link",
      rel: "alternate",
      hrefLang: l,
      href: pageUrl(l, page.route),
    })),
    { tagName: "link", rel: "alternate", hrefLang: "x-default", href: pageUrl("zh-CN", page.route) },
    { property: "og:type", content: "article" },
    { property: "og:site_name", content: siteTitle },
    { property: "og:title", content: page.title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:locale", content: OG_LOCALE[locale] },
    { property: "og:image", content: image },
    { property: "og:image:width", content: "1200" },
    { property: "og:image:height", content: "630" },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: page.title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: image },
  ];
  if (page.hidden) tags.push({ name: "robots", content: "noindex" });
  return tags;
}
