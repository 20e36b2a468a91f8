import { describe, expect, it } from "vitest";
import type { SearchIndexPayload } from "../page-map.ts";
import {
  buildIndex,
  highlight,
  loadIndex,
  MAX_PAGE_HITS,
  MAX_SECTION_HITS,
  queryTerms,
  searchLoaded,
  tokenize,
} from "./search-engine.ts";

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

  it("ranks a page whose title or heading matches above pages that only mention the words", async () => {
    const zh: SearchIndexPayload = {
      "/docs/guide/migrating": {
        title: "从 OpenAI 迁移",
        data: {
          "": "流式输出、流式调用与 OpenAI 一致，流式 usage 也一样。流式流式。",
          "diff#差异": "流式响应的最后一个块带有用量。",
        },
      },
      "/docs/guide/streaming": {
        title: "使用流式输出",
        data: { "": "设置 stream 参数。", "usage#用量": "设置 stream_options。" },
      },
      "/docs/guide/other": { title: "其他", data: { "why#为什么用流式输出": "体验更好。" } },
    };
    // Built directly: loadIndex keeps the first index (and its query cache) per locale.
    const index = buildIndex("zh-CN", zh);
    expect(searchLoaded(index, "zh-CN", "流式").map((h) => h.url)).toEqual([
      "/docs/guide/streaming",
      "/docs/guide/other",
      "/docs/guide/migrating",
    ]);
    // Within a page, a section whose heading matches comes first.
    const en: SearchIndexPayload = {
      "/docs/api/chat": {
        title: "Chat",
        data: {
          "body#Body": "Set stream_options with include_usage to get usage.",
          "stream-options#stream_options": "Options for streaming.",
        },
      },
    };
    const hit = searchLoaded(buildIndex("en-US", en), "en-US", "stream_options")[0]!;
    expect(hit.sections.map((s) => s.anchor)).toEqual(["stream-options", "body"]);
    expect(hit.sections[1]!.excerpt).toContain("stream_options with include_usage");
  });

  it("highlights every occurrence of the query's words, case-insensitively, identifiers whole", () => {
    const terms = queryTerms("en-US", "Stream_Options");
    expect(highlight("Set stream_options; STREAM_OPTIONS too.", terms)).toEqual([
      { text: "Set ", match: false },
      { text: "stream_options", match: true },
      { text: "; ", match: false },
      { text: "STREAM_OPTIONS", match: true },
      { text: " too.", match: false },
    ]);
    expect(highlight("使用流式输出", queryTerms("zh-CN", "流式"))).toEqual([
      { text: "使用", match: false },
      { text: "流式", match: true },
      { text: "输出", match: false },
    ]);
  });
});
