import { parseLocale } from "@moonport/contracts";
import { Outlet, useParams } from "react-router";
import { ErrorPage } from "../../src/components/error-page.tsx";

/**
 * Parent of every prerendered public page. `:lang?` exists for the build only: each page is prerendered at
 * /zh-CN/… and /en-US/…, and served unprefixed. Any other first segment is not a page.
 */
export default function PublicPages() {
  const { lang } = useParams();
  if (lang !== undefined && !parseLocale(lang)) return <ErrorPage kind="notFound" />;
  return <Outlet />;
}
