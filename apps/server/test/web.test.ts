import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildConfig } from "../src/env.ts";
import type { App } from "../src/http/route.ts";
import { createWebApp, TestClient } from "./helpers.ts";

/** A fake web build laid out the way apps/web's prerender writes it. */
function writeFixture(root: string) {
  const files: Record<string, string> = {
    "index.html": "<html>spa-fallback</html>",
    "zh-CN/index.html": '<html lang="zh-CN">首页</html>',
    "en-US/index.html": '<html lang="en-US">home</html>',
    "zh-CN/docs/overview/index.html": '<html lang="zh-CN">概览</html>',
    "en-US/docs/overview/index.html": '<html lang="en-US">overview</html>',
    "assets/app-abc123.js": "console.log(1)",
    "favicon.svg": "<svg/>",
  };
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
}

describe("serving the web app", () => {
  let app: App;
  let root: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-web-"));
    writeFixture(root);
    const served = await createWebApp(root);
    app = served.app;
    close = async () => {
      await served.close();
      fs.rmSync(root, { recursive: true, force: true });
    };
  });
  afterAll(() => close());

  it("sends the prerendered page of the locale cookie at the unprefixed URL", async () => {
    const c = new TestClient(app);
    c.locale = undefined;
    c.cookies.set("locale", "en-US");
    const home = await c.get("/");
    expect(home.status).toBe(200);
    expect(home.raw.body).toContain("home");
    expect(home.headers["cache-control"]).toBe("no-cache");
    const docs = await c.get("/docs/overview/");
    expect(docs.raw.body).toContain("overview");
    c.cookies.set("locale", "zh-CN");
    expect((await c.get("/docs/overview")).raw.body).toContain("概览");
  });

  it("defaults to zh-CN without cookie or Accept-Language and remembers the choice in the locale cookie", async () => {
    const c = new TestClient(app);
    c.locale = undefined;
    const res = await c.get("/");
    expect(res.raw.body).toContain("首页");
    expect(c.cookies.get("locale")).toBe("zh-CN");
    const cookie = res.raw.cookies.find((k) => k.name === "locale");
    expect(cookie?.maxAge).toBe(365 * 24 * 60 * 60);
  });

  it("follows Accept-Language when no cookie is set", async () => {
    const c = new TestClient(app);
    c.locale = "en-US";
    expect((await c.get("/")).raw.body).toContain("home");
    expect(c.cookies.get("locale")).toBe("en-US");
  });

  it("turns a locale-prefixed URL into the locale cookie and a redirect to the unprefixed page", async () => {
    const c = new TestClient(app);
    c.cookies.set("locale", "zh-CN");
    const res = await c.get("/en-US/docs/overview?x=1");
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe("/docs/overview?x=1");
    expect(c.cookies.get("locale")).toBe("en-US");
    expect((await c.get("/zh-CN/index.html")).status).toBe(302);
  });

  it("sends the SPA fallback for client-only routes and 404 for missing files", async () => {
    const c = new TestClient(app);
    const console = await c.get("/console/profile");
    expect(console.status).toBe(200);
    expect(console.raw.body).toContain("spa-fallback");
    expect((await c.get("/assets/missing.js")).status).toBe(404);
    const asset = await c.get("/assets/app-abc123.js");
    expect(asset.status).toBe(200);
    expect(asset.headers["cache-control"]).toContain("immutable");
  });

  it("answers unknown API routes with the error envelope, not a page", async () => {
    const c = new TestClient(app);
    const res = await c.get("/api/nope");
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("route_not_found");
  });
});

