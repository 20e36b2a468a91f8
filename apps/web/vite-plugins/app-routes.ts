/**
 * build/app-routes.json: the URL patterns of the client-only routes (console, sign-in, playground …), taken from
 * the route table, so the server sends the SPA fallback page for those and a 404 page for any other unknown path
 * (apps/server/src/http/web.ts). Public pages are left out: the server finds them as prerendered files.
 */
import fs from "node:fs";
import path from "node:path";

interface RouteEntry {
  id: string;
  parentId?: string;
  path?: string;
}

/** Full patterns ("/console/organization/:tab?") of every route outside the `:lang?` public pages and the splat. */
function appRoutePatterns(routes: Record<string, RouteEntry>): string[] {
  const chain = (r: RouteEntry): RouteEntry[] => {
    const parent = r.parentId ? routes[r.parentId] : undefined;
    return parent ? [...chain(parent), r] : [r];
  };
  const out = new Set<string>();
  for (const route of Object.values(routes)) {
    const segments = chain(route)
      .map((r) => r.path ?? "")
      .filter(Boolean);
    if (segments[0]?.startsWith(":lang") || segments.includes("*") || segments.length === 0) continue;
    out.add(`/${segments.join("/")}`);
  }
  return [...out].sort();
}

export function writeAppRoutes(buildDirectory: string, routes: Record<string, RouteEntry>) {
  const patterns = appRoutePatterns(routes);
  if (!patterns.includes("/console")) throw new Error("app-routes: the route table has no /console route");
  fs.writeFileSync(path.join(buildDirectory, "app-routes.json"), `${JSON.stringify(patterns, null, 2)}\n`);
}
