/**
 * Build-time reading of content/blog (Node only): each locale's posts from their front matter, the prerender
 * paths and the RSS feed. Used by the Vite plugin, the prerender list and the tests.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { splitFrontMatter } from "../../pipeline/content.ts";
import { LOCALES, SITE_TOKENS } from "../../pipeline/contracts.ts";
import type { BlogPost, BlogPosts } from "../posts.ts";

type Locale = (typeof LOCALES)[number];

export const BLOG_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../../content/blog");

/** Every post of one locale, newest first; a post without title, description or date stops the build. */
export function listPosts(locale: Locale, dir = BLOG_DIR): BlogPost[] {
  const root = path.join(dir, locale);
  if (!fs.existsSync(root)) return [];
  const posts = fs
    .readdirSync(root)
    .filter((f) => f.endsWith(".mdx"))
    .map((f) => {
      const { data } = splitFrontMatter(fs.readFileSync(path.join(root, f), "utf8"));
      const meta = data as Record<string, unknown>;
      // YAML reads an unquoted 2026-12-01 as a Date.
      const date = meta.date instanceof Date ? meta.date.toISOString().slice(0, 10) : String(meta.date ?? "");
      if (!meta.title || !meta.description || !/^\d{4}-\d{2}-\d{2}$/.test(date)) {
        throw new Error(`content/blog/${locale}/${f}: front matter needs title, description and date (YYYY-MM-DD)`);
      }
      return {
        slug: f.slice(0, -4),
        title: String(meta.title),
        description: String(meta.description),
        date,
        author: meta.author ? String(meta.author) : null,
      };
    });
  return posts.sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
}

export function buildBlogPosts(dir = BLOG_DIR): BlogPosts {
  return Object.fromEntries(LOCALES.map((l) => [l, listPosts(l, dir)])) as BlogPosts;
}

/** Unprefixed paths to prerender: the index and every post of any locale. */
export function blogPaths(dir = BLOG_DIR): string[] {
  const slugs = new Set(LOCALES.flatMap((l) => listPosts(l, dir).map((p) => p.slug)));
  return ["/blog", ...[...slugs].sort().map((s) => `/blog/${s}`)];
}

const escapeXml = (s: string) =>
  s.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);

/**
 * RSS 2.0 feed of one locale, written as build/client/<locale>/blog/rss.xml and sent at /blog/rss.xml in the
 * request's locale. Addresses are site tokens and the channel's title carries the brand token: the server fills
 * them in (apps/server/src/http/web.ts).
 */
export function rssXml(locale: Locale, posts: BlogPost[], channel: { title: string; description: string }): string {
  const site = locale === "en-US" ? SITE_TOKENS.siteGlobal : SITE_TOKENS.siteCn;
  const url = (slug?: string) => `${site}/${locale}/blog${slug ? `/${slug}` : ""}`;
  const items = posts.map(
    (p) => `    <item>
      <title>${escapeXml(p.title)}</title>
      <link>${escapeXml(url(p.slug))}</link>
      <guid isPermaLink="true">${escapeXml(url(p.slug))}</guid>
      <description>${escapeXml(p.description)}</description>
      <pubDate>${new Date(`${p.date}T00:00:00Z`).toUTCString()}</pubDate>${p.author ? `\n      <dc:creator>${escapeXml(p.author)}</dc:creator>` : ""}
    </item>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel>
    <title>${escapeXml(channel.title)}</title>
    <link>${escapeXml(url())}</link>
    <atom:link href="${escapeXml(`${site}/blog/rss.xml`)}" rel="self" type="application/rss+xml"/>
    <description>${escapeXml(channel.description)}</description>
    <language>${locale === "en-US" ? "en-us" : "zh-cn"}</language>
${items.join("\n")}
  </channel>
</rss>
`;
}
