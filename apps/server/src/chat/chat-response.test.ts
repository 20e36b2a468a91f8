import { describe, expect, it } from "vitest";
import {
  ChatTally,
  ChunkWriter,
  completionBody,
  completionJson,
  newCompletionId,
  wireUsage,
  wireUsageJson,
} from "./chat-response.ts";

const meta = { id: "chatcmpl-abc", created: 1_700_000_000, model: 'moonshot-v1-8k "x"', fingerprint: "fp" };

/** The JSON of one `data:` event, checked to be exactly what JSON.stringify writes for it (no stray bytes). */
function event(frame: string): unknown {
  expect(frame.startsWith("data: ")).toBe(true);
  expect(frame.endsWith("\n\n")).toBe(true);
  const json = frame.slice(6, -2);
  const parsed = JSON.parse(json);
  expect(JSON.stringify(parsed)).toBe(json);
  return parsed;
}

const head = {
  id: meta.id,
  object: "chat.completion.chunk",
  created: meta.created,
  model: meta.model,
  system_fingerprint: meta.fingerprint,
};

describe("the written-out chunks", () => {
  it("wireUsageJson is JSON.stringify(wireUsage(…)), with and without reasoning tokens", () => {
    const cases: [number, number, number, number][] = [
      [12, 8, 0, 0],
      [100_000, 1, 99_999, 0],
      [5, 7, 2, 3],
    ];
    for (const [p, c, x, r] of cases) expect(wireUsageJson(p, c, x, r)).toBe(JSON.stringify(wireUsage(p, c, x, r)));
  });

  it("role, finish and usage chunks are the docs/api-compat.md §2.8 objects, in the same key order", () => {
    const w = new ChunkWriter(meta);
    const usage = wireUsage(12, 8, 2, 3);
    for (const usageNull of [false, true]) {
      const tail = usageNull ? { usage: null } : {};
      expect(event(w.roleChunk(1, usageNull))).toEqual({
        ...head,
        choices: [{ index: 1, delta: { role: "assistant", content: "" }, finish_reason: null }],
        ...tail,
      });
      expect(event(w.finish(0, "length", wireUsageJson(12, 8, 2, 3), usageNull))).toEqual({
        ...head,
        choices: [{ index: 0, delta: {}, finish_reason: "length", usage }],
        ...tail,
      });
    }
    expect(event(w.usageChunk(wireUsageJson(12, 8, 2, 3)))).toEqual({ ...head, choices: [], usage });
  });
});

describe("completionJson", () => {
  it("is JSON.stringify(completionBody(…)) for text, escaped text, several choices, reasoning and tool calls", () => {
    const tally = (n: number, fill: (t: ChatTally) => void) => {
      const t = new ChatTally(n);
      fill(t);
      return t;
    };
    const cases = [
      tally(1, (t) => {
        t.add({ type: "delta", choice: 0, content: 'He said "hi"\n\u2028 — 你好' });
        t.add({ type: "finish", choice: 0, finishReason: "stop", completionTokens: 9 });
        t.add({ type: "usage", promptTokens: 12, cachedTokens: 4 });
      }),
      // no usage reported (the prompt count given is used) and choice 0 cut off (its tokens are counted)
      tally(2, (t) => {
        t.add({ type: "delta", choice: 0, content: "one" });
        t.add({ type: "delta", choice: 1, content: "two" });
        t.add({ type: "finish", choice: 1, finishReason: "length", completionTokens: 1 });
      }),
      tally(1, (t) => t.add({ type: "delta", choice: 0, content: "", reasoning: "think" })),
      tally(1, (t) =>
        t.add({
          type: "delta",
          choice: 0,
          toolCalls: [{ index: 0, id: "c1", type: "function", name: "f", arguments: "{}" }],
        }),
      ),
    ];
    for (const t of cases) {
      const text = completionJson(meta, t, 7);
      expect(text).toBe(JSON.stringify(completionBody(meta, t, 7)));
      expect(JSON.stringify(JSON.parse(text))).toBe(text);
    }
  });
});

describe("newCompletionId", () => {
  it("is chatcmpl- and 32 hex characters, never repeated across pool refills", () => {
    const ids = new Set<string>();
    for (let i = 0; i < 1000; i++) {
      const id = newCompletionId();
      expect(id).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
      ids.add(id);
    }
    expect(ids.size).toBe(1000);
  });
});
