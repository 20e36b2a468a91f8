/**
 * Client-side docs search (spec §3/§7): one GET of the locale's index file on first use, two flexsearch indexes
 * (pages and sections), Chinese and English split into words by Intl.Segmenter. Query results are cached per
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

function build(locale: Locale, payload: SearchIndexPayload): LoadedIndex {
  const encode = (s: string) => tokenize(locale, s);
  const pages = new Index({ tokenize: "forward", encode });
  const sections = new Index({ tokenize: "forward", encode });
  const pageList: LoadedIndex["pageList"] = [];
  const sectionList: LoadedIndex["sectionList"] = [];
  for (const [url, { title, data }] of Object.entries(payload)) {
    const pageId = pageList.length;
    pageList.push({ url, title });
    pages.add(pageId, `${title} ${Object.values(data).join(" ")}`);
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

function excerpt(text: string, query: string, locale: Locale): string {
  const lower = text.toLowerCase();
  const terms = tokenize(locale, query);
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
const caches = new Map<Locale, Map<string, PageHit[]>>();

/** Loads (once per locale) the index; a failed load is forgotten so the next focus retries. */
export function loadIndex(locale: Locale, fetcher: typeof fetch = fetch): Promise<LoadedIndex> {
  let p = loaded.get(locale);
  if (!p) {
    p = fetcher(SEARCH_INDEX_PATH(locale))
      .then((res) => {
        if (!res.ok) throw new Error(`search index: HTTP ${res.status}`);
        return res.json() as Promise<SearchIndexPayload>;
      })
      .then((payload) => build(locale, payload));
    p.catch(() => loaded.delete(locale));
    loaded.set(locale, p);
  }
  return p;
}

export function searchLoaded(index: LoadedIndex, locale: Locale, query: string): PageHit[] {
  const q = query.trim();
  if (!q) return [];
  let cache = caches.get(locale);
  if (!cache) {
    cache = new Map();
    caches.set(locale, cache);
  }
  const hit = cache.get(q);
  if (hit) {
    cache.delete(q);
    cache.set(q, hit); // most recently used last
    return hit;
  }
  const pageIds = index.pages.search(q, { limit: MAX_PAGE_HITS }) as number[];
  const sectionIds = index.sections.search(q, { limit: 200 }) as number[];
  const results: PageHit[] = pageIds.map((pid) => {
    const page = index.pageList[pid]!;
    const sections = sectionIds
      .map((sid) => index.sectionList[sid]!)
      .filter((s) => s.page === pid)
      .slice(0, MAX_SECTION_HITS)
      .map((s) => ({ anchor: s.anchor, heading: s.heading, excerpt: excerpt(s.text, q, locale) }));
    return { url: page.url, title: page.title, sections };
  });
  cache.set(q, results);
  while (cache.size > SEARCH_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return results;
}
