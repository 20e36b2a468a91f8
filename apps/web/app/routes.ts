import { index, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  // Public, prerendered pages: nest them here and add their paths to public-pages.ts (see ARCHITECTURE.md).
  route(":lang?", "routes/public.tsx", [index("routes/home.tsx")]),

  // Client-only pages (SPA fallback).
  route("signin", "routes/auth/signin.tsx"),
  route("signup", "routes/auth/signup.tsx"),
  route("setup", "routes/auth/setup.tsx"),

  // Console: every screen inside the shell; add its sidebar entry in src/features/console/nav.ts.
  route("console", "routes/console/layout.tsx", [
    // The console's start page; becomes the organization overview when that screen exists.
    index("routes/console/profile.tsx", { id: "console-home" }),
    route("profile", "routes/console/profile.tsx"),
  ]),
] satisfies RouteConfig;
