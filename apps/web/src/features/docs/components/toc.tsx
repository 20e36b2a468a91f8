import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import classes from "../docs.module.css";
import type { TocEntry } from "../pipeline/mdx-plugins.ts";

/** Table of contents for h2–h6 with the heading in view highlighted. */
export function Toc({ toc }: { toc: TocEntry[] }) {
  const { t } = useTranslation("docs");
  const [activeId, setActiveId] = useState<string | null>(null);
  useEffect(() => {
    if (!toc.length || typeof IntersectionObserver === "undefined") return;
    const els = toc.map((e) => document.getElementById(e.id)).filter((e): e is HTMLElement => e !== null);
    const observer = new IntersectionObserver(
      (entries) => {
        const visible = entries
          .filter((e) => e.isIntersecting)
          .sort((a, b) => a.boundingClientRect.top - b.boundingClientRect.top);
        if (visible[0]) setActiveId(visible[0].target.id);
      },
      { rootMargin: "-70px 0px -65% 0px" },
    );
    for (const el of els) observer.observe(el);
    return () => observer.disconnect();
  }, [toc]);
  if (!toc.length) return null;
  const minDepth = Math.min(...toc.map((e) => e.depth));
  return (
    <nav aria-labelledby="toc-title" data-testid="docs-toc">
      <div id="toc-title" className={classes.tocTitle}>
        {t("toc.outline")}
      </div>
      <ul className={classes.toc}>
        {toc.map((e) => (
          <li key={e.id} style={{ paddingLeft: (e.depth - minDepth) * 12 }}>
            <a href={`#${e.id}`} className={e.id === activeId ? classes.tocActive : undefined}>
              {e.text}
            </a>
          </li>
        ))}
      </ul>
      <div className={classes.tocTop}>
        <button type="button" onClick={() => window.scrollTo({ top: 0, behavior: "smooth" })}>
          {t("toc.backToTop")} ↑
        </button>
      </div>
    </nav>
  );
}
