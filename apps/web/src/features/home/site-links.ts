/**
 * Links of the public site's header and footer. Only pages that exist are listed: add the playground
 * (`/playground`) here in the same commit as its route.
 */
export const SITE_LINKS = [
  { to: "/docs/overview", label: "home:nav.docs" },
  { to: "/docs/pricing/chat", label: "home:nav.pricing" },
  { to: "/console", label: "home:nav.console" },
] as const;
