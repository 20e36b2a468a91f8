/**
 * The site's own error pages (SITE_ERROR_PAGES): an unknown address and a malformed one, with the docs' navbar
 * (language, theme, search) and footer. The server sends the prerendered page for any such address, so what this
 * renders depends only on the locale and on the address being malformed, never on the address itself: the HTML
 * of /404 hydrates at /no/such/page, and that of /400 at /docs/%E0%A4%A.
 */
import { type Locale, parseLocale, SITE_ERROR_PAGES } from "@moonport/contracts";
import type { MetaDescriptor } from "react-router";
import { stripLocalePrefix } from "../../../i18n/index.ts";
import { resources } from "../../../i18n/resources.ts";
import { NOT_FOUND_ROUTE } from "../page-map.ts";
import { BadUrlBody, DocsShell, NotFoundBody } from "./docs-layout.tsx";

type SiteErrorKind = "notFound" | "badUrl";

/** An address that cannot be percent-decoded ("%E0%A4%A") is malformed; so is the 400 page's own address. */
export function siteErrorKind(pathname: string): SiteErrorKind {
  const path = stripLocalePrefix(pathname).replace(/\/+$/, "");
  return isMalformedPath(pathname) || path === SITE_ERROR_PAGES.badUrl ? "badUrl" : "notFound";
}

/** Whether an address cannot be decoded: routes that match it anyway (docs/*, blog/*) show the 400 page. */
export function isMalformedPath(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return false;
  } catch {
    return true;
  }
}

/**
 * The error page a public route's address gets instead of the route's own page, if any: a malformed address, or a
 * first segment that is not a locale (`:lang?` matched "foo"). Routes use it for their meta, which must be the
 * same as the prerendered error page's.
 */
export function siteErrorFor(params: { lang?: string }, pathname: string): SiteErrorKind | undefined {
  if (isMalformedPath(pathname)) return "badUrl";
  return params.lang !== undefined && !parseLocale(params.lang) ? "notFound" : undefined;
}

export function siteErrorMeta(locale: Locale, kind: SiteErrorKind): MetaDescriptor[] {
  const strings = resources[locale].docs;
  const title = kind === "badUrl" ? strings.badUrl.title : strings.notFound.title;
  return [{ title: `${title} | ${strings.brand} ${strings.docsTitle}` }, { name: "robots", content: "noindex" }];
}

export function SiteErrorPage({ locale, kind }: { locale: Locale; kind: SiteErrorKind }) {
  return (
    <DocsShell locale={locale} route={NOT_FOUND_ROUTE} sidebar={false}>
      {kind === "badUrl" ? <BadUrlBody /> : <NotFoundBody />}
    </DocsShell>
  );
}
