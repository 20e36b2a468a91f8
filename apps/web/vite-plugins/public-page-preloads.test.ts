import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dropPublicPagePreloads, withoutModulePreloads } from "./public-page-preloads.ts";

const PAGE = [
  "<head>",
  '<link rel="modulepreload" href="/assets/entry.client-abc.js"/>',
  '<link rel="modulepreload" href="/assets/root-def.js"/>',
  '<link rel="stylesheet" href="/assets/root-def.css"/>',
  "</head><body><p>Docs</p>",
  '<script type="module">import "/assets/entry.client-abc.js";</script>',
  "</body>",
].join("");

describe("public page preloads", () => {
  it("removes module preloads and keeps stylesheets and the module script", () => {
    const html = withoutModulePreloads(PAGE);
    expect(html).not.toContain("modulepreload");
    expect(html).toContain('<link rel="stylesheet" href="/assets/root-def.css"/>');
    expect(html).toContain('<script type="module">import "/assets/entry.client-abc.js";</script>');
  });

  it("rewrites the pages below each locale folder and leaves the SPA fallback alone", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-preloads-"));
    try {
      fs.mkdirSync(path.join(dir, "en-US/docs/overview"), { recursive: true });
      fs.writeFileSync(path.join(dir, "en-US/docs/overview/index.html"), PAGE);
      fs.writeFileSync(path.join(dir, "index.html"), PAGE);
      expect(dropPublicPagePreloads(dir, ["zh-CN", "en-US"])).toBe(1);
      expect(fs.readFileSync(path.join(dir, "en-US/docs/overview/index.html"), "utf8")).not.toContain("modulepreload");
      expect(fs.readFileSync(path.join(dir, "index.html"), "utf8")).toContain("modulepreload");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
