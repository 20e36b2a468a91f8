import { Anchor, createTheme, type MantineColorScheme, type MantineColorSchemeManager } from "@mantine/core";

export const theme = createTheme({
  primaryColor: "indigo",
  defaultRadius: "md",
  fontFamily:
    "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', Roboto, Helvetica, Arial, sans-serif",
  headings: { fontWeight: "700" },
  // Visitors who ask their system for less motion (WCAG 2.3.3) get dialogs, menus and drawers without their scale
  // and slide transitions. The browser suite asks for it too (playwright.config.ts): a click that lands while a
  // dialog is still scaling in can press on one spot and release on another, and the browser then clicks nothing.
  respectReducedMotion: true,
  components: {
    // A link inside text must look like one without hovering (colour alone is not enough, WCAG 1.4.1).
    Anchor: Anchor.extend({ defaultProps: { underline: "always" } }),
  },
});

/** localStorage key of the theme choice (spec: `theme`, values light | dark | system). */
export const THEME_STORAGE_KEY = "theme";
export type ThemeChoice = "light" | "dark" | "system";

function fromStored(value: string | null | undefined): MantineColorScheme | undefined {
  if (value === "light" || value === "dark") return value;
  if (value === "system") return "auto";
  return undefined;
}

function readStored(): MantineColorScheme | undefined {
  try {
    return fromStored(window.localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    return undefined;
  }
}

/** Writes the scheme the page shows (`auto` follows the OS) on <html>, as the inline ColorSchemeScript did. */
function applyColorScheme(value: MantineColorScheme) {
  if (typeof document === "undefined") return;
  const dark =
    value === "dark" || (value === "auto" && window.matchMedia?.("(prefers-color-scheme: dark)").matches === true);
  document.documentElement.setAttribute("data-mantine-color-scheme", dark ? "dark" : "light");
}

export type ThemeManager = MantineColorSchemeManager & {
  /** Called once the first client render has committed; from then on `get` reads the stored choice. */
  markHydrated(): void;
};

/**
 * Mantine's colour-scheme manager speaking the spec's storage format (Mantine calls "system" `auto`), made safe
 * for hydration. Prerendered HTML is rendered with the default (`auto`); if the first client render read the
 * stored choice instead, everything that shows the choice (theme menus) would differ from the HTML and React
 * would throw away the page (error #418). So `get` answers the default until `markHydrated()`, after which
 * root.tsx sets the stored choice. What the page *looks* like never waits for that: the inline ColorSchemeScript
 * sets `data-mantine-color-scheme` before first paint, and this manager, not Mantine, owns that attribute
 * afterwards (root.tsx gives MantineProvider no root element), so the hydration-time default never reaches the
 * screen. With `auto` the page follows the OS setting live; other tabs follow via `storage`.
 */
export function themeColorSchemeManager(): ThemeManager {
  let hydrated = false;
  let storageListener: ((e: StorageEvent) => void) | undefined;
  let media: MediaQueryList | undefined;
  const onMedia = () => {
    if ((readStored() ?? "auto") === "auto") applyColorScheme("auto");
  };
  return {
    markHydrated: () => {
      hydrated = true;
    },
    get: (defaultValue) => {
      if (typeof window === "undefined" || !hydrated) return defaultValue;
      return readStored() ?? defaultValue;
    },
    set: (value) => {
      applyColorScheme(value);
      try {
        window.localStorage.setItem(THEME_STORAGE_KEY, value === "auto" ? "system" : value);
      } catch {
        // Storage can be unavailable (private mode); the choice then lasts for this page only.
      }
    },
    subscribe: (onUpdate) => {
      storageListener = (e) => {
        if (e.storageArea === window.localStorage && e.key === THEME_STORAGE_KEY) {
          const next = fromStored(e.newValue);
          if (next) onUpdate(next);
        }
      };
      window.addEventListener("storage", storageListener);
      media = window.matchMedia?.("(prefers-color-scheme: dark)");
      media?.addEventListener("change", onMedia);
    },
    unsubscribe: () => {
      if (storageListener) window.removeEventListener("storage", storageListener);
      media?.removeEventListener("change", onMedia);
    },
    clear: () => {
      try {
        window.localStorage.removeItem(THEME_STORAGE_KEY);
      } catch {
        // see set()
      }
      applyColorScheme("auto");
    },
  };
}
