/**
 * Request validation of /v1: exact messages for every rule of docs/api-compat.md §2.1–§2.5, the token limits, -auto
 * routing, the HTTP-level errors, and a property test that no input crashes the server or charges anything.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countTokens } from "../src/chat/tokenizer.ts";
import { createTestApp, type TestApp } from "./helpers.ts";
import { FIXTURE_DOCS } from "./support/fixtures.ts";
import { TestPipeline } from "./support/test-pipeline.ts";

let t: TestApp;
let pipeline: TestPipeline;
let auth: string;

beforeAll(async () => {
  pipeline = new TestPipeline();
  t = await createTestApp({ DOCS_DIR: FIXTURE_DOCS }, { pipeline });
  auth = `Bearer ${pipeline.addKey().key}`;
});
afterAll(async () => {
  await t.close();
});

async function chat(body: unknown, headers: Record<string, string> = {}) {
  const res = await t.app.inject({
    method: "POST",
    url: "/v1/chat/completions",
    headers: { authorization: auth, "content-type": "application/json", ...headers },
    payload: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

const user = (content: unknown) => ({ role: "user", content });
const base = { model: "moonshot-v1-8k", messages: [user("hello there")] };
const tool = (name: string, parameters: unknown = { type: "object", properties: {} }) => ({
  type: "function",
  function: { name, parameters },
});
const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

describe("request validation messages", () => {
  const cases: [string, unknown, string][] = [
    ["a body that is not an object", [1, 2], "the request body must be a JSON object"],
    ["a missing model", { messages: [user("hi")] }, "model is required"],
    ["a model that is not a string", { model: 5, messages: [user("hi")] }, "model must be a string"],
    ["missing messages", { model: "moonshot-v1-8k" }, "messages is required"],
    ["messages that are not an array", { ...base, messages: "hi" }, "messages must be an array"],
    ["empty messages", { ...base, messages: [] }, "messages must not be empty"],
    ["a message that is not an object", { ...base, messages: ["hi"] }, "messages[0] must be an object"],
    [
      "an unknown role",
      { ...base, messages: [{ role: "narrator", content: "x" }] },
      "messages[0].role must be one of system, user, assistant, tool",
    ],
    [
      // A cache message is only read as the first one (modules/caches); elsewhere it is an unknown role.
      "a cache message after the first",
      { ...base, messages: [user("hi"), { role: "cache", content: "cache_id=cache-x" }] },
      "messages[1].role must be one of system, user, assistant, tool",
    ],
    [
      "a malformed first cache message",
      { ...base, messages: [{ role: "cache", content: "x" }] },
      "cache message: 'x' is not a key=value pair",
    ],
    ["empty content", { ...base, messages: [user("")] }, "messages[0].content must not be empty"],
    ["null content", { ...base, messages: [user(null)] }, "messages[0].content must not be empty"],
    [
      "content of the wrong type",
      { ...base, messages: [user(42)] },
      "messages[0].content must be a string or an array of content parts",
    ],
    [
      "an unknown content part",
      { ...base, messages: [user([{ type: "audio" }])] },
      "messages[0].content[0].type must be one of text, image_url",
    ],
    [
      "an image for a model without vision",
      { ...base, messages: [user([{ type: "image_url", image_url: { url: PNG } }])] },
      "model moonshot-v1-8k does not support image input; use a vision model",
    ],
    [
      "an image link instead of a data URL",
      {
        model: "moonshot-v1-8k-vision-preview",
        messages: [user([{ type: "image_url", image_url: { url: "https://example.com/a.png" } }])],
      },
      "messages[0].content[0].image_url.url must be a base64 data URL such as data:image/png;base64,...; image links are not supported",
    ],
    [
      "partial on a message that is not the last",
      { ...base, messages: [{ role: "assistant", content: "x", partial: true }, user("hi")] },
      "messages[0].partial: partial mode is only allowed on the last message, which must be an assistant message",
    ],
    [
      "partial on a user message",
      { ...base, messages: [{ role: "user", content: "x", partial: true }] },
      "messages[0].partial: partial mode is only allowed on the last message, which must be an assistant message",
    ],
    [
      "a tool message without tool_call_id",
      { ...base, messages: [user("hi"), { role: "tool", content: "x" }] },
      "messages[1].tool_call_id is required for tool messages",
    ],
    [
      "a tool message answering no call",
      { ...base, messages: [user("hi"), { role: "tool", tool_call_id: "f:0", content: "x" }] },
      'tool_call_id not found: messages[1].tool_call_id "f:0" does not answer a tool call of the preceding assistant message',
    ],
    [
      "a tool message with an unknown id",
      {
        ...base,
        messages: [
          user("hi"),
          {
            role: "assistant",
            content: "",
            tool_calls: [{ id: "f:0", type: "function", function: { name: "f", arguments: "{}" } }],
          },
          { role: "tool", tool_call_id: "g:0", content: "x" },
        ],
      },
      'tool_call_id not found: messages[2].tool_call_id "g:0" does not answer a tool call of messages[1]',
    ],
    [
      "fewer tool messages than tool calls",
      {
        ...base,
        messages: [
          user("hi"),
          {
            role: "assistant",
            content: "",
            tool_calls: [
              { id: "f:0", type: "function", function: { name: "f", arguments: "{}" } },
              { id: "f:1", type: "function", function: { name: "f", arguments: "{}" } },
            ],
          },
          { role: "tool", tool_call_id: "f:0", content: "x" },
        ],
      },
      "messages[1] has 2 tool_calls but 1 tool messages answer them; every tool call needs exactly one tool message",
    ],
    ["max_tokens of zero", { ...base, max_tokens: 0 }, "max_tokens must be an integer greater than or equal to 1"],
    [
      "max_completion_tokens of zero",
      { ...base, max_completion_tokens: 0 },
      "max_completion_tokens must be an integer greater than or equal to 1",
    ],
    [
      "a fractional max_tokens",
      { ...base, max_tokens: 1.5 },
      "max_tokens must be an integer greater than or equal to 1",
    ],
    ["temperature above 1", { ...base, temperature: 1.01 }, "temperature must be a number between 0 and 1"],
    ["a negative temperature", { ...base, temperature: -0.1 }, "temperature must be a number between 0 and 1"],
    ["top_p above 1", { ...base, top_p: 2 }, "top_p must be a number between 0 and 1"],
    ["n of 6", { ...base, n: 6, temperature: 0.5 }, "n must be an integer between 1 and 5"],
    ["n of 0", { ...base, n: 0 }, "n must be an integer between 1 and 5"],
    [
      "n above 1 at the default temperature 0",
      { ...base, n: 2 },
      "n must be 1 when temperature is 0 or close to 0 (temperature is 0)",
    ],
    [
      "n above 1 at a near-zero temperature",
      { ...base, n: 3, temperature: 0.001 },
      "n must be 1 when temperature is 0 or close to 0 (temperature is 0.001)",
    ],
    [
      "presence_penalty below -2",
      { ...base, presence_penalty: -2.5 },
      "presence_penalty must be a number between -2 and 2",
    ],
    [
      "frequency_penalty above 2",
      { ...base, frequency_penalty: 3 },
      "frequency_penalty must be a number between -2 and 2",
    ],
    [
      "an unsupported response_format",
      { ...base, response_format: { type: "xml" } },
      "response_format.type must be one of text, json_object, json_schema",
    ],
    [
      "six stop sequences",
      { ...base, stop: ["a", "b", "c", "d", "e", "f"] },
      "stop must be a string or an array of at most 5 strings",
    ],
    ["a stop sequence over 32 bytes", { ...base, stop: ["a".repeat(33)] }, "stop[0] must be at most 32 bytes"],
    [
      "a multi-byte stop sequence over 32 bytes",
      { ...base, stop: ["ok", "停".repeat(11)] },
      "stop[1] must be at most 32 bytes",
    ],
    ["an empty stop sequence", { ...base, stop: [""] }, "stop[0] must not be empty"],
    ["a non-boolean stream", { ...base, stream: "yes" }, "stream must be a boolean"],
    [
      "a non-boolean include_usage",
      { ...base, stream: true, stream_options: { include_usage: 1 } },
      "stream_options.include_usage must be a boolean",
    ],
    [
      "129 tools",
      { ...base, tools: Array.from({ length: 129 }, (_, i) => tool(`tool_${i}`)) },
      "tools must contain at most 128 tools",
    ],
    [
      "a tool name that breaks the pattern",
      { ...base, tools: [tool("ab")] },
      "tools[0].function.name must match ^[a-zA-Z_][a-zA-Z0-9-_]{2,63}$",
    ],
    [
      "a tool name starting with a digit",
      { ...base, tools: [tool("1tool")] },
      "tools[0].function.name must match ^[a-zA-Z_][a-zA-Z0-9-_]{2,63}$",
    ],
    [
      "a $ name on an ordinary function",
      { ...base, tools: [tool("$web_search")] },
      "tools[0].function.name: the $ prefix is reserved for builtin functions; declare them with type builtin_function",
    ],
    [
      "an unknown builtin",
      { ...base, tools: [{ type: "builtin_function", function: { name: "$fetch" } }] },
      "tools[0].function.name: unknown builtin function $fetch; available: $web_search",
    ],
    [
      "parameters whose root is not an object",
      { ...base, tools: [tool("get_list", { type: "array" })] },
      "tools[0].function.parameters must be a JSON schema whose root has type object",
    ],
    [
      "duplicate tool names",
      { ...base, tools: [tool("lookup"), tool("lookup")] },
      "function name lookup is duplicated",
    ],
    [
      "tool_choice required",
      { ...base, tools: [tool("lookup")], tool_choice: "required" },
      "model moonshot-v1-8k does not support tool_choice 'required'; use 'auto' or 'none'",
    ],
    ["an unknown tool_choice", { ...base, tool_choice: "always" }, "tool_choice must be one of none, auto, required"],
    [
      "functions instead of tools",
      { ...base, functions: [{ name: "f" }] },
      "functions and function_call are not supported; use tools and tool_choice",
    ],
    [
      "$web_search on a vision model",
      {
        model: "moonshot-v1-8k-vision-preview",
        messages: [user("hi")],
        tools: [{ type: "builtin_function", function: { name: "$web_search" } }],
      },
      "model moonshot-v1-8k-vision-preview does not support $web_search",
    ],
    [
      "tools on the thinking model",
      { model: "kimi-thinking-preview", messages: [user("hi")], tools: [tool("lookup")] },
      "model kimi-thinking-preview does not support tools",
    ],
    [
      "JSON mode on the thinking model",
      { model: "kimi-thinking-preview", messages: [user("hi")], response_format: { type: "json_object" } },
      "model kimi-thinking-preview does not support response_format json_object",
    ],
  ];

  it.each(cases)("rejects %s with the exact message", async (_name, body, details) => {
    const before = pipeline.admitted.length;
    const res = await chat(body);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { type: "invalid_request_error", message: `Invalid request: ${details}` } });
    expect(pipeline.admitted.length).toBe(before);
  });

  it("answers an unknown model with 404 resource_not_found_error", async () => {
    const res = await chat({ model: "moonshot-v2", messages: [user("hi")] });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      error: { type: "resource_not_found_error", message: "Not found the model moonshot-v2 or Permission denied" },
    });
  });

  it("rejects prompt plus max_tokens beyond the context window with the token-limit message", async () => {
    const res = await chat({ ...base, max_tokens: 8192 });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe("Your request exceeded model token limit : 8192");
  });

  it("rejects a prompt that alone fills the context with Input token length too long", async () => {
    const res = await chat({ ...base, messages: [user("word ".repeat(9000))] });
    expect(res.body).toEqual({ error: { type: "invalid_request_error", message: "Input token length too long" } });
  });

  it("lowers the default max_tokens to what fits when the client did not send one", async () => {
    const res = await chat({ ...base, messages: [user("word ".repeat(7900))] });
    expect(res.status).toBe(200);
    const admitted = pipeline.admitted[pipeline.admitted.length - 1]!;
    expect(admitted.admissionTokens).toBe(8192);
  });

  it("routes -auto by prompt plus max_tokens, bills the chosen sibling and echoes the requested id", async () => {
    const cases: [number, string][] = [
      [1000, "moonshot-v1-8k"],
      [8190, "moonshot-v1-32k"],
      [40_000, "moonshot-v1-128k"],
    ];
    for (const [maxTokens, billed] of cases) {
      const res = await chat({ model: "moonshot-v1-auto", messages: [user("hi")], max_tokens: maxTokens });
      expect(res.status).toBe(200);
      expect(res.body.model).toBe("moonshot-v1-auto");
      expect(pipeline.admitted[pipeline.admitted.length - 1]!.model).toBe(billed);
    }
  });

  it("accepts a vision request with a base64 image and counts 1024 tokens per image", async () => {
    const text = {
      model: "moonshot-v1-8k-vision-preview",
      messages: [user([{ type: "text", text: "What is this?" }])],
    };
    const withImage = {
      model: "moonshot-v1-8k-vision-preview",
      messages: [
        user([
          { type: "image_url", image_url: { url: PNG } },
          { type: "text", text: "What is this?" },
        ]),
      ],
    };
    const a = await chat(text);
    const b = await chat(withImage);
    expect(b.status).toBe(200);
    expect(b.body.usage.prompt_tokens - a.body.usage.prompt_tokens).toBe(1024);
    expect(b.body.choices[0].message.content).toMatch(/1×1|1x1|image/i);
  });

  it("accepts a partial assistant message with only a name as the prefix", async () => {
    const res = await chat({
      ...base,
      messages: [user("Introduce yourself."), { role: "assistant", name: "Dr. Kelsier", content: "", partial: true }],
    });
    expect(res.status).toBe(200);
    expect(res.body.choices[0].message.content.length).toBeGreaterThan(0);
  });
});

describe("HTTP-level errors of /v1", () => {
  it("answers malformed JSON with a clear invalid_request_error", async () => {
    const res = await chat('{"model": "moonshot-v1-8k",');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: { type: "invalid_request_error", message: "Invalid request: the request body is not valid JSON" },
    });
  });

  it("reads a body sent without a JSON content type", async () => {
    const res = await chat(JSON.stringify(base), { "content-type": "application/x-www-form-urlencoded" });
    expect(res.status).toBe(200);
  });

  it("rejects a body over the limit with a clear invalid_request_error", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/tokenizers/estimate-token-count",
      headers: { authorization: auth, "content-type": "application/json" },
      payload: JSON.stringify({ ...base, messages: [user("x".repeat(101 * 1024 * 1024))] }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: {
        type: "invalid_request_error",
        message: "Invalid request: the request body is larger than the limit of 100 MB",
      },
    });
  });

  it("answers unknown /v1 routes with 404 resource_not_found_error and no cookies", async () => {
    const res = await t.app.inject({ method: "GET", url: "/v1/nothing/here", headers: { authorization: auth } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: { type: "resource_not_found_error", message: "Not found: GET /v1/nothing/here is not an API route" },
    });
    expect(res.headers["set-cookie"]).toBeUndefined();
  });

  it("checks the key before the body", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { authorization: "Bearer nope", "content-type": "application/json" },
      payload: "{}",
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.type).toBe("invalid_authentication_error");
  });

  it("estimates tokens exactly as chat counts the prompt", async () => {
    const body = { model: "moonshot-v1-8k", messages: [{ role: "system", content: "Be brief." }, user("Count me.")] };
    const est = await t.app.inject({
      method: "POST",
      url: "/v1/tokenizers/estimate-token-count",
      headers: { authorization: auth, "content-type": "application/json" },
      payload: JSON.stringify(body),
    });
    const total = est.json().data.total_tokens;
    expect(total).toBe(3 + 4 + countTokens("Be brief.") + 4 + countTokens("Count me."));
    const res = await chat(body);
    expect(res.body.usage.prompt_tokens).toBe(total);
  });
});

describe("no input crashes the gateway or charges anything", () => {
  const json = fc.jsonValue({ maxDepth: 4 });
  const message = fc.record(
    {
      role: fc.oneof(fc.constantFrom("system", "user", "assistant", "tool", "cache"), json),
      content: fc.oneof(
        fc.string(),
        json,
        fc.array(fc.record({ type: fc.constantFrom("text", "image_url"), text: fc.string() })),
      ),
      name: fc.oneof(fc.string(), json),
      partial: fc.oneof(fc.boolean(), json),
      tool_call_id: fc.string(),
      tool_calls: json,
    },
    { requiredKeys: [] },
  );
  const body = fc.record(
    {
      model: fc.oneof(fc.constantFrom("moonshot-v1-8k", "moonshot-v1-auto", "kimi-thinking-preview", "x"), json),
      messages: fc.oneof(fc.array(message, { maxLength: 4 }), json),
      max_tokens: fc.oneof(fc.integer({ min: -5, max: 10_000 }), json),
      temperature: fc.oneof(fc.double({ min: -1, max: 2 }), json),
      top_p: fc.oneof(fc.double(), json),
      n: fc.oneof(fc.integer({ min: -1, max: 7 }), json),
      stop: fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 7 }), json),
      stream: fc.oneof(fc.boolean(), json),
      response_format: fc.oneof(fc.record({ type: fc.constantFrom("text", "json_object", "xml") }), json),
      tools: fc.oneof(
        fc.array(fc.record({ type: fc.constantFrom("function", "builtin_function"), function: json })),
        json,
      ),
      tool_choice: fc.oneof(fc.constantFrom("auto", "none", "required"), json),
    },
    { requiredKeys: [] },
  );

  it("always answers JSON (a completion, an SSE stream or an error) and admits only valid requests", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(body, json), async (input) => {
        const admittedBefore = pipeline.admitted.length;
        const settledBefore = pipeline.settled.length;
        const res = await t.app.inject({
          method: "POST",
          url: "/v1/chat/completions",
          headers: { authorization: auth, "content-type": "application/json" },
          payload: JSON.stringify(input) ?? "null",
        });
        expect(res.statusCode).not.toBe(500);
        if (res.statusCode === 200) {
          if (String(res.headers["content-type"]).startsWith("text/event-stream"))
            expect(res.body).toContain("data: [DONE]");
          else expect(res.json().object).toBe("chat.completion");
          await pipeline.waitForSettled(settledBefore + 1);
          expect(pipeline.admitted.length).toBe(admittedBefore + 1);
        } else {
          const err = res.json().error;
          expect(typeof err.type).toBe("string");
          expect(typeof err.message).toBe("string");
          expect(pipeline.admitted.length).toBe(admittedBefore);
          expect(pipeline.settled.length).toBe(settledBefore);
        }
      }),
      { numRuns: 300 },
    );
  });
});
