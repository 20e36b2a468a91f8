/**
 * Placeholders for deployment addresses in prerendered files (HTML, sitemap.xml, robots.txt). The web build writes
 * them; the server replaces them in every such file it sends with the configured sites and API base URLs, or the
 * request's own origin, so one build serves any deployment (apps/server/src/http/web.ts).
 */
export const SITE_TOKENS = {
  siteCn: "__MP_SITE_CN__",
  siteGlobal: "__MP_SITE_GLOBAL__",
  apiCn: "__MP_API_CN__",
  apiGlobal: "__MP_API_GLOBAL__",
} as const;

export type SiteTokenValues = { [K in keyof typeof SITE_TOKENS]: string };
