/**
 * The frame shortcut against JSON.parse: on every frame it accepts it must return exactly what the full reading
 * takes from it, and it must decline every frame that carries anything else.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ChatRequest } from "../../chat/types.ts";
import { fromCompletion } from "./index.ts";
import { simpleAnswer, textDelta } from "./text-delta.ts";

const frame = (choices: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: "chatcmpl-1",
    object: "chat.completion.chunk",
    created: 1,
    model: "moonshot-v1-8k",
    ...extra,
    choices,
  });

/** What the full reading (engines/openai-compatible/index.ts `frames`) takes from a text-only frame. */
function reference(data: string) {
  const json = JSON.parse(data) as {
    choices: { index: number; delta: { content?: string } }[];
  };
  const c = json.choices[0]!;
  return { choice: c.index, content: c.delta.content ?? "" };
}

describe("textDelta", () => {
  it("reads the text frames of OpenAI, Moonshot and vLLM as JSON.parse does", () => {
    const frames = [
      frame([{ index: 0, delta: { content: "Hello" }, finish_reason: null }]),
      frame([{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }]),
      frame([{ index: 0, delta: { content: " world" }, logprobs: null, finish_reason: null }], {
        system_fingerprint: "fp_1",
      }),
      frame([{ index: 3, delta: { content: '月之暗面 "quoted" \\ back\nslash \u0001 😀' }, finish_reason: null }]),
      // OpenAI with stream_options.include_usage: `"usage":null` after the choices of every text frame.
      `${frame([{ index: 0, delta: { content: "x" }, finish_reason: null }]).slice(0, -1)},"usage":null}`,
    ];
    for (const f of frames) expect(textDelta(f), f).toEqual(reference(f));
  });

  it("declines every frame that is more than one choice's next text", () => {
    const declined = [
      frame([{ index: 0, delta: { content: "a" }, finish_reason: "stop" }]),
      frame([{ index: 0, delta: {}, finish_reason: "stop" }]),
      frame([{ index: 0, delta: { reasoning_content: "think" }, finish_reason: null }]),
      frame([{ index: 0, delta: { content: "a", reasoning_content: "b" }, finish_reason: null }]),
      frame([{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: "{}" } }] }, finish_reason: null }]),
      frame([
        { index: 0, delta: { content: "a" }, finish_reason: null },
        { index: 1, delta: { content: "b" }, finish_reason: null },
      ]),
      frame([{ index: 0, delta: { content: "a" }, finish_reason: null, usage: { completion_tokens: 1 } }]),
      frame([{ index: 0, delta: { content: "a" }, finish_reason: null }], {
        usage: { prompt_tokens: 1, completion_tokens: 1 },
      }),
      frame([{ index: 0, delta: { content: "a" }, finish_reason: null }], { error: { message: "boom" } }),
      // Other spacing or order: read in full.
      JSON.stringify(JSON.parse(frame([{ index: 0, delta: { content: "a" }, finish_reason: null }])), null, 1),
      frame([{ delta: { content: "a" }, index: 0, finish_reason: null }]),
      // Not one object.
      frame([{ index: 0, delta: { content: "a" }, finish_reason: null }]).slice(0, -1),
    ];
    for (const f of declined) expect(textDelta(f), f).toBeUndefined();
  });

  it("never differs from JSON.parse on any text, nor is fooled by frame syntax inside a string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.nat(99), fc.string(), (content, index, model) => {
        const f = frame([{ index, delta: { content }, finish_reason: null }], { model });
        expect(textDelta(f)).toEqual({ choice: index, content });
        // The same text as a value elsewhere, in a frame that has no text delta of its own.
        const decoy = frame([{ index, delta: {}, finish_reason: "stop" }], { model: f, note: content });
        expect(textDelta(decoy)).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });
});

const answer = (choices: unknown[], usage: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1,
    model: "moonshot-v1-8k",
    ...extra,
    choices,
    usage,
  });
