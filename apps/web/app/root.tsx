// Base styles and the public pages' components; the rest comes with client-only pages (routes/app.tsx).
import "../src/styles/mantine-public.css";
import {
  Center,
  ColorSchemeScript,
  Loader,
  MantineProvider,
  mantineHtmlProps,
  useMantineColorScheme,
} from "@mantine/core";
import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, type ReactNode, Suspense, useEffect, useState } from "react";
import { I18nextProvider } from "react-i18next";
import { isRouteErrorResponse, Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation } from "react-router";
import { initI18n, localeForPath } from "../src/i18n/index.ts";
import { createQueryClient } from "../src/lib/query-client.ts";
import { SITE_CONFIG_SCRIPT } from "../src/lib/site-config.ts";
import { THEME_STORAGE_KEY, theme, themeColorSchemeManager } from "../src/theme.ts";
import { SPLAT_ROUTE_ID } from "./error-pages.ts";

const colorSchemeManager = themeColorSchemeManager();

// Loaded only when an error shows: its config query (zod schemas) stays out of every page's bundle.
const ErrorPage = lazy(() => import("../src/components/error-page.tsx").then((m) => ({ default: m.ErrorPage })));

/**
 * The document and the app-wide providers (theme, i18n, data) shared by every part of the web app: public pages,
 * docs, console. Section layouts live in their own route modules; notifications and modals, which only the
 * client-only pages use, are provided by routes/app.tsx so public pages neither load nor hydrate them.
 */
export function Layout({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const locale = localeForPath(pathname);
  const i18n = initI18n(locale);
  const [queryClient] = useState(createQueryClient);
  useEffect(() => {
    // The SPA fallback page was rendered once at build time in the default locale.
    document.documentElement.lang = locale;
  }, [locale]);
  return (
    <html lang={locale} {...mantineHtmlProps}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* The server fills in the deployment's addresses (src/lib/site-config.ts). */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script whose tokens the server replaces */}
        <script suppressHydrationWarning dangerouslySetInnerHTML={{ __html: SITE_CONFIG_SCRIPT }} />
        <ColorSchemeScript defaultColorScheme="auto" localStorageKey={THEME_STORAGE_KEY} />
        <Meta />
        <StyleLinks />
      </head>
      <body>
        <I18nextProvider i18n={i18n}>
          <QueryClientProvider client={queryClient}>
            <MantineProvider
              theme={theme}
              defaultColorScheme="auto"
              colorSchemeManager={colorSchemeManager}
              // The manager writes data-mantine-color-scheme (src/theme.ts), so Mantine's hydration-time
              // default never overwrites what the inline script set before first paint.
              getRootElement={noRootElement}
            >
              <StoredThemeAfterHydration />
              {children}
            </MantineProvider>
          </QueryClientProvider>
        </I18nextProvider>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

const noRootElement = () => undefined;

/**
 * The site's error pages are sent for any unknown or malformed address (apps/server/src/http/web.ts): rendered by
 * the splat route, they hydrate at an address whose routes may carry other stylesheets (home's, the blog's).
 * There the first render repeats the stylesheet links the HTML has, so hydration matches it; the routes' own
 * links join after hydration. Every other page renders React Router's links as they are.
 */
function StyleLinks() {
  const [sent] = useState(errorPageStylesheets);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (!sent) return <Links />;
  return (
    <>
      {sent.map((href) => (
        <link key={href} rel="stylesheet" href={href} />
      ))}
      {hydrated && <Links />}
    </>
  );
}

/** In the browser, on a page rendered by the splat route (app/entry.client.tsx): the stylesheets it was sent with. */
function errorPageStylesheets(): string[] | null {
  if (typeof document === "undefined" || !window.__reactRouterRouteModules?.[SPLAT_ROUTE_ID]) return null;
  return [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map(
    (l) => l.getAttribute("href") ?? "",
  );
}

/** After the first client render (which matched the prerendered HTML), switch to the stored theme choice. */
function StoredThemeAfterHydration() {
  const { setColorScheme } = useMantineColorScheme();
  useEffect(() => {
    colorSchemeManager.markHydrated();
    const stored = colorSchemeManager.get("auto");
    if (stored !== "auto") setColorScheme(stored);
  }, [setColorScheme]);
  return null;
}

export default function App() {
  return <Outlet />;
}

/** Shown while client-only routes (console, sign-in) load from the SPA fallback page. */
export function HydrateFallback() {
  return (
    <Center h="100vh">
      <Loader type="dots" />
    </Center>
  );
}

export function ErrorBoundary({ error }: { error: unknown }) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!notFound) console.error(error);
  return (
    <Suspense fallback={null}>
      <ErrorPage kind={notFound ? "notFound" : "error"} />
    </Suspense>
  );
}
