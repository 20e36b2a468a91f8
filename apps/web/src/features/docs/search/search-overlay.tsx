import { Modal, TextInput } from "@mantine/core";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { IconSearch } from "../components/icons.tsx";
import classes from "../docs.module.css";
import { useDocs } from "../hooks/use-docs.ts";
import type { PageHit } from "./search-engine.ts";

// flexsearch is only fetched when a reader first opens search.
const engine = () => import("./search-engine.ts");
type LoadedIndex = Awaited<ReturnType<Awaited<ReturnType<typeof engine>>["loadIndex"]>>;

type State = "idle" | "loading" | "ready" | "error";

export default function SearchOverlay({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation("docs");
  const { locale } = useDocs();
  const navigate = useNavigate();
  const [query, setQuery] = useState("");
  const [state, setState] = useState<State>("idle");
  const [results, setResults] = useState<PageHit[]>([]);
  const [active, setActive] = useState(0);
  const index = useRef<{ idx: LoadedIndex; m: Awaited<ReturnType<typeof engine>> } | null>(null);
  const listRef = useRef<HTMLDivElement>(null);

  const ensureLoaded = () => {
    if (index.current || state === "loading") return;
    setState("loading");
    engine()
      .then(async (m) => {
        index.current = { idx: await m.loadIndex(locale), m };
        setState("ready");
      })
      .catch((err: unknown) => {
        console.warn("search index failed to load", err);
        setState("error");
      });
  };

  useEffect(() => {
    if (state === "ready" && index.current) {
      setResults(index.current.m.searchLoaded(index.current.idx, locale, query));
      setActive(0);
    }
  }, [query, state, locale]);

  // Flat list of selectable entries: each page, then its sections.
  const flat = useMemo(
    () =>
      results.flatMap((p) => [
        { key: p.url, href: p.url, title: p.title, excerpt: "", page: p.title, isPage: true },
        ...p.sections
          .filter((s) => s.anchor)
          .map((s) => ({
            key: `${p.url}#${s.anchor}`,
            href: `${p.url}#${s.anchor}`,
            title: s.heading,
            excerpt: s.excerpt,
            page: p.title,
            isPage: false,
          })),
      ]),
    [results],
  );

  // The query's words, highlighted wherever they occur in titles, headings and excerpts.
  const mark = (text: string) => {
    const m = index.current?.m;
    if (!m || !query.trim()) return text;
    return m.highlight(text, m.queryTerms(locale, query)).map((part, i) =>
      part.match ? (
        // biome-ignore lint/suspicious/noArrayIndexKey: parts of one string, in order, never reordered
        <mark key={i} className={classes.searchMark}>
          {part.text}
        </mark>
      ) : (
        part.text
      ),
    );
  };

  useEffect(() => {
    listRef.current?.querySelector(`[data-index="${active}"]`)?.scrollIntoView({ block: "nearest" });
  }, [active]);

  const go = (href: string) => {
    onClose();
    setQuery("");
    navigate(href);
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === "ArrowDown") {
      e.preventDefault();
      setActive((a) => Math.min(a + 1, flat.length - 1));
    } else if (e.key === "ArrowUp") {
      e.preventDefault();
      setActive((a) => Math.max(a - 1, 0));
    } else if (e.key === "Enter" && flat[active]) {
      e.preventDefault();
      go(flat[active].href);
    }
  };

  let body: React.ReactNode = null;
  if (state === "loading") body = <div className={classes.searchState}>{t("search.loading")}</div>;
  else if (state === "error")
    body = (
      <div className={classes.searchState} role="alert">
        {t("search.error")}
      </div>
    );
  else if (query.trim() && state === "ready" && flat.length === 0)
    body = <div className={classes.searchState}>{t("search.empty")}</div>;
  else if (flat.length)
    body = (
      <div className={classes.searchResults} ref={listRef} role="listbox" aria-label={t("search.results")}>
        {flat.map((r, i) => (
          <div
            key={r.key}
            role="option"
            tabIndex={-1}
            aria-selected={i === active}
            data-index={i}
            className={`${classes.searchHit} ${i === active ? classes.searchHitActive : ""}`}
            onMouseMove={() => setActive(i)}
            onMouseDown={(e) => {
              e.preventDefault();
              go(r.href);
            }}
          >
            <div className={classes.searchHitTitle}>
              {r.isPage ? (
                mark(r.title)
              ) : (
                <>
                  {r.page} › {mark(r.title)}
                </>
              )}
            </div>
            {r.excerpt && <div className={classes.searchHitExcerpt}>{mark(r.excerpt)}</div>}
          </div>
        ))}
      </div>
    );

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      withCloseButton={false}
      size="lg"
      padding="sm"
      yOffset="10vh"
      transitionProps={{ duration: 0 }}
    >
      <TextInput
        data-autofocus
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
        onFocus={ensureLoaded}
        onKeyDown={onKeyDown}
        placeholder={t("search.placeholder")}
        aria-label={t("search.placeholder")}
        leftSection={<IconSearch width={16} height={16} />}
        size="md"
        mb={flat.length || state !== "ready" ? "xs" : 0}
        data-testid="docs-search-input"
      />
      {body}
    </Modal>
  );
}
