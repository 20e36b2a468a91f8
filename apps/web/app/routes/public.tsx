import { parseLocale } from "@moonport/contracts";
import { lazy, Suspense } from "react";
import { Outlet, useParams } from "react-router";

// Loaded only for a bad prefix: keeps the error page's config query (zod) out of public pages' bundles.
const ErrorPage = lazy(() => import("../../src/components/error-page.tsx").then((m) => ({ default: m.ErrorPage })));

/**
 * Parent of every prerendered public page. `:lang?` exists for the build only: each page is prerendered at
 * /zh-CN/… and /en-US/…, and served unprefixed. Any other first segment is not a page.
 */
export default function PublicPages() {
  const { lang } = useParams();
  if (lang !== undefined && !parseLocale(lang)) {
    return (
      <Suspense fallback={null}>
        <ErrorPage kind="notFound" />
      </Suspense>
    );
  }
  return <Outlet />;
}
