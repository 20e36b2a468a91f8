import { describe, expect, it } from "vitest";
import type { SearchIndexPayload } from "../page-map.ts";
import { loadIndex, MAX_PAGE_HITS, MAX_SECTION_HITS, searchLoaded, tokenize } from "./search-engine.ts";

const payload: SearchIndexPayload = {
  "/docs/guide/start": {
    title: "开始使用 API",
    data: {
      "": "在控制台创建 API Key。",
      "get-key#获取 API Key": "登录控制台，打开 API Key 管理并新建一个 Key。",
      "first-call#发出第一次调用": "使用 curl 调用对话补全接口。",
    },
  },
  "/docs/pricing/chat": { title: "模型推理价格", data: { "": "价格按每 1M Tokens 计。" } },
};

const respond = (body: unknown, status = 200) =>
  (async () => new Response(JSON.stringify(body), { status })) as unknown as typeof fetch;

describe("docs search", () => {
  it("splits Chinese into words with Intl.Segmenter", () => {
    expect(tokenize("zh-CN", "登录控制台")).toEqual(expect.arrayContaining(["登录", "控制台"]));
  });

  it("finds Chinese pages and their sections, with the heading of each section", async () => {
    const index = await loadIndex("zh-CN", respond(payload));
    const hits = searchLoaded(index, "zh-CN", "控制台");
    expect(hits[0]?.url).toBe("/docs/guide/start");
    expect(hits[0]?.sections.map((s) => s.anchor)).toContain("get-key");
    expect(hits[0]?.sections.find((s) => s.anchor === "get-key")?.heading).toBe("获取 API Key");
    expect(searchLoaded(index, "zh-CN", "价格")[0]?.url).toBe("/docs/pricing/chat");
    expect(searchLoaded(index, "zh-CN", "完全无关的词")).toEqual([]);
  });

  it("reports a failed index load, retries on the next attempt and caps the hits", async () => {
    await expect(loadIndex("en-US", respond({}, 500))).rejects.toThrow(/HTTP 500/);
    const many: SearchIndexPayload = {};
    for (let i = 0; i < 8; i++) {
      many[`/docs/p${i}`] = {
        title: `Page ${i} tokens`,
        data: Object.fromEntries(Array.from({ length: 8 }, (_, j) => [`s${j}#Tokens ${j}`, `tokens text ${j}`])),
      };
    }
    const index = await loadIndex("en-US", respond(many));
    const hits = searchLoaded(index, "en-US", "tokens");
    expect(hits).toHaveLength(MAX_PAGE_HITS);
    for (const h of hits) expect(h.sections).toHaveLength(MAX_SECTION_HITS);
  });
});
