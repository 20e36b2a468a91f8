import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DocsSearchProvider, HttpSearchProvider, mdxSections } from "./search.ts";

const signal = new AbortController().signal;
let dir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-docs-"));
  fs.mkdirSync(path.join(dir, "en-US/api"), { recursive: true });
  fs.mkdirSync(path.join(dir, "zh-CN/api"), { recursive: true });
  fs.writeFileSync(
    path.join(dir, "en-US/api/balance.mdx"),
    "---\ntitle: Balance\n---\n\n# Balance\n\nThe balance endpoint returns the available balance, the voucher balance and the cash balance.\n\n## Errors\n\nA key without permission gets a permission_denied_error response from the server.\n",
  );
  fs.writeFileSync(
    path.join(dir, "zh-CN/api/balance.mdx"),
    "---\ntitle: 余额\n---\n\n# 余额\n\n余额接口返回可用余额、代金券余额和现金余额，单位为组织的币种。\n",
  );
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("documentation search", () => {
  it("splits pages into sections with anchors and strips markup", () => {
    const sections = mdxSections(
      "---\ntitle: T\n---\n# T\n\nIntro text that is long enough to keep.\n\n## Next Part\n\n<Callout>Inside a **callout** with [a link](/x).</Callout>\n\n```js\ncode()\n```\n",
      "guide/t",
      "en-US",
    );
    expect(sections.map((s) => s.url)).toEqual(["/docs/guide/t", "/docs/guide/t#next-part"]);
    expect(sections[1]!.text).toBe("Inside a callout with a link.");
  });

  it("finds the matching section in the query's language", async () => {
    const docs = new DocsSearchProvider(dir);
    const en = await docs.search("What does the balance endpoint return?", { signal });
    expect(en[0]!.url).toBe("/docs/api/balance");
    const zh = await docs.search("余额接口返回什么？", { signal });
    expect(zh[0]!.title).toBe("余额");
    expect(await docs.search("quantum chromodynamics", { signal, minCoverage: 0.6 })).toEqual([]);
  });
});

describe("HTTP search provider", () => {
  let server: http.Server;
  let url: string;
  const seen: { auth?: string; body: string }[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        seen.push({ auth: req.headers.authorization, body });
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            results: [{ title: "Moon", url: "https://example.com/moon", content: "The Moon orbits Earth." }],
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/search`;
  });
  afterAll(() => {
    server.close();
  });

  it("posts the query with the token and maps the results", async () => {
    const results = await new HttpSearchProvider(url, "tok").search("moon facts", { signal, limit: 3 });
    expect(results).toEqual([{ title: "Moon", url: "https://example.com/moon", snippet: "The Moon orbits Earth." }]);
    expect(seen[0]).toEqual({ auth: "Bearer tok", body: JSON.stringify({ query: "moon facts", limit: 3 }) });
  });
});