const text = (content: unknown, more: Record<string, unknown> = {}) => [
  { index: 0, message: { role: "assistant", content }, finish_reason: "stop", ...more },
];
const USAGE = { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 };
/** Only read when an answer has no usage, which simpleAnswer never accepts. */
const REQ = { promptTokens: -1 } as ChatRequest;

describe("simpleAnswer", () => {
  it("gives the engine exactly the events JSON.parse gives it, for the answers of Moonshot and the bench's mock", () => {
    const bodies = [
      answer(text("The quick brown fox jumps over the dog."), USAGE),
      // Era B: cached tokens top-level and in the details (docs/api-compat.md §2.7).
      answer(text("Hi"), { ...USAGE, cached_tokens: 5, prompt_tokens_details: { cached_tokens: 5 } }),
      answer(text("Hi"), { ...USAGE, prompt_tokens_details: { cached_tokens: 3 } }),
      answer(text("Hi"), { ...USAGE, cached_tokens: 4 }),
      answer(
        [{ index: 0, message: { role: "assistant", content: "a" }, logprobs: null, finish_reason: "length" }],
        USAGE,
      ),
      answer(text('月之暗面 "quoted" \\ back\nslash \u0001 😀'), USAGE, { system_fingerprint: "fp_1" }),
      answer(text(""), USAGE),
      `${answer(text("with a newline after"), USAGE)}\n`,
    ];
    for (const b of bodies) {
      const fast = simpleAnswer(b);
      expect(fast, b).toBeDefined();
      expect(fromCompletion(REQ, fast!), b).toEqual(fromCompletion(REQ, JSON.parse(b)));
    }
  });

  it("declines every other answer, which is then read in full", () => {
    const declined = [
      answer(
        text("a", {
          message: {
            role: "assistant",
            content: "a",
            tool_calls: [{ id: "c", type: "function", function: { name: "f", arguments: "{}" } }],
          },
        }),
        USAGE,
      ),
      answer(text("a", { message: { role: "assistant", content: "a", reasoning_content: "think" } }), USAGE),
      answer(text("a", { message: { role: "assistant", content: "a", refusal: null } }), USAGE),
      answer(text(null), USAGE),
      answer([...text("a"), { index: 1, message: { role: "assistant", content: "b" }, finish_reason: "stop" }], USAGE),
      answer(text("a"), { ...USAGE, completion_tokens_details: { reasoning_tokens: 2 } }),
      answer(text("a"), null),
      JSON.stringify({ id: "x", choices: text("a") }),
      answer(text("a"), USAGE, { error: { message: "boom" } }),
      answer(text("a"), USAGE, { usage: USAGE }),
      // Other spacing or order (OpenAI answers pretty-printed): read in full.
      JSON.stringify(JSON.parse(answer(text("a"), USAGE)), null, 2),
      JSON.stringify({ choices: text("a"), usage: USAGE, id: "x" }),
      answer(text("a"), USAGE).slice(0, -1),
      answer(text("x".repeat(9000)), USAGE),
      // What JSON.parse refuses is not accepted here either: a number with a leading zero, a raw control character.
      answer(text("a"), USAGE).replace('"index":0', '"index":00'),
      answer(text("a"), USAGE).replace('"prompt_tokens":12', '"prompt_tokens":012'),
      answer(text("a\tb"), USAGE).replace("\\t", "\t"),
    ];
    for (const b of declined) expect(simpleAnswer(b), b).toBeUndefined();
  });

  it("never differs from JSON.parse on any text, nor is fooled by answer syntax inside a string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 300 }), fc.nat(99), fc.string(), (content, index, model) => {
        const b = answer([{ index, message: { role: "assistant", content }, finish_reason: "stop" }], USAGE, { model });
        expect(fromCompletion(REQ, simpleAnswer(b)!)).toEqual(fromCompletion(REQ, JSON.parse(b)));
        // The same answer as a string value of an answer that is not simple.
        const decoy = JSON.stringify({
          id: b,
          choices: text(content, { message: { role: "assistant", content, refusal: null } }),
          usage: USAGE,
        });
        expect(simpleAnswer(decoy)).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });
});
