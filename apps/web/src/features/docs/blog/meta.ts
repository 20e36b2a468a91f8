/** <head> tags of the blog's pages: title, description, canonical and hreflang links, the feed, Open Graph. */
import { LOCALES, type Locale } from "@moonport/contracts";
import type { MetaDescriptor } from "react-router";
import { resources } from "../../../i18n/resources.ts";
import { siteUrl } from "../../../lib/site-config.ts";
import { localePrefix } from "../page-map.ts";
import { BLOG_FEED_PATH, type BlogPost, blogHref } from "./posts.ts";

const OG_LOCALE: Record<Locale, string> = { "en-US": "en_US", "zh-CN": "zh_CN" };

const blogUrl = (locale: Locale, slug?: string) => `${siteUrl(locale)}${localePrefix(locale)}${blogHref(slug)}`;

/** `post` undefined: the index. `available` lists the locales that have the page (hreflang alternates). */
export function blogMeta(locale: Locale, post: BlogPost | undefined, available: readonly Locale[]): MetaDescriptor[] {
  const strings = resources[locale].docs;
  const blogTitle = `${strings.brand} ${strings.blog.title}`;
  const title = post ? `${post.title} | ${blogTitle}` : blogTitle;
  const description = post?.description ?? strings.blog.description;
  const url = blogUrl(locale, post?.slug);
  return [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    ...LOCALES.filter((l) => available.includes(l)).map((l) => ({
      tagName: "link",
      rel: "alternate",
      hrefLang: l,
      href: blogUrl(l, post?.slug),
    })),
    { tagName: "link", rel: "alternate", type: "application/rss+xml", title: blogTitle, href: BLOG_FEED_PATH },
    { property: "og:type", content: post ? "article" : "website" },
    { property: "og:site_name", content: blogTitle },
    { property: "og:title", content: post?.title ?? blogTitle },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:locale", content: OG_LOCALE[locale] },
    ...(post ? [{ property: "article:published_time", content: post.date }] : []),
  ];
}
