/**
 * Client-side docs search (docs/product-spec.md §3/§7): one GET of the locale's index file on first use, two flexsearch
 * indexes (pages and sections), Chinese and English split into words by Intl.Segmenter. Query results are cached per
 * locale, at most SEARCH_CACHE_SIZE entries.
 */
import type { Locale } from "@moonport/contracts";
import { Index } from "flexsearch";
import { SEARCH_INDEX_PATH, type SearchIndexPayload } from "../page-map.ts";

export const SEARCH_CACHE_SIZE = 100;
export const MAX_PAGE_HITS = 5;
export const MAX_SECTION_HITS = 5;

export interface SectionHit {
  anchor: string;
  heading: string;
  excerpt: string;
}
export interface PageHit {
  url: string;
  title: string;
  sections: SectionHit[];
}
/** A piece of a title, heading or excerpt; `match` pieces are shown highlighted. */
export interface TextPart {
  text: string;
  match: boolean;
}

interface LoadedIndex {
  pages: Index;
  sections: Index;
  pageList: { url: string; title: string }[];
  sectionList: { page: number; anchor: string; heading: string; text: string }[];
}

const segmenters = new Map<Locale, Intl.Segmenter>();
export function tokenize(locale: Locale, text: string): string[] {
  let seg = segmenters.get(locale);
  if (!seg) {
    seg = new Intl.Segmenter(locale, { granularity: "word" });
    segmenters.set(locale, seg);
  }
  return [...seg.segment(text.toLowerCase())].filter((s) => s.isWordLike).map((s) => s.segment);
}

export function buildIndex(locale: Locale, payload: SearchIndexPayload): LoadedIndex {
  const encode = (s: string) => tokenize(locale, s);
  const pages = new Index({ tokenize: "forward", encode });
  const sections = new Index({ tokenize: "forward", encode });
  const pageList: LoadedIndex["pageList"] = [];
  const sectionList: LoadedIndex["sectionList"] = [];
  for (const [url, { title, data }] of Object.entries(payload)) {
    const pageId = pageList.length;
    pageList.push({ url, title });
    // Headings are part of the page's text ("<anchor>#<heading>" keys), so a page found only by a heading is found.
    const headings = Object.keys(data).map((k) => (k.includes("#") ? k.slice(k.indexOf("#") + 1) : ""));
    pages.add(pageId, `${title} ${headings.join(" ")} ${Object.values(data).join(" ")}`);
    for (const [key, text] of Object.entries(data)) {
      // Keys are "<anchor>#<heading>" (pipeline/content.ts extractSections); "" is the text before the first heading.
      const hash = key.indexOf("#");
      const anchor = hash < 0 ? "" : key.slice(0, hash);
      const heading = hash < 0 ? title : key.slice(hash + 1);
      const id = sectionList.length;
      sectionList.push({ page: pageId, anchor, heading, text });
      sections.add(id, `${heading} ${text}`);
    }
  }
  return { pages, sections, pageList, sectionList };
}

/** The query's words, longest first (so "stream_options" is highlighted whole, not as "stream"). */
export function queryTerms(locale: Locale, query: string): string[] {
  const words = new Set([query.trim().toLowerCase(), ...tokenize(locale, query)].filter(Boolean));
  return [...words].sort((a, b) => b.length - a.length);
}

const containsAll = (text: string, terms: string[]) => {
  const lower = text.toLowerCase();
  return terms.every((t) => lower.includes(t));
};
const containsAny = (text: string, terms: string[]) => {
  const lower = text.toLowerCase();
  return terms.some((t) => lower.includes(t));
};

/** Splits `text` into plain and matching parts for highlighting (case-insensitive, every occurrence of a term). */
export function highlight(text: string, terms: string[]): TextPart[] {
  const lower = text.toLowerCase();
  const parts: TextPart[] = [];
  let plainFrom = 0;
  let i = 0;
  while (i < text.length) {
    const term = terms.find((t) => t && lower.startsWith(t, i));
    if (!term) {
      i += 1;
      continue;
    }
    if (i > plainFrom) parts.push({ text: text.slice(plainFrom, i), match: false });
    parts.push({ text: text.slice(i, i + term.length), match: true });
    i += term.length;
    plainFrom = i;
  }
  if (plainFrom < text.length) parts.push({ text: text.slice(plainFrom), match: false });
  return parts;
}

