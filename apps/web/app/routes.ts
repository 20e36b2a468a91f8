import { index, layout, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  // Public, prerendered pages: nest them here and add their paths to public-pages.ts (see apps/web/README.md).
  route(":lang?", "routes/public.tsx", [
    index("routes/home.tsx"),
    route("contact-sales", "routes/contact-sales.tsx"),
    // Every docs page (content/docs/<locale>/**.mdx); `/docs` shows the overview, unknown routes the not-found page.
    route("docs/*", "routes/docs.tsx"),
    // The blog: content/blog/<locale>/*.mdx; unknown posts show the site's not-found page.
    route("blog/*", "routes/blog.tsx"),
  ]),

  // Client-only pages (SPA fallback). Their layout loads the Mantine styles public pages do not need.
  layout("routes/app.tsx", [
    route("signin", "routes/auth/signin.tsx"),
    route("signup", "routes/auth/signup.tsx"),
    route("setup", "routes/auth/setup.tsx"),
    route("invite/:token", "routes/invite/token.tsx"),
    // The playground: a top-navbar page in the console frame, without the console sidebar.
    route("playground", "routes/playground.tsx"),

    // Console: every screen inside the shell; add its sidebar entry in src/features/console/nav.ts.
    route("console", "routes/console/layout.tsx", [
      index("routes/console/overview.tsx", { id: "console-home" }),
      route("overview", "routes/console/overview.tsx"),
      route("organization/:tab?", "routes/console/organization.tsx"),
      route("projects", "routes/console/projects.tsx"),
      route("projects/:projectId/:tab?", "routes/console/project.tsx"),
      route("api-keys", "routes/console/api-keys.tsx"),
      route("limits", "routes/console/limits.tsx"),
      route("consumption", "routes/console/consumption.tsx"),
      route("bills", "routes/console/bills.tsx"),
      route("exports", "routes/console/bill-exports.tsx"),
      route("alerts", "routes/console/alerts.tsx"),
      route("files", "routes/console/files.tsx"),
      route("context-caching", "routes/console/context-caching.tsx"),
      route("profile", "routes/console/profile.tsx"),
      route("feedback", "routes/console/feedback.tsx"),
      route("billing", "routes/console/billing.tsx"),
      route("billing/recharge", "routes/console/recharge.tsx"),
      route("billing/vouchers", "routes/console/vouchers.tsx"),
      route("billing/invoices", "routes/console/invoices.tsx"),
      route("billing/refunds", "routes/console/refunds.tsx"),
    ]),

    // The back office (operator only; see routes/admin/layout.tsx).
    route("admin", "routes/admin/layout.tsx", [
      index("routes/admin/dashboard.tsx"),
      route("organizations", "routes/admin/organizations.tsx"),
      route("organizations/:orgId", "routes/admin/organization.tsx"),
      route("users", "routes/admin/users.tsx"),
      route("users/:userId", "routes/admin/user.tsx"),
      route("queues/:tab?", "routes/admin/queues.tsx"),
      route("codes", "routes/admin/codes.tsx"),
      route("audit", "routes/admin/audit.tsx"),
      route("catalog", "routes/admin/catalog.tsx"),
      route("riddles", "routes/admin/riddles.tsx"),
    ]),
  ]),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
