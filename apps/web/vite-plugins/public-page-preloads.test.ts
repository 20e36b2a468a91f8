import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dropPublicPagePreloads, hydrateAfterFirstPaint, withoutModulePreloads } from "./public-page-preloads.ts";

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

  it("starts the hydration script's imports after the first paint, in the same order", async () => {
    const script = [
      'import "/assets/manifest-1.js";',
      'import * as route0 from "/assets/root-2.js";',
      'import * as route1 from "/assets/home-3.js";',
      "  ",
      '  window.__reactRouterRouteModules = {"root":route0,"routes/home":route1};',
      "",
      'import("/assets/entry.client-4.js");',
    ].join("\n");
    const html = withoutModulePreloads(`<body><p>Hi</p><script type="module" async="">${script}</script></body>`);
    expect(html).not.toMatch(/^import ["*]/m);
    const body = /<script type="module" async="">([\s\S]*)<\/script>/.exec(html)![1]!;
    // Run it with stand-ins for the browser: nothing is imported before the frame callback and its task ran.
    const events: string[] = [];
    const win: Record<string, unknown> = {};
    let frame: (() => void) | undefined;
    const run = new Function(
      "document",
      "requestAnimationFrame",
      "setTimeout",
      "__import",
      "window",
      `return (async () => { ${body.replace(/\bimport\(/g, "__import(")} })();`,
    );
    const done = run(
      { visibilityState: "visible" },
      (cb: () => void) => {
        frame = cb;
      },
      (cb: () => void) => {
        events.push("task");
        cb();
      },
      async (url: string) => {
        events.push(url);
        return { url };
      },
      win,
    ) as Promise<void>;
    await Promise.resolve();
    expect(events).toEqual([]);
    frame!();
    await done;
    expect(events).toEqual([
      "task",
      "/assets/manifest-1.js",
      "/assets/root-2.js",
      "/assets/home-3.js",
      "/assets/entry.client-4.js",
    ]);
    expect(win.__reactRouterRouteModules).toEqual({
      root: { url: "/assets/root-2.js" },
      "routes/home": { url: "/assets/home-3.js" },
    });
  });

  it("refuses a hydration script of a shape it does not know", () => {
    expect(() => hydrateAfterFirstPaint('import { x } from "/a.js";\nimport("/b.js");')).toThrow(/unexpected import/);
    expect(() => hydrateAfterFirstPaint("window.x = 1;")).toThrow(/no module imports/);
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
