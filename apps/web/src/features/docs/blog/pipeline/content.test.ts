import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { blogPaths, listPosts, rssXml } from "./content.ts";

let dir: string;
const write = (rel: string, body: string) => {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), body);
};

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "blog-content-"));
  write("en-US/old.mdx", "---\ntitle: Old <news>\ndescription: Before.\ndate: 2026-01-02\n---\n\nText.\n");
  write("en-US/new.mdx", '---\ntitle: New\ndescription: After & more.\ndate: "2026-03-04"\nauthor: Team\n---\n');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the blog's content", () => {
  it("lists a locale's posts newest first, with their front matter", () => {
    expect(listPosts("en-US", dir)).toEqual([
      { slug: "new", title: "New", description: "After & more.", date: "2026-03-04", author: "Team" },
      { slug: "old", title: "Old <news>", description: "Before.", date: "2026-01-02", author: null },
    ]);
    expect(blogPaths(dir)).toEqual(["/blog", "/blog/new", "/blog/old"]);
  });

  it("refuses a post without a date", () => {
    write("zh-CN/bad.mdx", "---\ntitle: 坏\ndescription: 无日期。\n---\n");
    expect(() => listPosts("zh-CN", dir)).toThrow(/zh-CN\/bad\.mdx.*date/);
    fs.rmSync(path.join(dir, "zh-CN"), { recursive: true });
  });

  it("writes an RSS 2.0 feed with escaped text and site-token addresses", () => {
    const xml = rssXml("en-US", listPosts("en-US", dir), { title: "__MP_BRAND__ Blog", description: "News." });
    expect(xml).toContain("<title>Old &lt;news&gt;</title>");
    expect(xml).toContain("<link>__MP_SITE_GLOBAL__/en-US/blog/new</link>");
    expect(xml).toContain("<pubDate>Wed, 04 Mar 2026 00:00:00 GMT</pubDate>");
    expect(xml).toContain("<dc:creator>Team</dc:creator>");
    expect(xml.indexOf("/blog/new")).toBeLessThan(xml.indexOf("/blog/old"));
  });

  it("has the same posts in en-US and zh-CN, the first announcing the platform", () => {
    const en = listPosts("en-US").map((p) => p.slug);
    expect(listPosts("zh-CN").map((p) => p.slug)).toEqual(en);
    expect(en).toContain("introducing-moonport");
  });
});
