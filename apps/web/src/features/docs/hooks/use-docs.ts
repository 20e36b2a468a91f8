import type { Locale } from "@moonport/contracts";
import { createContext, useContext } from "react";
import type { LocalePageMap } from "../page-map.ts";

export interface DocsContextValue {
  locale: Locale;
  map: LocalePageMap;
  /** "/en-US" when the page was opened at a prefixed address (links keep it), otherwise "". */
  prefix: string;
  /** Current route below /docs ("" for /docs itself). */
  route: string;
  showToast: (message: string) => void;
}

export const DocsContext = createContext<DocsContextValue | null>(null);

export function useDocs(): DocsContextValue {
  const ctx = useContext(DocsContext);
  if (!ctx) throw new Error("useDocs outside the docs layout");
  return ctx;
}

/** Href of a docs route that keeps the locale prefix the reader arrived with. */
export function docsHref(prefix: string, route: string, hash = ""): string {
  return `${prefix}/docs/${route}${hash ? `#${hash}` : ""}`;
}
