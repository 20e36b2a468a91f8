import { Collapse, HoverCard } from "@mantine/core";
import { LOCALES, type Locale } from "@moonport/contracts";
import { startTransition, useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { siteUrl } from "../../../lib/site-config.ts";
import { docsConfig, QR_PATH } from "../config.ts";
import classes from "../docs.module.css";
import { docsHref, useDocs } from "../hooks/use-docs.ts";
import { localePrefix, type SidebarItem } from "../page-map.ts";
import { IconChevron, IconExternal } from "./icons.tsx";

/** Folders opened or closed by the reader, remembered for the browser session (docs/product-spec.md §2). */
export const SIDEBAR_STORAGE_KEY = "docs-sidebar-folders";
/** Folders at this depth and deeper start collapsed (docs/product-spec.md §9: default menu collapse level 2). */
export const DEFAULT_COLLAPSE_LEVEL = 2;
/** Collapse animation, ms (docs/product-spec.md §9). */
const COLLAPSE_MS = 300;

function readStored(): Record<string, boolean> {
  try {
    return JSON.parse(sessionStorage.getItem(SIDEBAR_STORAGE_KEY) ?? "{}") as Record<string, boolean>;
  } catch {
    return {};
  }
}

function containsRoute(items: SidebarItem[], route: string): boolean {
  return items.some(
    (it) => (it.kind === "page" && it.route === route) || (it.kind === "folder" && containsRoute(it.children, route)),
  );
}

/** Where a quick link points: its own href, or the configured address for the well-known names. */
function quickHref(name: string, href: string | null): string | null {
  if (href) return href;
  const byName: Record<string, string | null> = {
    home: docsConfig.homeUrl,
    forum: docsConfig.forumUrl,
    community: docsConfig.communityUrl,
    email: docsConfig.contactEmail ? `mailto:${docsConfig.contactEmail}` : null,
    contact: docsConfig.contactEmail ? `mailto:${docsConfig.contactEmail}` : null,
    changelog: docsConfig.changelogUrl,
  };
  return byName[name] ?? null;
}

function External({ href, title, newWindow }: { href: string; title: string; newWindow: boolean }) {
  const external = newWindow && !href.startsWith("mailto:");
  return (
    <a
      className={classes.menuItem}
      href={href}
      target={external ? "_blank" : undefined}
      rel={external ? "noopener noreferrer" : undefined}
    >
      {title}
      {external && <IconExternal style={{ marginLeft: "auto", opacity: 0.6 }} />}
    </a>
  );
}

function Special({ item }: { item: Extract<SidebarItem, { kind: "special" }> }) {
  const { t } = useTranslation("docs");
  const { locale, route } = useDocs();
  if (item.special === "siteSwitch") {
    const other: Locale = LOCALES.find((l) => l !== locale)!;
    const href = `${siteUrl(other)}${localePrefix(other)}/docs/${route || "overview"}`;
    return (
      <a className={classes.menuItem} href={href} hrefLang={other} data-testid="site-switch">
        {item.title}
      </a>
    );
  }
  if (item.special === "quick") {
    const href = quickHref(item.name, item.href);
    return href ? <External href={href} title={item.title} newWindow={item.newWindow} /> : null;
  }
  const target = item.href ?? docsConfig.qr[item.special];
  if (!target) return null;
  return (
    <HoverCard position="right" withArrow shadow="md" openDelay={100}>
      <HoverCard.Target>
        <a className={classes.menuItem} href={target} target="_blank" rel="noopener noreferrer">
          {item.title}
        </a>
      </HoverCard.Target>
      <HoverCard.Dropdown>
        <img className={classes.qr} src={QR_PATH(item.special)} alt={item.title} width={144} height={144} />
        <div style={{ fontSize: 12, textAlign: "center", marginTop: 6 }}>{t("sidebar.scan")}</div>
      </HoverCard.Dropdown>
    </HoverCard>
  );
}

function Items({
  items,
  depth,
  path,
  open,
  toggle,
}: {
  items: SidebarItem[];
  depth: number;
  path: string;
  open: (key: string, item: Extract<SidebarItem, { kind: "folder" }>, depth: number) => boolean;
  toggle: (key: string, value: boolean) => void;
}) {
  const { route } = useDocs();
  return (
    <ul className={classes.menu}>
      {items.map((item, i) => {
        switch (item.kind) {
          case "page": {
            const active = item.route === route;
            return (
              <li key={item.route}>
                <Link
                  className={`${classes.menuItem} ${active ? classes.menuItemActive : ""}`}
                  to={docsHref(item.route)}
                  aria-current={active ? "page" : undefined}
                >
                  {item.title}
                </Link>
              </li>
            );
          }
          case "folder": {
            const key = path ? `${path}/${item.name}` : item.name;
            const isOpen = open(key, item, depth);
            return (
              <li key={key}>
                <button
                  type="button"
                  className={classes.menuItem}
                  aria-expanded={isOpen}
                  onClick={() => toggle(key, !isOpen)}
                  data-folder={key}
                >
                  {item.title}
                  <IconChevron
                    width={14}
                    height={14}
                    className={`${classes.chevron} ${isOpen ? classes.chevronOpen : ""}`}
                  />
                </button>
                <Collapse in={isOpen} transitionDuration={COLLAPSE_MS}>
                  <Items items={item.children} depth={depth + 1} path={key} open={open} toggle={toggle} />
                </Collapse>
              </li>
            );
          }
          case "separator":
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: separators have no identity but their position
              <li key={`sep-${i}`} className={item.title ? classes.separator : classes.separatorLine}>
                {item.title}
              </li>
            );
          case "link":
            return (
              <li key={item.name}>
                <External href={item.href} title={item.title} newWindow={item.newWindow} />
              </li>
            );
          case "special":
            return (
              <li key={item.name}>
                <Special item={item} />
              </li>
            );
          default:
            return null;
        }
      })}
    </ul>
  );
}

