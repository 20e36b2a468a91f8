import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { matchRoutes, type RouteObject } from "react-router";
import { HydratedRouter } from "react-router/dom";
import { SPLAT_ROUTE_ID } from "./error-pages.ts";

/**
 * The server sends one prerendered page for many addresses: the site's 404 page for any unknown path, its 400
 * page for any malformed one (apps/server/src/http/web.ts). Its script imports the route modules the page was
 * rendered with (the splat route), but the browser's address may match others (`:lang?` with "no-such-page",
 * `docs/*` with "%E0%A4%A"), which render the same page. React Router would load those lazily and show the
 * hydrate fallback meanwhile, which does not match the HTML (error #418). Loading them first lets the page hydrate
 * as sent. Every other page already has its modules: nothing is awaited there.
 */
async function loadMatchedRouteModules() {
  const manifest = window.__reactRouterManifest;
  const modules = window.__reactRouterRouteModules;
  // Only the error pages, rendered by the splat route; the SPA fallback (console, sign-in) must keep loading its
  // routes after hydration, since its HTML is the hydrate fallback itself.
  if (!manifest || !modules?.[SPLAT_ROUTE_ID]) return;
  const entries = Object.values(manifest.routes);
  const tree = (parentId: string | undefined): RouteObject[] =>
    entries
      .filter((r) => r.parentId === parentId)
      .map((r) =>
        r.index
          ? { id: r.id, path: r.path, index: true, caseSensitive: r.caseSensitive }
          : { id: r.id, path: r.path, caseSensitive: r.caseSensitive, children: tree(r.id) },
      );
  const missing = (matchRoutes(tree(undefined), window.location) ?? [])
    .map((m) => m.route.id!)
    .filter((id) => !modules[id] && manifest.routes[id]);
  await Promise.all(
    missing.map(async (id) => {
      modules[id] = await import(/* @vite-ignore */ manifest.routes[id]!.module);
    }),
  );
}

loadMatchedRouteModules()
  .catch((err: unknown) => console.warn("route modules failed to preload", err))
  .finally(() =>
    startTransition(() => {
      hydrateRoot(
        document,
        <StrictMode>
          <HydratedRouter />
        </StrictMode>,
      );
    }),
  );
