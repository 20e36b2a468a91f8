import { LOCALES, SITE_ERROR_PAGES } from "@moonport/contracts";
import { blogPaths } from "./src/features/docs/blog/pipeline/content.ts";
import { docsPaths } from "./src/features/docs/pipeline/prerender.ts";

/**
 * Unprefixed paths of the public pages (home, docs …). Each is prerendered once per locale under `/<locale>`
 * (e.g. build/client/en-US/docs/overview/index.html); the server sends the file for the request's locale at the
 * unprefixed URL (apps/server/src/http/web.ts). Routes of these pages live inside the `:lang?` layout in
 * app/routes.ts so that the prefixed paths match them at build time.
 */
export function publicPaths(): string[] {
  return ["/", "/contact-sales", ...docsPaths(), ...blogPaths(), SITE_ERROR_PAGES.notFound, SITE_ERROR_PAGES.badUrl];
}

export function localizedPrerenderPaths(paths: string[]): string[] {
  return paths.flatMap((p) => LOCALES.map((l) => (p === "/" ? `/${l}` : `/${l}${p}`)));
}