const hasSpecial = (items: SidebarItem[]): boolean =>
  items.some((it) => it.kind === "special" || (it.kind === "folder" && hasSpecial(it.children)));

/**
 * The community and site links of docs/product-spec.md §2 when the content's _meta.json does not place them itself:
 * home site, forum, chat community, contact e-mail, changelog, the global/China switch, and in zh-CN the QR entries.
 */
function defaultSpecials(locale: Locale, t: (k: string) => string): SidebarItem[] {
  const quick = (name: string, key: string): SidebarItem => ({
    kind: "special",
    special: "quick",
    name,
    title: t(`sidebar.${key}`),
    href: null,
    newWindow: name !== "home",
  });
  const qr = (special: "kefu" | "devgroup" | "official"): SidebarItem => ({
    kind: "special",
    special,
    name: special,
    title: t(`sidebar.${special}`),
    href: null,
    newWindow: true,
  });
  return [
    { kind: "separator", title: null },
    quick("home", "home"),
    quick("forum", "forum"),
    quick("community", "community"),
    quick("email", "email"),
    quick("changelog", "changelog"),
    {
      kind: "special",
      special: "siteSwitch",
      name: "site-switch",
      title: t(locale === "zh-CN" ? "sidebar.switchToGlobal" : "sidebar.switchToCn"),
      href: null,
      newWindow: false,
    },
    ...(locale === "zh-CN" ? [qr("kefu"), qr("devgroup"), qr("official")] : []),
  ];
}

/** Keys of the folders that hold `route` ("guide", "guide/advanced"), the same keys the sidebar stores. */
function foldersHolding(items: SidebarItem[], route: string, path = ""): string[] {
  for (const it of items) {
    if (it.kind !== "folder" || !containsRoute(it.children, route)) continue;
    const key = path ? `${path}/${it.name}` : it.name;
    return [key, ...foldersHolding(it.children, route, key)];
  }
  return [];
}

export function Sidebar() {
  const { map, route, locale } = useDocs();
  const { t } = useTranslation("docs");
  // The first render matches the prerendered HTML (defaults, nothing stored); the reader's session choices apply
  // after hydration, in a transition, so they never interrupt the page body's hydration (still waiting for its
  // chunk); docs-layout.tsx's DocBody is written to survive such an update (error #422).
  const [stored, setStored] = useState<Record<string, boolean>>({});
  useEffect(() => {
    // The folders holding the current page always open, whatever was stored: the active entry must be visible.
    const next = readStored();
    for (const key of foldersHolding(map.sidebar, route)) if (next[key] === false) delete next[key];
    startTransition(() => setStored(next));
  }, [map, route]);
  const open = useCallback(
    (key: string, item: Extract<SidebarItem, { kind: "folder" }>, depth: number) =>
      stored[key] ?? (depth < DEFAULT_COLLAPSE_LEVEL || containsRoute(item.children, route)),
    [stored, route],
  );
  const toggle = useCallback((key: string, value: boolean) => {
    setStored((prev) => {
      const next = { ...prev, [key]: value };
      sessionStorage.setItem(SIDEBAR_STORAGE_KEY, JSON.stringify(next));
      return next;
    });
  }, []);
  return (
    <nav aria-label={t("sidebar.label")}>
      <Items
        items={hasSpecial(map.sidebar) ? map.sidebar : [...map.sidebar, ...defaultSpecials(locale, t)]}
        depth={1}
        path=""
        open={open}
        toggle={toggle}
      />
    </nav>
  );
}
