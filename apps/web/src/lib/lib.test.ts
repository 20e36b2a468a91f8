import { describe, expect, it } from "vitest";
import { localeForPath, stripLocalePrefix } from "../i18n/index.ts";
import { themeColorSchemeManager } from "../theme.ts";
import { describeUserAgent } from "./format.ts";
import { safeNext } from "./forms.ts";

describe("web helpers", () => {
  it("takes the locale from a prerender prefix and falls back to zh-CN without a cookie", () => {
    expect(localeForPath("/en-US/docs/overview")).toBe("en-US");
    expect(localeForPath("/zh-CN")).toBe("zh-CN");
    expect(localeForPath("/docs/overview")).toBe("zh-CN");
    expect(stripLocalePrefix("/en-US/docs/x")).toBe("/docs/x");
    expect(stripLocalePrefix("/en-US")).toBe("/");
    expect(stripLocalePrefix("/docs/x")).toBe("/docs/x");
  });

  it("only follows same-site paths after sign-in", () => {
    expect(safeNext("/console/profile")).toBe("/console/profile");
    expect(safeNext("//evil.example/x")).toBe("/console");
    expect(safeNext("/\\evil.example")).toBe("/console");
    expect(safeNext("https://evil.example")).toBe("/console");
    expect(safeNext(null)).toBe("/console");
  });

  it("summarises user agents for the sessions list", () => {
    expect(
      describeUserAgent(
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36",
      ),
    ).toEqual({ browser: "Chrome", os: "macOS" });
    expect(
      describeUserAgent("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Version/17.0 Safari/604.1"),
    ).toEqual({ browser: "Safari", os: "iOS" });
    expect(describeUserAgent(null)).toEqual({ browser: null, os: null });
  });

  it("stores the theme as light, dark or system under the key theme", () => {
    const store = new Map<string, string>();
    const g = globalThis as unknown as { window?: unknown };
    const had = "window" in g;
    g.window = {
      localStorage: {
        getItem: (k: string) => store.get(k) ?? null,
        setItem: (k: string, v: string) => store.set(k, v),
        removeItem: (k: string) => store.delete(k),
      },
    };
    try {
      const manager = themeColorSchemeManager();
      store.set("theme", "dark");
      // The hydrating render must match the prerendered HTML: the stored choice is read only afterwards.
      expect(manager.get("auto")).toBe("auto");
      manager.markHydrated();
      expect(manager.get("auto")).toBe("dark");
      store.delete("theme");
      expect(manager.get("auto")).toBe("auto");
      manager.set("auto");
      expect(store.get("theme")).toBe("system");
      expect(manager.get("light")).toBe("auto");
      manager.set("dark");
      expect(store.get("theme")).toBe("dark");
      expect(manager.get("auto")).toBe("dark");
      store.set("theme", "bogus");
      expect(manager.get("light")).toBe("light");
    } finally {
      if (!had) delete g.window;
    }
  });
});
