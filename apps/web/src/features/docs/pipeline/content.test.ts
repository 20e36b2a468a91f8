import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { breadcrumbFor, neighbours } from "../page-map.ts";
import {
  buildLocalePageMap,
  buildPageMap,
  buildSearchIndex,
  extractSections,
  listRoutes,
  plainText,
} from "./content.ts";
import { sitemapXml } from "./extra-files.ts";

let dir: string;
const write = (rel: string, body: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), body);
};
const page = (title: string, body = "") =>
  `---\ntitle: ${title}\ndescription: About ${title}.\n---\n\n# ${title}\n\n${body}`;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "docs-content-"));
  for (const locale of ["en-US", "zh-CN"]) {
    write(
      `${locale}/_meta.json`,
      JSON.stringify({
        overview: "Overview",
        promo: { title: "Promo", display: "hidden" },
        sep: { type: "separator", title: "Learn" },
        guide: "Guides",
        gh: { title: "GitHub", href: "https://example.com", newWindow: true },
        kefu: { title: "Support", kefu: true },
        later: "Not written yet",
      }),
    );
    write(`${locale}/guide/_meta.json`, JSON.stringify({ b: "Second", a: "First" }));
    write(`${locale}/overview.mdx`, page("Overview", "Intro text.\n\n## Get `started` now\n\nStart here.\n"));
    write(`${locale}/promo.mdx`, page("Promo"));
    write(`${locale}/guide/a.mdx`, page("A page", "Call {{API_BASE_URL}}/chat/completions with your key.\n"));
    write(`${locale}/guide/b.mdx`, page("B page"));
    write(`${locale}/guide/c.mdx`, page("C page"));
  }
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the docs page map", () => {
  it("lists every .mdx file as a route", () => {
    expect(listRoutes("en-US", dir)).toEqual(["guide/a", "guide/b", "guide/c", "overview", "promo"]);
  });

  it("orders the sidebar by _meta.json, hides hidden pages and appends pages missing from _meta", () => {
    const map = buildLocalePageMap("en-US", dir);
    expect(map.sidebar.map((i) => i.kind)).toEqual(["page", "separator", "folder", "link", "special"]);
    const folder = map.sidebar[2];
    expect(folder?.kind === "folder" && folder.children.map((c) => (c.kind === "page" ? c.route : c.kind))).toEqual([
      "guide/b",
      "guide/a",
      "guide/c",
    ]);
    expect(map.pages.promo?.hidden).toBe(true);
    expect(map.order).toEqual(["overview", "guide/b", "guide/a", "guide/c"]);
    expect(map.sidebar[4]).toMatchObject({ kind: "special", special: "kefu", title: "Support" });
  });

  it("gives breadcrumbs and previous/next neighbours from the sidebar order", () => {
    const map = buildLocalePageMap("en-US", dir);
    expect(breadcrumbFor(map, "guide/a").map((c) => c.title)).toEqual(["Guides", "First"]);
    expect(neighbours(map, "guide/b").prev?.route).toBe("overview");
    expect(neighbours(map, "guide/b").next?.route).toBe("guide/a");
    expect(neighbours(map, "promo")).toEqual({ prev: null, next: null });
  });

  it("dates every page, from git history or the file time", () => {
    const map = buildPageMap(dir);
    for (const p of Object.values(map["zh-CN"].pages)) expect(Date.parse(p.lastUpdated ?? "")).not.toBeNaN();
  });

  it("refuses a page without a title", () => {
    write("en-US/broken.mdx", "---\ndescription: x\n---\n# x\n");
    expect(() => buildLocalePageMap("en-US", dir)).toThrow(/broken\.mdx: front matter needs a title/);
    fs.rmSync(path.join(dir, "en-US/broken.mdx"));
  });
});

describe("the search index", () => {
  it("keys sections by the heading anchor rehype-slug gives and leaves code out", () => {
    const { title, sections } = extractSections(
      "# Title\n\nLead [text](/x).\n\n## Get `started` now\n\nBody **bold**.\n\n```bash\n# not a heading\ncurl x\n```\n\n## Get started now\n\n| a | b |\n|---|---|\n| c | d |\n",
    );
    expect(title).toBe("Title");
    expect(sections).toEqual({
      "": "Lead text.",
      "get-started-now#Get started now": "Body bold.",
      "get-started-now-1#Get started now": "a b c d",
    });
  });

  it("keeps identifiers whole: underscores inside words and code are text, not emphasis", () => {
    expect(plainText("Set `stream_options` to `{include_usage: true}` for usage.")).toBe(
      "Set stream_options to {include_usage: true} for usage.",
    );
    expect(plainText("the max_tokens and top_p fields")).toBe("the max_tokens and top_p fields");
    expect(plainText("_emphasis_ and __strong__ and *star*")).toBe("emphasis and strong and star");
    expect(plainText("`<think>` tags")).toBe("<think> tags");
  });

  it("maps page URLs to titles and sections and skips hidden pages", () => {
    const map = buildLocalePageMap("en-US", dir);
    const index = buildSearchIndex("en-US", map, dir);
    expect(Object.keys(index).sort()).toEqual(["/docs/guide/a", "/docs/guide/b", "/docs/guide/c", "/docs/overview"]);
    expect(index["/docs/overview"]).toEqual({
      title: "Overview",
      data: { "": "Intro text.", "get-started-now#Get started now": "Start here." },
    });
  });

  it("keeps the API base URL in search text as the site token the server fills in", () => {
    const en = buildSearchIndex("en-US", buildLocalePageMap("en-US", dir), dir);
    expect(en["/docs/guide/a"]!.data[""]).toBe("Call __MP_API_GLOBAL__/chat/completions with your key.");
    const zh = buildSearchIndex("zh-CN", buildLocalePageMap("zh-CN", dir), dir);
    expect(zh["/docs/guide/a"]!.data[""]).toBe("Call __MP_API_CN__/chat/completions with your key.");
  });
});

