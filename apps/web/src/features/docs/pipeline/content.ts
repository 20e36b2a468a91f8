/**
 * Build-time reading of content/docs (Node only): the page map from front matter and `_meta.json` files, the
 * last-updated date from git history, and the per-locale search index. Used by the Vite plugin, the React Router
 * prerender list and the tests, so every consumer sees the same tree.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Locale } from "@moonport/contracts";
import GithubSlugger from "github-slugger";
import { parse as parseYaml } from "yaml";
import type { DocPage, LocalePageMap, PageMap, SearchIndexPayload, SidebarItem, SpecialEntry } from "../page-map.ts";
import { LOCALES, SITE_TOKENS } from "./contracts.ts";
import { API_BASE_URL_PLACEHOLDER } from "./mdx-plugins.ts";

export const CONTENT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../content/docs");

const SPECIALS: SpecialEntry[] = ["quick", "kefu", "devgroup", "official", "siteSwitch"];

interface MetaObject {
  type?: "page" | "separator";
  title?: string;
  href?: string;
  newWindow?: boolean;
  display?: "hidden" | "normal";
  quick?: boolean;
  kefu?: boolean;
  devgroup?: boolean;
  official?: boolean;
  siteSwitch?: boolean;
}

export interface FrontMatter {
  title: string;
  description: string;
  layout?: "default" | "full";
  sidebar?: boolean;
  hidden?: boolean;
  keywords?: string[] | string;
}

export function splitFrontMatter(source: string): { data: Partial<FrontMatter>; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source);
  if (!m) return { data: {}, body: source };
  return { data: (parseYaml(m[1]!) ?? {}) as Partial<FrontMatter>, body: source.slice(m[0].length) };
}

/** Every .mdx route of one locale ("overview", "guide/x"), sorted. */
export function listRoutes(locale: Locale, dir = CONTENT_DIR): string[] {
  const root = path.join(dir, locale);
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(r);
      else if (entry.name.endsWith(".mdx")) out.push(r.slice(0, -4));
    }
  };
  if (fs.existsSync(root)) walk("");
  return out.sort();
}

const gitAvailable = (() => {
  let cached: boolean | undefined;
  return () => {
    if (cached === undefined) {
      try {
        execFileSync("git", ["rev-parse", "--is-inside-work-tree"], { cwd: CONTENT_DIR, stdio: "pipe" });
        cached = true;
      } catch {
        cached = false;
      }
    }
    return cached;
  };
})();

/** Date of the last commit touching the file; its mtime when git or the history is unavailable (e.g. a tarball). */
export function lastUpdated(file: string): string | null {
  if (gitAvailable()) {
    try {
      const out = execFileSync("git", ["log", "-1", "--format=%cI", "--", file], {
        cwd: path.dirname(file),
        stdio: ["ignore", "pipe", "ignore"],
      })
        .toString()
        .trim();
      if (out) return out;
    } catch {
      // fall through to the file time
    }
  }
  try {
    return fs.statSync(file).mtime.toISOString();
  } catch {
    return null;
  }
}

function readMeta(dir: string): Record<string, string | MetaObject> {
  const file = path.join(dir, "_meta.json");
  if (!fs.existsSync(file)) return {};
  return JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, string | MetaObject>;
}

function keywordsOf(v: FrontMatter["keywords"]): string[] {
  if (!v) return [];
  return Array.isArray(v) ? v.map(String) : String(v).split(/[,，]\s*/);
}

export function buildLocalePageMap(locale: Locale, dir = CONTENT_DIR): LocalePageMap {
  const root = path.join(dir, locale);
  const pages: Record<string, DocPage> = {};
  for (const route of listRoutes(locale, dir)) {
    const file = path.join(root, `${route}.mdx`);
    const { data } = splitFrontMatter(fs.readFileSync(file, "utf8"));
    if (!data.title) throw new Error(`${path.relative(dir, file)}: front matter needs a title`);
    pages[route] = {
      route,
      title: String(data.title),
      description: String(data.description ?? ""),
      layout: data.layout === "full" ? "full" : "default",
      sidebar: data.sidebar !== false,
      hidden: data.hidden === true,
      lastUpdated: lastUpdated(file),
      keywords: keywordsOf(data.keywords),
    };
  }

  const buildFolder = (rel: string): SidebarItem[] => {
    const abs = path.join(root, rel);
    const meta = readMeta(abs);
    const items: SidebarItem[] = [];
    const seen = new Set<string>();
    const children = fs.existsSync(abs) ? fs.readdirSync(abs, { withFileTypes: true }) : [];
    const folderNames = new Set(children.filter((c) => c.isDirectory()).map((c) => c.name));
    for (const [name, raw] of Object.entries(meta)) {
      seen.add(name);
      const value: MetaObject = typeof raw === "string" ? { title: raw } : raw;
      const route = rel ? `${rel}/${name}` : name;
      const title = value.title ?? pages[route]?.title ?? name;
      const special = SPECIALS.find((s) => value[s]);
      if (value.type === "separator") {
        items.push({ kind: "separator", title: value.title ?? null });
      } else if (special) {
        items.push({
          kind: "special",
          special,
          name,
          title,
          href: value.href ?? null,
          newWindow: value.newWindow ?? true,
        });
      } else if (value.href) {
        items.push({ kind: "link", name, title, href: value.href, newWindow: value.newWindow ?? false });
      } else if (folderNames.has(name)) {
        const sub = buildFolder(route);
        if (value.display !== "hidden" && sub.length) items.push({ kind: "folder", name, title, children: sub });
      } else if (pages[route]) {
        if (value.display === "hidden") pages[route].hidden = true;
        // The _meta title names the menu entry; the page keeps its own front-matter title.
        if (!pages[route].hidden) items.push({ kind: "page", route, title });
      }
      // A _meta key without a file or folder is skipped: content may list pages that land later.
    }
    // Pages and folders missing from _meta come last, alphabetically, so nothing written is unreachable.
    for (const c of children.sort((a, b) => a.name.localeCompare(b.name))) {
      const name = c.isDirectory() ? c.name : c.name.replace(/\.mdx$/, "");
      if (seen.has(name) || (!c.isDirectory() && !c.name.endsWith(".mdx"))) continue;
      const route = rel ? `${rel}/${name}` : name;
      if (c.isDirectory()) {
        const sub = buildFolder(route);
        if (sub.length) items.push({ kind: "folder", name, title: name, children: sub });
      } else if (pages[route] && !pages[route].hidden) {
        items.push({ kind: "page", route, title: pages[route].title });
      }
    }
    return items;
  };

  const sidebar = buildFolder("");
  const order: string[] = [];
  const collect = (items: SidebarItem[]) => {
    for (const it of items) {
      if (it.kind === "page") order.push(it.route);
      else if (it.kind === "folder") collect(it.children);
    }
  };
  collect(sidebar);
  return { pages, sidebar, order };
}

