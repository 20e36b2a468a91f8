import type { Locale } from "@moonport/contracts";
import { useLocation, useParams, useRouteError } from "react-router";
import { DocsShell, ServerErrorBody } from "../../src/features/docs/components/docs-layout.tsx";
import {
  isMalformedPath,
  SiteErrorPage,
  siteErrorFor,
  siteErrorMeta,
} from "../../src/features/docs/components/site-error.tsx";
import { docsMeta } from "../../src/features/docs/meta.ts";
import { localeForPath } from "../../src/i18n/index.ts";
import type { Route } from "./+types/docs";

/** `/docs/<route>` (prerendered per locale as `/<locale>/docs/<route>`); `/docs` shows the overview. */
function resolve(params: { "*"?: string }, pathname: string): { locale: Locale; route: string } {
  const route = (params["*"] ?? "").replace(/\/$/, "") || "overview";
  return { locale: localeForPath(pathname), route };
}

export function meta({ params, location }: Route.MetaArgs) {
  const { locale, route } = resolve(params, location.pathname);
  const error = siteErrorFor(params, location.pathname);
  return error ? siteErrorMeta(locale, error) : docsMeta(locale, route);
}

export default function Docs() {
  const params = useParams();
  const { pathname } = useLocation();
  const { locale, route } = resolve(params, pathname);
  // A malformed address gets the site's 400 page, which is what the server sent for it.
  if (isMalformedPath(pathname)) return <SiteErrorPage locale={locale} kind="badUrl" />;
  return <DocsShell locale={locale} route={route} />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const params = useParams();
  const { pathname } = useLocation();
  const { locale, route } = resolve(params, pathname);
  return (
    <DocsShell locale={locale} route={route}>
      <ServerErrorBody error={error} />
    </DocsShell>
  );
}
