import { LOCALES, type Locale } from "@moonport/contracts";
import { useLocation, useParams, useRouteError } from "react-router";
import { DocsShell, ServerErrorBody } from "../../src/features/docs/components/docs-layout.tsx";
import { docsMeta } from "../../src/features/docs/meta.ts";
import { NOT_FOUND_ROUTE } from "../../src/features/docs/page-map.ts";
import { pageLocale } from "../../src/i18n/page-locale.ts";
import type { Route } from "./+types/docs";

/** `/docs/<route>` and its prerendered per-locale copy `/<locale>/docs/<route>`; `/docs` shows the overview. */
function resolve(params: { locale?: string; "*"?: string }, pathname: string): { locale: Locale; route: string } {
  const locale = pageLocale(pathname);
  const route = (params["*"] ?? "").replace(/\/$/, "") || "overview";
  // Any other first segment ("/foo/docs/x") is not a docs address.
  if (params.locale && !LOCALES.includes(params.locale as Locale)) return { locale, route: NOT_FOUND_ROUTE };
  return { locale, route };
}

export function meta({ params, location }: Route.MetaArgs) {
  const { locale, route } = resolve(params, location.pathname);
  return docsMeta(locale, route);
}

export default function Docs() {
  const params = useParams();
  const { pathname } = useLocation();
  const { locale, route } = resolve(params, pathname);
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
