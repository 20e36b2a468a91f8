import type { Config } from "@react-router/dev/config";
import { localizedPrerenderPaths, publicPaths } from "./public-pages.ts";

export default {
  appDirectory: "app",
  // Public pages are prerendered to static HTML, once per locale; console and sign-in are client-only (SPA fallback).
  ssr: false,
  async prerender() {
    return localizedPrerenderPaths(publicPaths());
  },
} satisfies Config;
