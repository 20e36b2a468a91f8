import { ErrorPage } from "../../src/components/error-page.tsx";

/** Any other path: a matched route (rather than a routing error) so the SPA fallback page hydrates cleanly. */
export default function NotFoundRoute() {
  return <ErrorPage kind="notFound" />;
}
