/** What app/entry.client.tsx and app/root.tsx need to hydrate the site's error pages at any address. */

/** The id React Router gives `route("*", "routes/not-found.tsx")` in app/routes.ts: it renders the error pages. */
export const SPLAT_ROUTE_ID = "routes/not-found";

interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  module: string;
}

declare global {
  interface Window {
    /** React Router's route manifest and the route modules the page's own script imported. */
    __reactRouterManifest?: { routes: Record<string, ManifestRoute> };
    __reactRouterRouteModules?: Record<string, unknown>;
  }
}
