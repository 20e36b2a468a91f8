/**
 * The frame shortcut against JSON.parse: on every frame it accepts it must return exactly what the full reading
 * takes from it, and it must decline every frame that carries anything else.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { textDelta } from "./text-delta.ts";

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
