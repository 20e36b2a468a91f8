import { loaded, loaders } from "virtual:docs/content";
import pageMap from "virtual:docs/page-map";
import { ActionIcon, Button, Loader, Text, Title } from "@mantine/core";
import type { Locale } from "@moonport/contracts";
import type { MDXComponents } from "mdx/types";
import {
  type ComponentType,
  lazy,
  type ReactNode,
  Suspense,
  use,
  useCallback,
  useEffect,
  useRef,
  useState,
} from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { issueLink } from "../config.ts";
import classes from "../docs.module.css";
import { DocsContext, type DocsContextValue, docsHref, useDocs } from "../hooks/use-docs.ts";
import { breadcrumbFor, type DocPage, NOT_FOUND_ROUTE, neighbours } from "../page-map.ts";
import type { TocEntry } from "../pipeline/mdx-plugins.ts";
import { useSearchShortcut } from "../search/use-search-shortcut.ts";
import { IconArrowUp } from "./icons.tsx";
import { mdxComponents } from "./mdx-components.tsx";
import { Banner, Navbar } from "./navbar.tsx";
import { Sidebar } from "./sidebar.tsx";
import { Toc } from "./toc.tsx";

const SearchOverlay = lazy(() => import("../search/search-overlay.tsx"));

export interface MdxModule {
  default: ComponentType<{ components?: MDXComponents }>;
  toc: TocEntry[];
}

/** Toast duration, ms (docs/product-spec.md §9). */
export const TOAST_MS = 2000;
/** The back-to-top button appears after this much scrolling, px (docs/product-spec.md §9). */
export const BACK_TO_TOP_AFTER_PX = 300;

/**
 * A reader of MDX page modules: at once when already loaded (always while prerendering), otherwise it suspends on
 * the page's chunk. On the first load the prerendered HTML stays in place meanwhile (Suspense hydration), so
 * nothing flashes. The docs and the blog each have one.
 */
export function mdxModuleReader(
  loaded: Record<string, MdxModule>,
  loaders: Record<string, () => Promise<MdxModule>>,
): (key: string) => MdxModule {
  const ready = new Map<string, MdxModule>(Object.entries(loaded));
  const pending = new Map<string, Promise<MdxModule>>();
  return function useMdxModule(key) {
    const mod = ready.get(key);
    if (mod) return mod;
    let p = pending.get(key);
    if (!p) {
      const load = loaders[key];
      if (!load) throw new Error(`no MDX module for ${key}`);
      p = load().then((m) => {
        ready.set(key, m);
        return m;
      });
      pending.set(key, p);
    }
    return use(p);
  };
}

const useDocModuleByKey = mdxModuleReader(loaded, loaders);
const useDocModule = (locale: Locale, route: string) => useDocModuleByKey(`/content/docs/${locale}/${route}.mdx`);

function DocBody({
  locale,
  route,
  aside,
  children,
}: {
  locale: Locale;
  route: string;
  aside: boolean;
  children: ReactNode;
}) {
  useHashScroll();
  // Prerendered pages look complete before React takes them over; this marks the moment the body is interactive
  // (heading links, search shortcut), which browser tests wait for.
  useEffect(() => {
    document.documentElement.dataset.docsReady = route;
  }, [route]);
  // Last: when the page's chunk is still loading this suspends, and React replays the component once it arrives.
  // Hooks after it were mounted by that replay with the update dispatcher while the page hydrated (error #467,
  // reported as #422), for instance when the sidebar applied a stored collapsed group meanwhile.
  const mod = useDocModule(locale, route);
  const Content = mod.default;
  return (
    <>
      <main className={classes.main} id="main">
        <article className={classes.article}>
          {children}
          <div className={classes.prose}>
            <Content components={mdxComponents as MDXComponents} />
          </div>
          <PageFooter />
        </article>
      </main>
      {aside && (
        <aside className={classes.aside}>
          <Toc toc={mod.toc} />
        </aside>
      )}
    </>
  );
}

/** Scrolls to the URL hash once the page body exists (client-side navigations land before it renders). */
function useHashScroll() {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const el = document.getElementById(decodeURIComponent(hash.slice(1)));
    el?.scrollIntoView();
  }, [hash]);
}

