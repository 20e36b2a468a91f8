import { createTheme, type MantineColorScheme, type MantineColorSchemeManager } from "@mantine/core";

export const theme = createTheme({
  primaryColor: "indigo",
  defaultRadius: "md",
  fontFamily:
    "-apple-system, BlinkMacSystemFont, 'Segoe UI', 'PingFang SC', 'Hiragino Sans GB', 'Microsoft YaHei', 'Noto Sans CJK SC', Roboto, Helvetica, Arial, sans-serif",
  headings: { fontWeight: "700" },
});

/** localStorage key of the theme choice (spec: `theme`, values light | dark | system). */
export const THEME_STORAGE_KEY = "theme";
export type ThemeChoice = "light" | "dark" | "system";

function fromStored(value: string | null | undefined): MantineColorScheme | undefined {
  if (value === "light" || value === "dark") return value;
  if (value === "system") return "auto";
  return undefined;
}

/**
 * Mantine's colour-scheme manager speaking the spec's storage format: Mantine calls "system" `auto`. With `auto`
 * MantineProvider follows the OS setting live (prefers-color-scheme listener); other tabs follow via `storage`.
 */
export function themeColorSchemeManager(): MantineColorSchemeManager {
  let listener: ((e: StorageEvent) => void) | undefined;
  return {
    get: (defaultValue) => {
      if (typeof window === "undefined") return defaultValue;
      try {
        return fromStored(window.localStorage.getItem(THEME_STORAGE_KEY)) ?? defaultValue;
      } catch {
        return defaultValue;
      }
    },
    set: (value) => {
      try {
        window.localStorage.setItem(THEME_STORAGE_KEY, value === "auto" ? "system" : value);
      } catch {
        // Storage can be unavailable (private mode); the choice then lasts for this page only.
      }
    },
    subscribe: (onUpdate) => {
      listener = (e) => {
        if (e.storageArea === window.localStorage && e.key === THEME_STORAGE_KEY) {
          const next = fromStored(e.newValue);
          if (next) onUpdate(next);
        }
      };
      window.addEventListener("storage", listener);
    },
    unsubscribe: () => {
      if (listener) window.removeEventListener("storage", listener);
    },
    clear: () => {
      try {
        window.localStorage.removeItem(THEME_STORAGE_KEY);
      } catch {
        // see set()
      }
    },
  };
}
