import { index, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  // Public, prerendered pages (add their paths to public-pages.ts too).
  route(":lang?", "routes/public.tsx", [
    index("routes/home.tsx"),
    // Every docs page (content/docs/<locale>/**.mdx); `/docs` shows the overview, unknown routes the not-found page.
    route("docs/*", "routes/docs.tsx"),
  ]),
] satisfies RouteConfig;