function Breadcrumb() {
  const { t } = useTranslation("docs");
  const { map, route } = useDocs();
  const trail = breadcrumbFor(map, route);
  if (trail.length < 2) return null;
  return (
    <nav aria-label={t("page.breadcrumb")}>
      <ol className={classes.breadcrumb}>
        {trail.map((c, i) => (
          <li key={`${c.route ?? ""}:${c.title}`} style={{ display: "flex", gap: 6 }}>
            {i > 0 && <span aria-hidden>›</span>}
            {c.route && i < trail.length - 1 ? (
              <Link to={docsHref(c.route)}>{c.title}</Link>
            ) : (
              <span aria-current={i === trail.length - 1 ? "page" : undefined}>{c.title}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

function PageFooter() {
  const { t, i18n } = useTranslation("docs");
  const { map, route } = useDocs();
  const page = map.pages[route];
  const { prev, next } = neighbours(map, route);
  const link = (p: DocPage, kind: "previous" | "next") => (
    <Link
      to={docsHref(p.route)}
      className={`${classes.pagerLink} ${kind === "next" ? classes.pagerNext : ""}`}
      rel={kind === "next" ? "next" : "prev"}
      data-testid={`pager-${kind}`}
    >
      <div className={classes.pagerLabel}>{t(`page.${kind}`)}</div>
      <div>
        {kind === "previous" ? "← " : ""}
        {p.title}
        {kind === "next" ? " →" : ""}
      </div>
    </Link>
  );
  return (
    <>
      {page?.lastUpdated && (
        <p className={classes.lastUpdated} data-testid="last-updated">
          {t("page.lastUpdated", {
            date: new Intl.DateTimeFormat(i18n.language, { dateStyle: "long", timeZone: "UTC" }).format(
              new Date(page.lastUpdated),
            ),
          })}
        </p>
      )}
      {(prev || next) && (
        <nav className={classes.pager}>
          {prev && link(prev, "previous")}
          {next && link(next, "next")}
        </nav>
      )}
    </>
  );
}

/**
 * The body of the not-found (404) and malformed-address (400) pages. One prerendered page serves every such
 * address, so the path is filled in once in the browser.
 */
function AddressProblemBody({ kind }: { kind: "notFound" | "badUrl" }) {
  const { t } = useTranslation("docs");
  const { pathname } = useLocation();
  const [path, setPath] = useState("");
  useEffect(() => setPath(pathname), [pathname]);
  const href = typeof window === "undefined" ? null : window.location.href;
  const report =
    href && (kind === "badUrl" ? issueLink("error", href, "malformed URL") : issueLink("broken-link", href));
  // A malformed address is reported as an error in the URL, a missing page as a broken link.
  const links = kind === "badUrl" ? "error" : "notFound";
  return (
    <main className={classes.main} id="main">
      <article className={classes.article} data-testid={kind === "badUrl" ? "bad-url" : "docs-not-found"}>
        <Text c="dimmed" fw={700} size="xl">
          {kind === "badUrl" ? 400 : 404}
        </Text>
        <Title order={1} mb="sm">
          {t(`${kind}.title`)}
        </Title>
        <Text mb="lg" style={{ overflowWrap: "anywhere" }}>
          {t(`${kind}.body`, { path })}
        </Text>
        <Button component={Link} to={docsHref("overview")} mr="md">
          {t(`${kind}.home`)}
        </Button>
        <ReportLink href={report ?? null} label={t(`${links}.report`)} />
        <FeedbackLink label={t(`${links}.feedback`)} />
      </article>
    </main>
  );
}

export const NotFoundBody = () => <AddressProblemBody kind="notFound" />;
export const BadUrlBody = () => <AddressProblemBody kind="badUrl" />;

function ReportLink({ href, label }: { href: string | null; label: string }) {
  // The target depends on the reader's URL, so it is filled in after hydration; the label is always shown.
  const [target, setTarget] = useState<string | null>(null);
  useEffect(() => setTarget(href), [href]);
  if (!target) return <Text span c="dimmed" size="sm" />;
  return (
    <a href={target} target="_blank" rel="noopener noreferrer" data-testid="report-issue">
      {label}
    </a>
  );
}

/** The console's feedback form, told which page the reader was on (filled in after hydration, like ReportLink). */
function FeedbackLink({ label }: { label: string }) {
  const [from, setFrom] = useState<string | null>(null);
  useEffect(() => setFrom(window.location.href), []);
  return (
    <Text mt="sm" size="sm">
      <Link
        to={from ? `/console/feedback?${new URLSearchParams({ from })}` : "/console/feedback"}
        data-testid="docs-feedback"
      >
        {label}
      </Link>
    </Text>
  );
}

export function ServerErrorBody({ error }: { error: unknown }) {
  const { t } = useTranslation("docs");
  const detail = error instanceof Error ? error.message : String(error);
  const report = typeof window === "undefined" ? null : issueLink("error", window.location.href, detail);
  return (
    <main className={classes.main} id="main">
      <article className={classes.article} data-testid="docs-error">
        <Text c="dimmed" fw={700} size="xl">
          500
        </Text>
        <Title order={1} mb="sm">
          {t("error.title")}
        </Title>
        <Text mb="lg">{t("error.body")}</Text>
        <Button onClick={() => window.location.reload()} mr="md">
          {t("error.reload")}
        </Button>
        <ReportLink href={report} label={t("error.report")} />
        <FeedbackLink label={t("error.feedback")} />
      </article>
    </main>
  );
}

function BackToTop() {
  const { t } = useTranslation("docs");
  const [show, setShow] = useState(false);
  useEffect(() => {
    const onScroll = () => setShow(window.scrollY > BACK_TO_TOP_AFTER_PX);
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);
  if (!show) return null;
  return (
    <ActionIcon
      className={classes.backToTop}
      size="xl"
      radius="xl"
      variant="default"
      aria-label={t("backToTop")}
      onClick={() => window.scrollTo({ top: 0, behavior: "smooth" })}
      data-testid="back-to-top"
    >
      <IconArrowUp />
    </ActionIcon>
  );
}

/** `platformdebug` anywhere in the address loads the bundled mobile console (eruda, from our own assets). */
function usePlatformDebug() {
  useEffect(() => {
    if (!window.location.href.includes("platformdebug")) return;
    import("eruda")
      .then(({ default: eruda }) => eruda.init())
      .catch((err: unknown) => console.warn("debug console failed to load", err));
  }, []);
}

export function DocsShell({
  locale,
  route,
  sidebar = true,
  children,
}: {
  locale: Locale;
  route: string;
  /** False for pages outside the docs (blog, the site's error pages): no docs sidebar. */
  sidebar?: boolean;
  /** Replaces the page body (error boundary, blog, error pages). */
  children?: ReactNode;
}) {
  const map = pageMap[locale];
  const { t } = useTranslation("docs");
  const [toast, setToast] = useState<string | null>(null);
  const toastTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const showToast = useCallback((message: string) => {
    setToast(message);
    clearTimeout(toastTimer.current);
    toastTimer.current = setTimeout(() => setToast(null), TOAST_MS);
  }, []);
  const [searchOpen, setSearchOpen] = useState(false);
  // The overlay's code (and flexsearch after it) loads the first time search is opened.
  const [searchSeen, setSearchSeen] = useState(false);
  const openSearch = useCallback(() => {
    setSearchSeen(true);
    setSearchOpen(true);
  }, []);
  useSearchShortcut(openSearch);
  usePlatformDebug();

  const page: DocPage | undefined = route === NOT_FOUND_ROUTE ? undefined : map.pages[route];
  const ctx: DocsContextValue = { locale, map, route, showToast };
  const withSidebar = sidebar && (page ? page.sidebar && page.layout !== "full" : true);
  const bodyClass = page?.layout === "full" || !sidebar ? classes.bodyFull : withSidebar ? "" : classes.bodyNoSidebar;

  let content: ReactNode;
  if (children) content = children;
  else if (!page) content = <NotFoundBody />;
  else {
    content = (
      <Suspense
        fallback={
          <main className={classes.main}>
            <Loader size="sm" aria-label="loading" />
          </main>
        }
      >
        <DocBody locale={locale} route={route} aside={page.layout !== "full"}>
          <Breadcrumb />
        </DocBody>
      </Suspense>
    );
  }

  return (
    <DocsContext.Provider value={ctx}>
      <div className={classes.root} id="top">
        <a className={classes.skip} href="#main">
          {t("skipToContent")}
        </a>
        <Banner />
        <Navbar onSearch={openSearch} />
        <div className={`${classes.body} ${bodyClass}`}>
          {withSidebar && (
            <aside className={classes.sidebar}>
              <Sidebar />
            </aside>
          )}
          {content}
        </div>
        <DocsFooter />
        <BackToTop />
        {toast && (
          <div className={classes.toast} role="status" aria-live="polite" data-testid="docs-toast">
            {toast}
          </div>
        )}
        {searchSeen && (
          <Suspense fallback={null}>
            <SearchOverlay opened={searchOpen} onClose={() => setSearchOpen(false)} />
          </Suspense>
        )}
      </div>
    </DocsContext.Provider>
  );
}

function DocsFooter() {
  const { t } = useTranslation("docs");
  return <footer className={classes.footer}>{t("footer.copyright", { year: new Date().getFullYear() })}</footer>;
}
