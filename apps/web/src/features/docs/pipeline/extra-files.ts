/**
 * sitemap.xml, robots.txt and the 1200×630 social card of every page and locale. Absolute addresses are written
 * as the site tokens of src/lib/site-config.ts; the server fills them in when it sends the file.
 */

import QRCode from "qrcode";
import { type DocsConfig, docsConfig, QR_PATH } from "../config.ts";
import { type PageMap, SOCIAL_CARD_PATH } from "../page-map.ts";
import { LOCALES, SITE_TOKENS } from "./contracts.ts";
import { renderSocialCard } from "./social-card.ts";

// en-US pages belong to the global edition, zh-CN pages to the China edition.
const siteToken = (locale: (typeof LOCALES)[number]) =>
  locale === "en-US" ? SITE_TOKENS.siteGlobal : SITE_TOKENS.siteCn;

const escapeXml = (s: string) =>
  s.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);

export function sitemapXml(map: PageMap): string {
  const urls: string[] = [];
  for (const locale of LOCALES) {
    for (const page of Object.values(map[locale].pages)) {
      if (page.hidden) continue;
      const loc = `${siteToken(locale)}/${locale}/docs/${page.route}`;
      const alternates = LOCALES.filter((l) => map[l].pages[page.route])
        .map(
          (l) =>
            `    <xhtml:link rel="alternate" hreflang="${l}" href="${escapeXml(`${siteToken(l)}/${l}/docs/${page.route}`)}"/>`,
        )
        .join("\n");
      const lastmod = page.lastUpdated ? `\n    <lastmod>${page.lastUpdated.slice(0, 10)}</lastmod>` : "";
      urls.push(`  <url>\n    <loc>${escapeXml(loc)}</loc>${lastmod}\n${alternates}\n  </url>`);
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
  files.set("/sitemap.xml", sitemapXml(map));
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
