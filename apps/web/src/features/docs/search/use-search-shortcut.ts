import { useEffect } from "react";

declare global {
  interface Window {
    /** Written by EARLY_SEARCH_SCRIPT: whether search was asked for before the page hydrated. */
    __docsSearch?: { pending: boolean; ready: boolean };
  }
}

/**
 * Runs from the prerendered HTML, before React: a "/" or Ctrl/Cmd+K press, or a click on the search button, made
 * while the page's scripts still load is remembered, and search opens as soon as the page is interactive.
 * A constant, so the page's Content-Security-Policy allows it by hash (apps/server/src/http/security-headers.ts).
 */
export const EARLY_SEARCH_SCRIPT = `(function(){var w=window;if(w.__docsSearch)return;var s=w.__docsSearch={pending:false,ready:false};addEventListener("keydown",function(e){if(s.ready)return;var t=e.target,typing=t&&(t.isContentEditable||/^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));if(((e.key==="k"||e.key==="K")&&(e.metaKey||e.ctrlKey))||(e.key==="/"&&!typing&&!e.metaKey&&!e.ctrlKey&&!e.altKey)){e.preventDefault();s.pending=true}});addEventListener("click",function(e){if(!s.ready&&e.target&&e.target.closest&&e.target.closest("[data-docs-search]"))s.pending=true},true)})()`;

/** Opens on "/" or Ctrl/Cmd+K (not while typing in a field), and at once when asked for before hydration. */
export function useSearchShortcut(open: () => void) {
  useEffect(() => {
    const early = window.__docsSearch;
    if (early) {
      early.ready = true;
      if (early.pending) {
        early.pending = false;
        open();
      }
    }
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement | null;
      const typing = el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
      if ((e.key === "k" || e.key === "K") && (e.metaKey || e.ctrlKey)) {
        e.preventDefault();
        open();
      } else if (e.key === "/" && !typing && !e.metaKey && !e.ctrlKey && !e.altKey) {
        e.preventDefault();
        open();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [open]);
}
