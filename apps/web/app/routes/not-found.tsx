import { useLocation } from "react-router";
import { SiteErrorPage, siteErrorKind, siteErrorMeta } from "../../src/features/docs/components/site-error.tsx";
import { localeForPath } from "../../src/i18n/index.ts";
import type { Route } from "./+types/not-found";

export function meta({ location }: Route.MetaArgs) {
  return siteErrorMeta(localeForPath(location.pathname), siteErrorKind(location.pathname));
}

/**
 * Any other path: a matched route (rather than a routing error) so the page hydrates cleanly. Prerendered as the
 * site's /404 and /400 pages, which the server sends for unknown and malformed addresses.
 */
export default function NotFoundRoute() {
  const { pathname } = useLocation();
  return <SiteErrorPage locale={localeForPath(pathname)} kind={siteErrorKind(pathname)} />;
}
