import { index, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  // Docs pages at /docs/… and their prerendered per-locale copies at /<locale>/docs/… (see routes/docs.tsx).
  route(":locale?/docs/*", "routes/docs.tsx"),
] satisfies RouteConfig;
