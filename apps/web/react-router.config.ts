import path from "node:path";
import { LOCALES } from "@moonport/contracts";
import type { Config } from "@react-router/dev/config";
import { localizedPrerenderPaths, publicPaths } from "./public-pages.ts";
import { writeAppRoutes } from "./vite-plugins/app-routes.ts";
import { precompressLeftovers } from "./vite-plugins/precompress.ts";
import { dropPublicPagePreloads } from "./vite-plugins/public-page-preloads.ts";

export default {
  appDirectory: "app",
  // Public pages are prerendered to static HTML, once per locale; console and sign-in are client-only (SPA fallback).
  ssr: false,
  async prerender() {
    return localizedPrerenderPaths(publicPaths());
  },
  // Runs after prerendering: public pages paint before their scripts load (see public-page-preloads.ts).
  async buildEnd({ reactRouterConfig }) {
    writeAppRoutes(reactRouterConfig.buildDirectory, reactRouterConfig.routes);
    const changed = dropPublicPagePreloads(path.join(reactRouterConfig.buildDirectory, "client"), LOCALES);
    if (changed === 0) throw new Error("no prerendered public page found to drop module preloads from");
    // The route manifest is written after the client bundle was compressed.
    precompressLeftovers(path.join(reactRouterConfig.buildDirectory, "client", "assets"));
  },
} satisfies Config;
