/**
 * sitemap.xml, robots.txt and the 1200×630 social card of every page and locale. Absolute addresses are written
 * as the site tokens of src/lib/site-config.ts; the server fills them in when it sends the file.
 */

import type { Locale } from "@moonport/contracts";
import QRCode from "qrcode";
import { buildBlogPosts } from "../blog/pipeline/content.ts";
import type { BlogPosts } from "../blog/posts.ts";
import { type DocsConfig, docsConfig, QR_PATH } from "../config.ts";
import { type PageMap, SOCIAL_CARD_PATH } from "../page-map.ts";
import { LOCALES, SITE_TOKENS } from "./contracts.ts";
import { renderSocialCard } from "./social-card.ts";

// en-US pages belong to the global edition, zh-CN pages to the China edition.
const siteToken = (locale: (typeof LOCALES)[number]) =>
  locale === "en-US" ? SITE_TOKENS.siteGlobal : SITE_TOKENS.siteCn;

const escapeXml = (s: string) =>
  s.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);

/** One <url> entry: the page in one locale, its alternates in the locales that have it. */
function sitemapUrl(locale: Locale, path: string, locales: readonly Locale[], lastmod: string | null): string {
  const alternates = locales
    .map((l) => `    <xhtml:link rel="alternate" hreflang="${l}" href="${escapeXml(`${siteToken(l)}/${l}${path}`)}"/>`)
    .join("\n");
  const date = lastmod ? `\n    <lastmod>${lastmod.slice(0, 10)}</lastmod>` : "";
  return `  <url>\n    <loc>${escapeXml(`${siteToken(locale)}/${locale}${path}`)}</loc>${date}\n${alternates}\n  </url>`;
}

/** Every visible docs page and the blog (its index and posts) of both locales. */
export function sitemapXml(map: PageMap, blog?: BlogPosts): string {
  const urls: string[] = [];
  for (const locale of LOCALES) {
    for (const page of Object.values(map[locale].pages)) {
      if (page.hidden) continue;
      const locales = LOCALES.filter((l) => map[l].pages[page.route]);
      urls.push(sitemapUrl(locale, `/docs/${page.route}`, locales, page.lastUpdated));
    }
    if (!blog) continue;
    urls.push(sitemapUrl(locale, "/blog", LOCALES, blog[locale][0]?.date ?? null));
    for (const post of blog[locale]) {
      const locales = LOCALES.filter((l) => blog[l].some((p) => p.slug === post.slug));
      urls.push(sitemapUrl(locale, `/blog/${post.slug}`, locales, post.date));
    }
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">
${urls.join("\n")}
</urlset>
`;
}

export function robotsTxt(): string {
  // The console, playground and API are per-user and never worth indexing.
  return `User-agent: *
Allow: /
Disallow: /console
Disallow: /playground
Disallow: /api/
Disallow: /v1/

Sitemap: ${SITE_TOKENS.siteCn}/sitemap.xml
`;
}

export async function extraFiles(map: PageMap, opts: { socialCards: boolean }): Promise<Map<string, string | Buffer>> {
  const files = new Map<string, string | Buffer>();
  files.set("/sitemap.xml", sitemapXml(map, buildBlogPosts()));
  files.set("/robots.txt", robotsTxt());
  // QR codes of the zh-CN sidebar's customer service, developer group and official account (docs config).
  for (const [name, url] of Object.entries(docsConfig.qr) as [keyof DocsConfig["qr"], string | null][]) {
    if (url) files.set(QR_PATH(name), await QRCode.toString(url, { type: "svg", margin: 1, width: 144 }));
  }
  if (opts.socialCards) {
    for (const locale of LOCALES) {
      for (const page of Object.values(map[locale].pages)) {
        files.set(SOCIAL_CARD_PATH(locale, page.route), await renderSocialCard({ locale, page }));
      }
    }
  }
  return files;
}
