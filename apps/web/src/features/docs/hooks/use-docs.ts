import type { Locale } from "@moonport/contracts";
import { createContext, useContext } from "react";
import type { LocalePageMap } from "../page-map.ts";

export interface DocsContextValue {
  locale: Locale;
  map: LocalePageMap;
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

/** Href of a docs route; unprefixed, the server answers it in the reader's language. */
export function docsHref(route: string, hash = ""): string {
  return `/docs/${route}${hash ? `#${hash}` : ""}`;
}
