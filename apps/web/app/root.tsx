import "@mantine/core/styles.css";
import { ColorSchemeScript, MantineProvider, mantineHtmlProps } from "@mantine/core";
import type { ReactNode } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation } from "react-router";
import { initI18n } from "../src/i18n/index.ts";
import { pageLocale } from "../src/i18n/page-locale.ts";
import { SITE_CONFIG_SCRIPT } from "../src/lib/site-config.ts";
import { theme } from "../src/theme.ts";

export function Layout({ children }: { children: ReactNode }) {
  // Prerendered copies live under /<locale>/…; in the browser the cookie names the copy the server sent.
  const locale = pageLocale(useLocation().pathname);
  initI18n(locale);
  return (
    <html lang={locale} {...mantineHtmlProps}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {/* The server fills in the deployment's addresses (src/lib/site-config.ts). */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script whose tokens the server replaces */}
        <script suppressHydrationWarning dangerouslySetInnerHTML={{ __html: SITE_CONFIG_SCRIPT }} />
        <ColorSchemeScript defaultColorScheme="auto" />
        <Meta />
        <Links />
      </head>
      <body>
        <MantineProvider theme={theme} defaultColorScheme="auto">
          {children}
        </MantineProvider>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}