export function buildPageMap(dir = CONTENT_DIR): PageMap {
  return Object.fromEntries(LOCALES.map((l) => [l, buildLocalePageMap(l, dir)])) as PageMap;
}

/** Heading text as rehype-slug sees it: the rendered text without Markdown syntax. */
export function plainText(md: string): string {
  // Code spans are set aside first: what they hold is literal (identifiers such as `stream_options` keep their
  // underscores), and underscores only mark emphasis at word edges (CommonMark: never inside a word).
  const code: string[] = [];
  const text = md
    .replace(/`([^`]*)`/g, (_, c: string) => `\uE000${code.push(c) - 1}\uE000`)
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/\*\*(.*?)\*\*/g, "$1")
    .replace(/(?<![\p{L}\p{N}_])__(?=\S)(.*?\S)__(?![\p{L}\p{N}_])/gu, "$1")
    .replace(/\*(?=\S)(.*?\S)\*/g, "$1")
    .replace(/(?<![\p{L}\p{N}_])_(?=\S)(.*?\S)_(?![\p{L}\p{N}_])/gu, "$1")
    .replace(/\\([\\`*_{}[\]()#+\-.!])/g, "$1");
  return text.replace(/\uE000(\d+)\uE000/g, (_, i: string) => code[Number(i)]!).trim();
}

/**
 * Sections of one page for the search index: the text before the first h2 under the key "", then one entry per
 * h2–h6 keyed "<anchor>#<heading>", the anchor being the id rehype-slug gives the heading. Code blocks are left out (they repeat
 * across pages and drown real matches); table rows become plain text.
 */
export function extractSections(body: string): { title: string | null; sections: Record<string, string> } {
  const slugger = new GithubSlugger();
  const sections: Record<string, string[]> = { "": [] };
  let current = "";
  let title: string | null = null;
  let fence: string | null = null;
  for (const raw of body.split(/\r?\n/)) {
    const line = raw.trimEnd();
    const fenceMatch = /^\s*(```+|~~~+)/.exec(line);
    if (fence) {
      if (fenceMatch && fenceMatch[1]!.startsWith(fence)) fence = null;
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1]!;
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*$/.exec(line);
    if (heading) {
      const text = plainText(heading[2]!);
      const id = slugger.slug(text);
      if (heading[1]!.length === 1) {
        title ??= text;
        continue;
      }
      current = `${id}#${text}`;
      sections[current] = [];
      continue;
    }
    if (/^\s*(import|export)\s/.test(line)) continue;
    if (/^\s*\|?\s*:?-{3,}/.test(line)) continue; // table separator row
    const text = plainText(line.replace(/^\s*([-*+]|\d+\.)\s+/, "").replace(/\|/g, " ")).replace(/\s+/g, " ");
    if (text) sections[current] = [...(sections[current] ?? []), text];
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(sections)) {
    const joined = v.join(" ").trim();
    if (joined || k) out[k] = joined;
  }
  return { title, sections: out };
}

const SEARCH_API_MARK = "MPSEARCHAPIBASEMARK";

export function buildSearchIndex(locale: Locale, map: LocalePageMap, dir = CONTENT_DIR): SearchIndexPayload {
  const out: SearchIndexPayload = {};
  for (const page of Object.values(map.pages)) {
    if (page.hidden) continue;
    const { body } = splitFrontMatter(fs.readFileSync(path.join(dir, locale, `${page.route}.mdx`), "utf8"));
    // The API base URL goes through a marker free of Markdown syntax (plainText would eat the token's
    // underscores), then becomes the site token the server fills in when it sends the index.
    const sections = extractSections(body.replaceAll(API_BASE_URL_PLACEHOLDER, SEARCH_API_MARK)).sections;
    const token = locale === "en-US" ? SITE_TOKENS.apiGlobal : SITE_TOKENS.apiCn;
    for (const k of Object.keys(sections)) sections[k] = sections[k]!.replaceAll(SEARCH_API_MARK, token);
    out[`/docs/${page.route}`] = { title: page.title, data: sections };
  }
  return out;
}
