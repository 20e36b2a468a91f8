/**
 * Placeholders for deployment facts in prerendered files (HTML, sitemap.xml, robots.txt). The web build writes
 * them; the server replaces them in every such file it sends with the configured brand, sites and API base URLs,
 * or the request's own origin, so one build serves any deployment (apps/server/src/http/web.ts). Because the
 * values arrive with the page, public pages render the right brand and addresses without asking /api/config.
 */
export const SITE_TOKENS = {
  siteCn: "__MP_SITE_CN__",
  siteGlobal: "__MP_SITE_GLOBAL__",
  apiCn: "__MP_API_CN__",
  apiGlobal: "__MP_API_GLOBAL__",
  /** BRAND_NAME; env.ts keeps it free of characters that would need escaping in HTML, attributes or JSON. */
  brand: "__MP_BRAND__",
  /** "true" when CN_SITE_URL and GLOBAL_SITE_URL are both set (two-host mode), else "false". */
  twoHost: "__MP_TWO_HOST__",
  /** The zh-CN navbar's blog link: BLOG_URL, or the site's own /blog. */
  blogUrl: "__MP_BLOG_URL__",
} as const;

/** Characters BRAND_NAME may not contain, so that it can replace a token anywhere in HTML, XML or JSON. */
export const BRAND_UNSAFE_CHARS = /[<>&"'`\\\p{Cc}]/u;

export type SiteTokenValues = { [K in keyof typeof SITE_TOKENS]: string };

/**
 * The public site's own error pages, prerendered per locale like every public page (unprefixed paths). The server
 * answers an unknown path with `notFound` (status 404) and a malformed address with `badUrl` (status 400); the web
 * app renders the same page for any such address, so the prerendered HTML hydrates wherever it is sent.
 */
export const SITE_ERROR_PAGES = { notFound: "/404", badUrl: "/400" } as const;
