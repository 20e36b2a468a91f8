import { parseLocale } from "@moonport/contracts";
import { Outlet, useLocation, useParams } from "react-router";
import {
  SiteErrorPage,
  siteErrorFor,
  siteErrorKind,
  siteErrorMeta,
} from "../../src/features/docs/components/site-error.tsx";
import { localeForPath } from "../../src/i18n/index.ts";
import type { Route } from "./+types/public";

/** The error page's title for a bad first segment; child pages without meta of their own (home) inherit []. */
export function meta({ params, location }: Route.MetaArgs) {
  const error = siteErrorFor(params, location.pathname);
  return error ? siteErrorMeta(localeForPath(location.pathname), error) : [];
}

/**
 * Parent of every prerendered public page. `:lang?` exists for the build only: each page is prerendered at
 * /zh-CN/… and /en-US/…, and served unprefixed. Any other first segment is not a page: the site's error page,
 * the same the server sent for it (routes/not-found.tsx).
 */
export default function PublicPages() {
  const { lang } = useParams();
  const { pathname } = useLocation();
  if (lang !== undefined && !parseLocale(lang)) {
    return <SiteErrorPage locale={localeForPath(pathname)} kind={siteErrorKind(pathname)} />;
  }
  return <Outlet />;
}
