/**
 * The documentation page map (docs/product-spec.md §3 "page-map entry"): built at build time from
 * content/docs/<locale>/** by pipeline/content.ts and imported by the browser as the virtual module
 * `virtual:docs/page-map`. Browser-safe.
 */
import type { Locale } from "@moonport/contracts";

export type DocsLayoutKind = "default" | "full";

export interface DocPage {
  /** Route below /docs, e.g. "guide/start-using-kimi-api". */
  route: string;
  title: string;
  description: string;
  layout: DocsLayoutKind;
  /** false hides the sidebar on this page (front matter `sidebar: false`). */
  sidebar: boolean;
  /** `display: "hidden"` in _meta or `hidden: true` in front matter: routable, never in menus or prev/next. */
  hidden: boolean;
  /** ISO date of the last commit touching the file (or its mtime without git history). */
  lastUpdated: string | null;
  keywords: string[];
}

export type SpecialEntry = "quick" | "kefu" | "devgroup" | "official" | "siteSwitch";

export type SidebarItem =
  | { kind: "page"; route: string; title: string }
  | { kind: "folder"; name: string; title: string; children: SidebarItem[] }
  | { kind: "separator"; title: string | null }
  | { kind: "link"; name: string; title: string; href: string; newWindow: boolean }
  | { kind: "special"; special: SpecialEntry; name: string; title: string; href: string | null; newWindow: boolean };

export interface LocalePageMap {
  pages: Record<string, DocPage>;
  sidebar: SidebarItem[];
  /** Visible pages in sidebar order: previous/next links walk this list. */
  order: string[];
}

export type PageMap = Record<Locale, LocalePageMap>;

/** One search-index file per locale (docs/product-spec.md §7): page URL → title and heading anchor → section text. */
export type SearchIndexPayload = Record<string, { title: string; data: Record<string, string> }>;

export const SEARCH_INDEX_PATH = (locale: Locale) => `/docs-search/${locale}.json`;
export const SOCIAL_CARD_PATH = (locale: Locale, route: string) => `/og/docs/${locale}/${route}.png`;
/** Prefix under which each locale's copy of a public page is prerendered (served at the bare URL by cookie). */
export const localePrefix = (locale: Locale) => `/${locale}`;
/** Route that renders the docs not-found page; prerendered so the server can answer unknown /docs paths with 404. */
export const NOT_FOUND_ROUTE = "404";

/** Trail of folder titles from the sidebar root to a page (the breadcrumb). */
export function breadcrumbFor(map: LocalePageMap, route: string): { title: string; route: string | null }[] {
  type Crumb = { title: string; route: string | null };
  const walk = (items: SidebarItem[], trail: Crumb[]): Crumb[] | null => {
    for (const item of items) {
      if (item.kind === "page" && item.route === route) return [...trail, { title: item.title, route }];
      if (item.kind === "folder") {
        const found = walk(item.children, [...trail, { title: item.title, route: firstPage(item.children) }]);
        if (found) return found;
      }
    }
    return null;
  };
  const found = walk(map.sidebar, []);
  if (found) return found;
  const page = map.pages[route];
  return page ? [{ title: page.title, route }] : [];
}

function firstPage(items: SidebarItem[]): string | null {
  for (const item of items) {
    if (item.kind === "page") return item.route;
    if (item.kind === "folder") {
      const r = firstPage(item.children);
      if (r) return r;
    }
  }
  return null;
}

export function neighbours(map: LocalePageMap, route: string): { prev: DocPage | null; next: DocPage | null } {
  const i = map.order.indexOf(route);
  if (i < 0) return { prev: null, next: null };
  const at = (j: number) => {
    const r = map.order[j];
    return r ? (map.pages[r] ?? null) : null;
  };
  return { prev: at(i - 1), next: at(i + 1) };
}
