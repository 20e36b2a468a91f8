import type { Config } from "@react-router/dev/config";

export default {
  appDirectory: "app",
  // Public pages are prerendered to static HTML; console and playground are client-only (SPA fallback).
  ssr: false,
  async prerender() {
    return ["/"];
  },
} satisfies Config;