describe("site tokens, analytics and not-found pages in prerendered files", () => {
  let app: App;
  let root: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-web-tokens-"));
    const files: Record<string, string> = {
      "index.html": "<html><head></head>spa-fallback</html>",
      "en-US/docs/x/index.html":
        '<html><head><link rel="canonical" href="__MP_SITE_GLOBAL__/en-US/docs/x"></head><pre>curl __MP_API_GLOBAL__/chat</pre></html>',
      "zh-CN/docs/x/index.html":
        '<html><head><title>__MP_BRAND__ 开放平台</title></head><pre>curl __MP_API_CN__/chat</pre><a data-two-host="__MP_TWO_HOST__"></a></html>',
      "en-US/docs/404/index.html": "<html><head></head>not found en</html>",
      "zh-CN/docs/404/index.html": "<html><head></head>not found zh</html>",
      "sitemap.xml": "<urlset><loc>__MP_SITE_CN__/zh-CN/docs/x</loc></urlset>",
      "robots.txt": "Sitemap: __MP_SITE_CN__/sitemap.xml\n",
      "docs-search/en-US.json": '{"/docs/x":{"title":"X","data":{"":"Call __MP_API_GLOBAL__/chat"}}}',
    };
    for (const [rel, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), content);
    }
    const served = await createWebApp(root, {
      CN_API_BASE_URL: "https://api.example.cn/v1",
      BRAND_NAME: "Acme AI",
      GLOBAL_ANALYTICS: JSON.stringify([{ src: "https://stats.example.com/a.js" }, { inline: "window.x=1" }]),
    });
    app = served.app;
    close = async () => {
      await served.close();
      fs.rmSync(root, { recursive: true, force: true });
    };
  });
  afterAll(() => close());

  it("fills in the configured API base URL, or the request's origin, and the edition's analytics tags", async () => {
    const c = new TestClient(app);
    c.cookies.set("locale", "zh-CN");
    const zh = await c.get("/docs/x", { host: "docs.example.org" });
    expect(zh.raw.body).toContain("curl https://api.example.cn/v1/chat");
    // The brand and the host mode arrive with the page, so it renders them without asking /api/config.
    expect(zh.raw.body).toContain("<title>Acme AI 开放平台</title>");
    expect(zh.raw.body).toContain('data-two-host="false"');
    expect(zh.raw.body).not.toContain("stats.example.com");
    c.cookies.set("locale", "en-US");
    const en = await c.get("/docs/x", { host: "docs.example.org" });
    expect(en.raw.body).toContain('href="http://docs.example.org/en-US/docs/x"');
    expect(en.raw.body).toContain("curl http://docs.example.org/v1/chat");
    expect(en.raw.body).toContain(
      '<script async src="https://stats.example.com/a.js"></script><script>window.x=1</script></head>',
    );
  });

  it("never lets a forged Host header into the page", async () => {
    const c = new TestClient(app);
    c.cookies.set("locale", "en-US");
    const res = await c.get("/docs/x", { host: 'evil"><script>' });
    expect(res.raw.body).not.toContain('<script>"');
    expect(res.raw.body).toContain('href="http://localhost/en-US/docs/x"');
  });

  it("answers an unknown docs path with the prerendered not-found page of the locale and status 404", async () => {
    const c = new TestClient(app);
    c.cookies.set("locale", "en-US");
    const res = await c.get("/docs/nope/deeper");
    expect(res.status).toBe(404);
    expect(res.raw.body).toContain("not found en");
    c.cookies.set("locale", "zh-CN");
    expect((await c.get("/docs/nope")).raw.body).toContain("not found zh");
    expect((await c.get("/console/x")).raw.body).toContain("spa-fallback");
  });

  it("fills in the sitemap and robots.txt", async () => {
    const c = new TestClient(app);
    const sitemap = await c.get("/sitemap.xml", { host: "docs.example.org" });
    expect(sitemap.headers["content-type"]).toContain("application/xml");
    expect(sitemap.raw.body).toContain("<loc>http://docs.example.org/zh-CN/docs/x</loc>");
    const robots = await c.get("/robots.txt", { host: "docs.example.org" });
    expect(robots.raw.body).toBe("Sitemap: http://docs.example.org/sitemap.xml\n");
  });

  it("fills the API base URL into the search index", async () => {
    const c = new TestClient(app);
    const index = await c.get("/docs-search/en-US.json", { host: "docs.example.org" });
    expect(index.headers["content-type"]).toContain("application/json");
    expect(index.body["/docs/x"].data[""]).toBe("Call http://docs.example.org/v1/chat");
  });
});