function excerpt(text: string, query: string, locale: Locale): string {
  const lower = text.toLowerCase();
  const terms = queryTerms(locale, query);
  let at = -1;
  for (const t of terms) {
    at = lower.indexOf(t);
    if (at >= 0) break;
  }
  if (!text) return "";
  const start = Math.max(0, at - 30);
  const s = text.slice(start, start + 140);
  return `${start > 0 ? "…" : ""}${s}${start + 140 < text.length ? "…" : ""}`;
}

const loaded = new Map<Locale, Promise<LoadedIndex>>();
/** Query results per loaded index (one per locale in the browser). */
const caches = new WeakMap<LoadedIndex, Map<string, PageHit[]>>();

/** Loads (once per locale) the index; a failed load is forgotten so the next focus retries. */
export function loadIndex(locale: Locale, fetcher: typeof fetch = fetch): Promise<LoadedIndex> {
  let p = loaded.get(locale);
  if (!p) {
    p = fetcher(SEARCH_INDEX_PATH(locale))
      .then((res) => {
        if (!res.ok) throw new Error(`search index: HTTP ${res.status}`);
        return res.json() as Promise<SearchIndexPayload>;
      })
      .then((payload) => buildIndex(locale, payload));
    p.catch(() => loaded.delete(locale));
    loaded.set(locale, p);
  }
  return p;
}

export function searchLoaded(index: LoadedIndex, locale: Locale, query: string): PageHit[] {
  const q = query.trim();
  if (!q) return [];
  let cache = caches.get(index);
  if (!cache) {
    cache = new Map();
    caches.set(index, cache);
  }
  const hit = cache.get(q);
  if (hit) {
    cache.delete(q);
    cache.set(q, hit); // most recently used last
    return hit;
  }
  const terms = queryTerms(locale, q);
  // flexsearch ranks by where words occur in the text; a page *about* the query (its title or a heading says so)
  // must come before pages that only mention it, so candidates are re-ranked: title, then heading, then body,
  // keeping flexsearch's order within each group (a stable sort).
  const pageIds = index.pages.search(q, { limit: 100 }) as number[];
  const sectionIds = index.sections.search(q, { limit: 400 }) as number[];
  const sections = sectionIds.map((sid) => index.sectionList[sid]!);
  const headingHit = new Set(sections.filter((s) => s.anchor && containsAny(s.heading, terms)).map((s) => s.page));
  const pageRank = (pid: number) => {
    const title = index.pageList[pid]!.title;
    if (containsAll(title, terms)) return 0;
    if (containsAny(title, terms)) return 1;
    return headingHit.has(pid) ? 2 : 3;
  };
  const sectionRank = (s: (typeof sections)[number]) => (s.anchor && containsAny(s.heading, terms) ? 0 : 1);
  const ranked = pageIds
    .map((pid, order) => ({ pid, order, rank: pageRank(pid) }))
    .sort((a, b) => a.rank - b.rank || a.order - b.order)
    .slice(0, MAX_PAGE_HITS);
  const results: PageHit[] = ranked.map(({ pid }) => {
    const page = index.pageList[pid]!;
    const pageSections = sections
      .filter((s) => s.page === pid)
      .map((s, order) => ({ s, order, rank: sectionRank(s) }))
      .sort((a, b) => a.rank - b.rank || a.order - b.order)
      .slice(0, MAX_SECTION_HITS)
      .map(({ s }) => ({ anchor: s.anchor, heading: s.heading, excerpt: excerpt(s.text, q, locale) }));
    return { url: page.url, title: page.title, sections: pageSections };
  });
  cache.set(q, results);
  while (cache.size > SEARCH_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return results;
}
