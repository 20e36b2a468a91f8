import { index, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  // Public, prerendered pages (add their paths to public-pages.ts too).
  route(":lang?", "routes/public.tsx", [index("routes/home.tsx")]),
] satisfies RouteConfig;
