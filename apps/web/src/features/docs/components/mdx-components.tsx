/**
 * What MDX pages render with: the components content may use without importing (content/docs/README.md), and the
 * overrides of plain Markdown elements (headings that copy their link, internal links through the router, code
 * blocks with a copy button, the edition's API base URL inside code).
 */
import { Alert } from "@mantine/core";
import type { ComponentPropsWithoutRef, ReactNode } from "react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { apiBaseUrl } from "../../../lib/site-config.ts";
import classes from "../docs.module.css";
import { useDocs } from "../hooks/use-docs.ts";
import { IconCheck, IconCopy } from "./icons.tsx";
import { CachingPriceTable, ModelTable, PriceTable, TierTable, ToolPriceTable } from "./price-tables.tsx";

const CALLOUT_COLOR = { info: "indigo", tip: "teal", warning: "orange" } as const;

function Callout({ type = "info", children }: { type?: keyof typeof CALLOUT_COLOR; children: ReactNode }) {
  return (
    <Alert color={CALLOUT_COLOR[type] ?? "indigo"} variant="light" my="md" styles={{ message: { fontSize: 15 } }}>
      {children}
    </Alert>
  );
}

function ApiBaseUrl() {
  const { locale } = useDocs();
  return <>{apiBaseUrl(locale)}</>;
}

/**
 * Copies `url` and shows the "Link copied" toast; a refusal by the browser is only logged (docs/product-spec.md §2).
 */
export function useCopyLink() {
  const { showToast } = useDocs();
  const { t } = useTranslation("docs");
  return (hash: string | null) => {
    const url = `${window.location.origin}${window.location.pathname}${hash ? `#${hash}` : ""}`;
    if (hash) window.history.replaceState(window.history.state, "", `#${hash}`);
    navigator.clipboard
      .writeText(url)
      .then(() => showToast(t("page.linkCopied")))
      .catch((err: unknown) => console.warn("copy link failed", err));
  };
}

function heading(Tag: "h1" | "h2" | "h3" | "h4" | "h5" | "h6") {
  return function Heading({ id, children, ...rest }: ComponentPropsWithoutRef<"h2">) {
    const copy = useCopyLink();
    const { t } = useTranslation("docs");
    return (
      // The heading itself is the click target (docs/product-spec.md §2); the anchor link is its keyboard-reachable
      // twin.
      <Tag id={id} {...rest} onClick={() => copy(Tag === "h1" ? null : (id ?? null))}>
        {children}
        {Tag !== "h1" && id && (
          <a
            className={classes.anchor}
            href={`#${id}`}
            aria-label={t("page.copyLink")}
            onClick={(e) => {
              e.preventDefault();
              e.stopPropagation();
              copy(id);
            }}
          >
            #
          </a>
        )}
      </Tag>
    );
  };
}

function Anchor({ href = "", children, ...rest }: ComponentPropsWithoutRef<"a">) {
  if (href.startsWith("/docs")) {
    return (
      <Link to={href} {...rest}>
        {children}
      </Link>
    );
  }
  if (/^https?:\/\//.test(href)) {
    return (
      <a href={href} target="_blank" rel="noopener noreferrer" {...rest}>
        {children}
      </a>
    );
  }
  return (
    <a href={href} {...rest}>
      {children}
    </a>
  );
}

function CodeBlock({ children, ...rest }: ComponentPropsWithoutRef<"pre"> & { "data-language"?: string }) {
  const { t } = useTranslation("docs");
  const [copied, setCopied] = useState(false);
  const lang = rest["data-language"];
  return (
    <div className={classes.codeBlock}>
      <pre {...rest}>{children}</pre>
      {lang && lang !== "text" && <span className={classes.codeLang}>{lang}</span>}
      {/* A plain button: a floating tooltip per code block costs more to hydrate than it gives. */}
      <button
        type="button"
        className={classes.codeCopy}
        title={copied ? t("page.codeCopied") : t("page.copyCode")}
        aria-label={copied ? t("page.codeCopied") : t("page.copyCode")}
        onClick={(e) => {
          const code = e.currentTarget.parentElement?.querySelector("pre")?.textContent ?? "";
          navigator.clipboard
            .writeText(code)
            .then(() => {
              setCopied(true);
              setTimeout(() => setCopied(false), 2000);
            })
            .catch((err: unknown) => console.warn("copy code failed", err));
        }}
      >
        {copied ? <IconCheck width={14} height={14} /> : <IconCopy width={14} height={14} />}
      </button>
    </div>
  );
}

/** Screenshots below the fold load when they come near (content/docs/README.md, Images). */
function Img(props: ComponentPropsWithoutRef<"img">) {
  // biome-ignore lint/a11y/useAltText: alt comes from the Markdown image syntax, which the README requires
  return <img loading="lazy" decoding="async" {...props} />;
}

export const mdxComponents = {
  Callout,
  PriceTable,
  CachingPriceTable,
  ToolPriceTable,
  TierTable,
  ModelTable,
  ApiBaseUrl,
  h1: heading("h1"),
  h2: heading("h2"),
  h3: heading("h3"),
  h4: heading("h4"),
  h5: heading("h5"),
  h6: heading("h6"),
  a: Anchor,
  img: Img,
  pre: CodeBlock,
};
