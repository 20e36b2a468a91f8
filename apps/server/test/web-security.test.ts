/** Redirects that stay on the site, and the security headers of pages, /api and /v1. */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../src/http/route.ts";
import { sameSitePath } from "../src/http/web.ts";
import { createWebApp } from "./helpers.ts";

const THEME_SCRIPT = "document.documentElement.dataset.theme='dark'";
const TOKEN_SCRIPT = 'window.__MP_SITE__={"api":"__MP_API_GLOBAL__"}';

const sha = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

async function webApp(env: Record<string, string>): Promise<{ app: App; close: () => Promise<void> }> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-websec-"));
  const page = `<html><head><script>${THEME_SCRIPT}</script><script>${TOKEN_SCRIPT}</script><script type="module" src="/assets/x.js"></script></head><body>page</body></html>`;
  const files: Record<string, string> = {
    "index.html": page,
    "en-US/docs/x/index.html": page,
    "zh-CN/docs/x/index.html": page,
  };
  for (const [rel, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), content);
  }
  const { app, close } = await createWebApp(root, env);
  return {
    app,
    close: async () => {
      await close();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

describe("locale-prefix redirects stay on the site", () => {
  let t: Awaited<ReturnType<typeof webApp>>;
  beforeAll(async () => {
    t = await webApp({});
  });
  afterAll(() => t.close());

  it.each([
    ["/en-US//evil.com", "/evil.com"],
    ["/en-US///evil.com/x", "/evil.com/x"],
    ["/en-US/%2Fevil.com", "/evil.com"],
    ["/en-US/%2F%2Fevil.com", "/evil.com"],
    ["/en-US/%2f%2fevil.com", "/evil.com"],
    ["/en-US/%5Cevil.com", "/evil.com"],
    ["/en-US/%5c%5cevil.com", "/evil.com"],
    ["/en-US/\\evil.com", "/evil.com"],
    ["/en-US/\\\\evil.com", "/evil.com"],
    ["/en-US/%5C/evil.com", "/evil.com"],
    ["/zh-CN//%2F%5Cevil.com?x=1", "/evil.com?x=1"],
    ["/en-US/%09/evil.com", "/%09/evil.com"],
    ["/en-US/docs/%3Fq", "/docs/%3Fq"],
    ["/en-US/docs/overview", "/docs/overview"],
    ["/en-US", "/"],
    ["/en-US/", "/"],
  ])("%s → %s", async (url, location) => {
    const res = await t.app.inject({ method: "GET", url });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(location);
    // A single leading slash: never a protocol-relative or backslash address.
    expect(String(res.headers.location)).toMatch(/^\/(?![\\/])/);
  });

  it("normalizes any decoded path to one leading slash", () => {
    expect(sameSitePath("//a//b/")).toBe("/a/b/");
    expect(sameSitePath("\\/\\a")).toBe("/a");
    expect(sameSitePath("")).toBe("/");
    expect(sameSitePath("a#b")).toBe("/a%23b");
  });
});

describe("security headers", () => {
  let t: Awaited<ReturnType<typeof webApp>>;
  beforeAll(async () => {
    t = await webApp({
      TRUST_PROXY: "true",
      GLOBAL_SITE_URL: "https://platform.example.com",
      CN_SITE_URL: "https://platform.example.cn",
      GLOBAL_ANALYTICS: JSON.stringify([
        { src: "https://stats.example.com/a.js" },
        { inline: "window.dataLayer=[]" },
        { origin: "https://collect.example.net" },
      ]),
    });
  });
  afterAll(() => t.close());

  const common = (headers: Record<string, unknown>) => {
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["permissions-policy"]).toContain("camera=()");
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  };

  it("gives pages a policy with the hashes of their inline scripts as sent, and no 'unsafe-inline' script", async () => {
    const res = await t.app.inject({
      method: "GET",
      url: "/docs/x",
      headers: { host: "platform.example.com", cookie: "locale=en-US" },
    });
    expect(res.statusCode).toBe(200);
    common(res.headers);
    const csp = String(res.headers["content-security-policy"]);
    const scriptSrc = csp.split("; ").find((d) => d.startsWith("script-src "))!;
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(scriptSrc).not.toContain("unsafe-eval");
    expect(scriptSrc).toContain(sha(THEME_SCRIPT));
    // Hashed after the site token was replaced: the script as the browser receives it.
    const sent = TOKEN_SCRIPT.replace("__MP_API_GLOBAL__", "https://platform.example.com/v1");
    expect(res.body).toContain(sent);
    expect(scriptSrc).toContain(sha(sent));
    expect(scriptSrc).not.toContain(sha(TOKEN_SCRIPT));
    // The global edition's analytics: the inline tag by hash, hosts for scripts, beacons and pixels.
    expect(scriptSrc).toContain(sha("window.dataLayer=[]"));
    expect(scriptSrc).toContain("https://stats.example.com");
    expect(csp).toContain("connect-src 'self' https://stats.example.com https://collect.example.net");
    expect(csp).toContain("img-src 'self' data: blob: https://stats.example.com https://collect.example.net");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers["strict-transport-security"]).toBeUndefined();
  });

  it("leaves another edition's analytics out of its pages' policy", async () => {
    const res = await t.app.inject({ method: "GET", url: "/docs/x", headers: { host: "platform.example.cn" } });
    const csp = String(res.headers["content-security-policy"]);
    expect(csp).not.toContain("stats.example.com");
    expect(csp).not.toContain(sha("window.dataLayer=[]"));
    expect(csp).toContain(sha(THEME_SCRIPT));
  });

  it("gives /api, /v1, assets and errors the strict policy", async () => {
    for (const url of ["/api/config", "/api/me", "/api/nope", "/v1/models", "/healthz", "/assets/missing.js"]) {
      const res = await t.app.inject({ method: "GET", url });
      common(res.headers);
      expect(res.headers["content-security-policy"], url).toBe(
        "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
      );
    }
    const v1 = await t.app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { authorization: "Bearer sk-nope", "content-type": "application/json" },
      payload: "{}",
    });
    expect(v1.statusCode).toBe(401);
    common(v1.headers);
  });

  it("sends HSTS only over TLS: X-Forwarded-Proto https behind a trusted proxy", async () => {
    const https = await t.app.inject({ method: "GET", url: "/api/config", headers: { "x-forwarded-proto": "https" } });
    expect(https.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    const page = await t.app.inject({ method: "GET", url: "/docs/x", headers: { "x-forwarded-proto": "https" } });
    expect(page.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    const plain = await t.app.inject({ method: "GET", url: "/api/config" });
    expect(plain.headers["strict-transport-security"]).toBeUndefined();
  });

  it("ignores X-Forwarded-Proto without TRUST_PROXY", async () => {
    const untrusted = await webApp({});
    try {
      const res = await untrusted.app.inject({
        method: "GET",
        url: "/api/config",
        headers: { "x-forwarded-proto": "https" },
      });
      expect(res.headers["strict-transport-security"]).toBeUndefined();
      expect(res.headers["x-frame-options"]).toBe("DENY");
    } finally {
      await untrusted.close();
    }
  });
});
