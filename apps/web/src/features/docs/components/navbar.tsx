import { ActionIcon, Burger, CloseButton, Menu, Tooltip, useMantineColorScheme } from "@mantine/core";
import { LOCALES, type Locale } from "@moonport/contracts";
import { lazy, Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { LogoMark } from "../../../components/logo.tsx";
import { stripLocalePrefix, switchLocale } from "../../../i18n/index.ts";
import { siteConfig } from "../../../lib/site-config.ts";
import { docsConfig } from "../config.ts";
import classes from "../docs.module.css";
import { docsHref, useDocs } from "../hooks/use-docs.ts";
import { EARLY_SEARCH_SCRIPT } from "../search/use-search-shortcut.ts";
import { IconLanguage, IconMonitor, IconMoon, IconSearch, IconSun } from "./icons.tsx";
import { type NavItem, NavLink } from "./nav-link.tsx";

const MobileMenu = lazy(() => import("./mobile-menu.tsx"));

/** The banner's dismissal is remembered in local storage (docs/product-spec.md §2). */
export const BANNER_STORAGE_KEY = "docs-banner-dismissed";
/** Bump when the announcement changes so readers who closed the old one see the new one. */
const BANNER_VERSION = "promotion-1";

export function Banner() {
  const { t } = useTranslation("docs");
  // Rendered in the prerendered HTML; hidden after hydration for readers who dismissed it.
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    if (localStorage.getItem(BANNER_STORAGE_KEY) === BANNER_VERSION) setVisible(false);
  }, []);
  if (!visible) return null;
  return (
    <div className={classes.banner} data-testid="docs-banner">
      <span>{t("banner.text")}</span>
      <Link to={docsHref("promotion")}>{t("banner.link")} →</Link>
      <CloseButton
        className={classes.bannerClose}
        size="sm"
        variant="transparent"
        c="white"
        aria-label={t("banner.dismiss")}
        onClick={() => {
          localStorage.setItem(BANNER_STORAGE_KEY, BANNER_VERSION);
          setVisible(false);
        }}
      />
    </div>
  );
}

export function navItems(locale: Locale, t: (k: string) => string): NavItem[] {
  const p = docsConfig.navPages;
  // BLOG_URL, or the site's own /blog (a site token: known from the first render, the same in the HTML).
  const blog = siteConfig().blogUrl;
  const items: (NavItem | null)[] = [
    p.agreement ? { key: "agreement", href: docsHref("agreement/modeluse"), label: t("nav.agreement") } : null,
    p.contactSales ? { key: "contact-sales", href: "/contact-sales", label: t("nav.contactSales") } : null,
    { key: "docs", href: docsHref("overview"), label: t("nav.docs"), router: true },
    { key: "pricing", href: docsHref("pricing/chat"), label: t("nav.pricing"), router: true },
    p.playground ? { key: "playground", href: "/playground", label: t("nav.playground") } : null,
    p.console ? { key: "console", href: "/console", label: t("nav.console") } : null,
    // The Chinese set links the blog, in a new tab (spec: top navbar pages).
    locale === "zh-CN" ? { key: "blog", href: blog, label: t("nav.blog"), external: true } : null,
  ];
  return items.filter((x): x is NavItem => x !== null);
}

export function ThemeSwitch() {
  const { t } = useTranslation("docs");
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  const options = [
    { value: "light", label: t("theme.light"), icon: <IconSun /> },
    { value: "dark", label: t("theme.dark"), icon: <IconMoon /> },
    { value: "auto", label: t("theme.system"), icon: <IconMonitor /> },
  ] as const;
  const current = options.find((o) => o.value === colorScheme) ?? options[2];
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Tooltip label={t("theme.label")} withArrow>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t("theme.label")} data-testid="theme-switch">
            {current.icon}
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        {options.map((o) => (
          <Menu.Item
            key={o.value}
            leftSection={o.icon}
            onClick={() => setColorScheme(o.value)}
            fw={o.value === colorScheme ? 700 : undefined}
          >
            {o.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

export function LanguageSwitch() {
  const { t } = useTranslation("docs");
  const { locale } = useDocs();
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Tooltip label={t("language.label")} withArrow>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={t("language.label")}
            data-testid="language-switch"
          >
            <IconLanguage />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        {LOCALES.map((l) => (
          <Menu.Item key={l} onClick={() => switchLocale(l)} fw={l === locale ? 700 : undefined} lang={l}>
            {t(`language.${l}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

/** The navbar entry of the current page: pricing pages under "Pricing", every other docs page under "Docs". */
function activeKey(path: string): string | undefined {
  if (path.startsWith("/docs/pricing")) return "pricing";
  if (path.startsWith("/blog")) return "blog";
  return path.startsWith("/docs") ? "docs" : undefined;
}

export function Navbar({ onSearch }: { onSearch: () => void }) {
  const { t } = useTranslation("docs");
  const { locale } = useDocs();
  const location = useLocation();
  const [mobileOpen, setMobileOpen] = useState(false);
  const [mobileSeen, setMobileSeen] = useState(false);
  useEffect(() => {
    if (mobileOpen) setMobileSeen(true);
  }, [mobileOpen]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a navigation closes the mobile menu
  useEffect(() => setMobileOpen(false), [location.pathname]);
  const items = navItems(locale, t);
  const active = activeKey(stripLocalePrefix(location.pathname));
  return (
    <header className={classes.header}>
      <div className={classes.headerInner}>
        <Burger
          className={classes.mobileOnly}
          opened={mobileOpen}
          onClick={() => setMobileOpen((o) => !o)}
          size="sm"
          aria-label={mobileOpen ? t("nav.closeMenu") : t("nav.menu")}
        />
        {/* The accessible name starts with the visible words (WCAG 2.5.3), then says where the link goes. */}
        <a
          className={classes.logo}
          href={docsConfig.homeUrl}
          aria-label={`${t("brand")} ${t("docsTitle")}, ${t("nav.home")}`}
        >
          {/* The same mark as the home page and the console. */}
          <LogoMark size={26} />
          {t("brand")}
          <span className={classes.logoDocs}>{t("docsTitle")}</span>
        </a>
        <nav className={`${classes.navLinks} ${classes.desktopOnly}`}>
          {items.map((item) => (
            <NavLink key={item.key} item={item} active={active === item.key} />
          ))}
        </nav>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script (search pressed before hydration) */}
        <script suppressHydrationWarning dangerouslySetInnerHTML={{ __html: EARLY_SEARCH_SCRIPT }} />
        <button
          type="button"
          className={classes.searchButton}
          onClick={onSearch}
          aria-label={t("search.button")}
          data-docs-search
        >
          <IconSearch width={16} height={16} />
          <span className={classes.desktopOnly}>{t("search.placeholder")}</span>
          <kbd>/</kbd>
        </button>
        <ThemeSwitch />
        <LanguageSwitch />
      </div>
      {/* The mobile menu's code loads the first time it is opened. */}
      {mobileSeen && (
        <Suspense fallback={null}>
          <MobileMenu opened={mobileOpen} onClose={() => setMobileOpen(false)} items={items} activeKey={active} />
        </Suspense>
      )}
    </header>
  );
}
