/** Links of the public site's header and footer. Only pages that exist are listed. */
export const SITE_LINKS = [
  { to: "/docs/overview", label: "home:nav.docs" },
  { to: "/docs/pricing/chat", label: "home:nav.pricing" },
  { to: "/playground", label: "home:nav.playground" },
  { to: "/console", label: "home:nav.console" },
  { to: "/contact-sales", label: "home:nav.contactSales" },
] as const;