describe("error pages when the web app cannot answer", () => {
  const html = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

  it("shows a localized 503 page to a browser when the build is missing, and JSON to API calls", async () => {
    const missing = path.join(os.tmpdir(), `moonport-no-build-${process.pid}-${Date.now()}`);
    const { app, close } = await createWebApp(missing);
    try {
      const c = new TestClient(app);
      c.locale = undefined;
      c.cookies.set("locale", "en-US");
      const page = await c.get("/docs/overview", html);
      expect(page.status).toBe(503);
      expect(page.headers["content-type"]).toContain("text/html");
      expect(page.raw.body).toContain('<html lang="en-US">');
      expect(page.raw.body).toContain("temporarily unavailable");
      // Self-contained: no stylesheet or script from the (missing) build.
      expect(page.raw.body).not.toMatch(/<link|<script/);
      c.cookies.set("locale", "zh-CN");
      const zh = await c.get("/console/overview", html);
      expect(zh.status).toBe(503);
      expect(zh.raw.body).toContain("页面暂时无法访问");

      const api = await c.get("/api/nope", html);
      expect(api.status).toBe(404);
      expect(api.body.error.code).toBe("route_not_found");
      const fetchCall = await c.get("/docs/overview", { accept: "application/json" });
      expect(fetchCall.headers["content-type"]).toContain("application/json");
      expect(fetchCall.body.error.code).toBe("route_not_found");
    } finally {
      await close();
    }
  });

  it("shows a localized 500 page to a browser when a page cannot be read, and JSON to other callers", async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-web-broken-"));
    writeFixture(root);
    const { app, close } = await createWebApp(root);
    try {
      // Indexed at start, gone when asked for: the read fails.
      fs.rmSync(path.join(root, "en-US/docs/overview/index.html"));
      const c = new TestClient(app);
      c.locale = undefined;
      c.cookies.set("locale", "en-US");
      const page = await c.get("/docs/overview", html);
      expect(page.status).toBe(500);
      expect(page.headers["content-type"]).toContain("text/html");
      expect(page.raw.body).toContain("Something went wrong");
      expect(page.raw.body).toContain(page.headers["x-request-id"]);
      const json = await c.get("/docs/overview", { accept: "*/*" });
      expect(json.status).toBe(500);
      expect(json.body.error.code).toBe("internal");
    } finally {
      await close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe("unknown and malformed addresses, the blog feed and BLOG_URL", () => {
  let app: App;
  let dir: string;
  let close: () => Promise<void>;
  const html = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

  beforeAll(async () => {
    // Laid out as the web build writes it: build/app-routes.json beside build/client.
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-web-errors-"));
    const root = path.join(dir, "client");
    const files: Record<string, string> = {
      "../app-routes.json": JSON.stringify(["/console", "/console/organization/:tab?", "/invite/:token", "/signin"]),
      "index.html": "<html><head></head>spa-fallback</html>",
      "zh-CN/docs/x/index.html": '<html><head></head><a href="__MP_BLOG_URL__">博客</a></html>',
      "en-US/docs/x/index.html": "<html><head></head>docs x</html>",
      "zh-CN/docs/404/index.html": "<html><head></head>docs not found zh</html>",
      "en-US/docs/404/index.html": "<html><head></head>docs not found en</html>",
      "zh-CN/404/index.html": "<html><head></head><nav>navbar</nav>site not found zh</html>",
      "en-US/404/index.html": "<html><head></head><nav>navbar</nav>site not found en</html>",
      "zh-CN/400/index.html": "<html><head><script>window.x=1</script></head>bad url zh</html>",
      "en-US/400/index.html": "<html><head></head>bad url en</html>",
      "zh-CN/blog/rss.xml": "<rss><link>__MP_SITE_CN__/zh-CN/blog</link><title>__MP_BRAND__ 博客</title></rss>",
      "en-US/blog/rss.xml": "<rss><link>__MP_SITE_GLOBAL__/en-US/blog</link></rss>",
    };
    for (const [rel, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), content);
    }
    const served = await createWebApp(root);
    app = served.app;
    close = async () => {
      await served.close();
      fs.rmSync(dir, { recursive: true, force: true });
    };
  });
  afterAll(() => close());

  it("answers an unknown path outside /docs with the site's not-found page of the locale and status 404", async () => {
    const c = new TestClient(app);
    c.cookies.set("locale", "en-US");
    for (const p of ["/no-such-page", "/a/b/c", "/console/no/such/screen", "/invite", "/404"]) {
      const res = await c.get(p, html);
      expect({ p, status: res.status, body: res.raw.body }).toEqual({
        p,
        status: 404,
        body: "<html><head></head><nav>navbar</nav>site not found en</html>",
      });
    }
    c.cookies.set("locale", "zh-CN");
    expect((await c.get("/no-such-page")).raw.body).toContain("site not found zh");
    // Below /docs the docs' own not-found page still answers.
    expect((await c.get("/docs/nope")).raw.body).toContain("docs not found zh");
  });

  it("sends the SPA fallback only for the client-only routes of the route table", async () => {
    const c = new TestClient(app);
    for (const p of [
      "/console",
      "/console/",
      "/console/organization",
      "/console/organization/members",
      "/invite/t0k",
      "/signin",
    ]) {
      const res = await c.get(p, html);
      expect({ p, status: res.status, spa: res.raw.body.includes("spa-fallback") }).toEqual({
        p,
        status: 200,
        spa: true,
      });
    }
  });

  it("shows a browser the site's 400 page for a malformed address, with the page's headers; JSON to other callers", async () => {
    const c = new TestClient(app);
    c.cookies.set("locale", "en-US");
    for (const p of ["/docs/%E0%A4%A", "/%E0%A4%A", "/blog/%ZZ"]) {
      const res = await c.get(p, html);
      expect({ p, status: res.status, body: res.raw.body }).toEqual({
        p,
        status: 400,
        body: expect.stringContaining("bad url en"),
      });
      expect(res.headers["content-type"]).toContain("text/html");
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(res.headers["content-security-policy"]).toContain("script-src");
    }
    c.cookies.set("locale", "zh-CN");
    expect((await c.get("/docs/%E0%A4%A", html)).raw.body).toContain("bad url zh");
    const script = await c.get("/docs/%E0%A4%A");
    expect(script.status).toBe(400);
    expect(script.body.error.code).toBe("bad_request");
    const api = await c.get("/api/%E0%A4%A", html);
    expect(api.status).toBe(400);
    expect(api.body.error.code).toBe("bad_request");
  });

  it("sends the blog feed of the request's locale at /blog/rss.xml, addresses filled in", async () => {
    const c = new TestClient(app);
    c.cookies.set("locale", "zh-CN");
    const zh = await c.get("/blog/rss.xml");
    expect(zh.status).toBe(200);
    expect(zh.headers["content-type"]).toContain("application/xml");
    expect(zh.raw.body).toMatch(
      /^<rss><link>http:\/\/localhost(:\d+)?\/zh-CN\/blog<\/link><title>Moonport 博客<\/title><\/rss>$/,
    );
    c.cookies.set("locale", "en-US");
    expect((await c.get("/blog/rss.xml")).raw.body).toContain("/en-US/blog");
  });

  it("points the blog link at the site's own /blog unless BLOG_URL names another", async () => {
    const c = new TestClient(app);
    c.cookies.set("locale", "zh-CN");
    expect((await c.get("/docs/x")).raw.body).toContain('<a href="/blog">');
    expect(() => buildConfig({ BLOG_URL: "javascript:alert(1)" })).toThrow(/BLOG_URL/);
    const other = await createWebApp(path.join(dir, "client"), { BLOG_URL: "https://blog.example.com/" });
    try {
      const oc = new TestClient(other.app);
      oc.cookies.set("locale", "zh-CN");
      const res = await oc.get("/docs/x");
      expect(res.raw.body).toContain('<a href="https://blog.example.com">');
    } finally {
      await other.close();
    }
  });
});