describe("the sitemap", () => {
  it("lists visible pages of both locales with hreflang alternates under the site tokens", () => {
    const xml = sitemapXml(buildPageMap(dir));
    expect(xml).toContain("<loc>__MP_SITE_GLOBAL__/en-US/docs/guide/a</loc>");
    expect(xml).toContain("<loc>__MP_SITE_CN__/zh-CN/docs/guide/a</loc>");
    expect(xml).toContain('hreflang="zh-CN" href="__MP_SITE_CN__/zh-CN/docs/overview"');
    expect(xml).not.toContain("promo");
  });

  it("lists the blog's index and posts when given them", () => {
    const post = { slug: "hello", title: "Hello", description: "Hi.", date: "2026-12-01", author: null };
    const xml = sitemapXml(buildPageMap(dir), { "en-US": [post], "zh-CN": [] });
    expect(xml).toContain("<loc>__MP_SITE_GLOBAL__/en-US/blog/hello</loc>\n    <lastmod>2026-12-01</lastmod>");
    expect(xml).toContain("<loc>__MP_SITE_CN__/zh-CN/blog</loc>");
    expect(xml).not.toContain("/zh-CN/blog/hello");
  });
});

describe("the real content tree", () => {
  it("has the same pages in en-US and zh-CN, each with a title and description", () => {
    expect(listRoutes("zh-CN")).toEqual(listRoutes("en-US"));
    const map = buildPageMap();
    for (const locale of ["en-US", "zh-CN"] as const) {
      for (const p of Object.values(map[locale].pages)) {
        expect({ route: p.route, title: Boolean(p.title), description: Boolean(p.description) }).toEqual({
          route: p.route,
          title: true,
          description: true,
        });
      }
    }
  });

  it("gives every visible page of a locale its own title, so search hits and menus are unambiguous", () => {
    const map = buildPageMap();
    for (const locale of ["en-US", "zh-CN"] as const) {
      const byTitle = new Map<string, string[]>();
      for (const p of Object.values(map[locale].pages)) {
        if (!p.hidden) byTitle.set(p.title, [...(byTitle.get(p.title) ?? []), p.route]);
      }
      expect({ locale, duplicates: [...byTitle].filter(([, routes]) => routes.length > 1) }).toEqual({
        locale,
        duplicates: [],
      });
    }
  });

  it("writes zh-CN titles, headings and menu entries in Chinese (product names excepted)", () => {
    const map = buildPageMap();
    // Names that stay as they are in Chinese text.
    const names = new Set(["Kimi CLI", "MoonPalace", "Playground", "API Key", "Tokens", "Kimi K2"]);
    const english = (s: string) =>
      !/[\u3400-\u9fff]/.test(s) && !names.has(s) && !/^[a-z0-9.-]+$/.test(s) && !/^`[^`]+`$/.test(s);
    const bad: string[] = [];
    const walk = (items: (typeof map)["zh-CN"]["sidebar"]) => {
      for (const it of items) {
        if ((it.kind === "page" || it.kind === "folder") && english(it.title)) bad.push(`menu: ${it.title}`);
        if (it.kind === "folder") walk(it.children);
      }
    };
    walk(map["zh-CN"].sidebar);
    for (const p of Object.values(map["zh-CN"].pages)) {
      if (english(p.title)) bad.push(`title of ${p.route}: ${p.title}`);
      const body = fs
        .readFileSync(path.join(__dirname, `../../../../content/docs/zh-CN/${p.route}.mdx`), "utf8")
        .replace(/^(```|~~~)[\s\S]*?^\1/gm, "");
      for (const m of body.matchAll(/^#{1,6} (.+)$/gm)) if (english(m[1]!)) bad.push(`heading of ${p.route}: ${m[1]}`);
    }
    expect(bad).toEqual([]);
  });
});

describe("the real content's tables", () => {
  it("start English header cells with a capital letter (code excepted)", () => {
    const root = path.join(__dirname, "../../../../content/docs/en-US");
    const bad: string[] = [];
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const f = path.join(d, e.name);
        if (e.isDirectory()) walk(f);
        else if (e.name.endsWith(".mdx")) {
          const lines = fs.readFileSync(f, "utf8").split("\n");
          lines.forEach((line, i) => {
            if (!/^\s*\|(\s*:?-{2,}:?\s*\|)+\s*$/.test(lines[i + 1] ?? "") || !line.trim().startsWith("|")) return;
            for (const cell of line.split("|").map((c) => c.trim())) {
              if (/^[a-z]/.test(cell)) bad.push(`${path.relative(root, f)}:${i + 1} "${cell}"`);
            }
          });
        }
      }
    };
    walk(root);
    expect(bad).toEqual([]);
  });
});
