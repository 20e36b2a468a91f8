import type { Config } from "@react-router/dev/config";
import { docsPrerenderPaths } from "./src/features/docs/build/prerender.ts";

export default {
  appDirectory: "app",
  // Public pages are prerendered to static HTML; console and playground are client-only (SPA fallback).
  ssr: false,
  async prerender() {
    return ["/", ...docsPrerenderPaths()];
  },
} satisfies Config;
