/**
 * The wire types of packages/contracts (chat-wire.ts) against what /v1 really accepts and sends: a request typed
 * with `ChatCompletionRequest` is accepted, and every response, chunk and error carries exactly the fields the
 * types declare (each `Fields<T>` table lists every key of T, so the compiler keeps it complete).
 */
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionChunkChoice,
  ChatCompletionChunkDelta,
  ChatCompletionMessage,
  ChatCompletionRequest,
  ChatToolCall,
  ChatToolCallDelta,
  ChatUsage,
  GatewayErrorBody,
  GatewayErrorType,
} from "@moonport/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./helpers.ts";
import { FIXTURE_DOCS } from "./support/fixtures.ts";
import { TestPipeline } from "./support/test-pipeline.ts";

let t: TestApp;
let auth: string;

beforeAll(async () => {
  const pipeline = new TestPipeline();
  t = await createTestApp({ DOCS_DIR: FIXTURE_DOCS }, { pipeline });
  auth = `Bearer ${pipeline.addKey().key}`;
});
afterAll(async () => {
  await t.close();
});

/** Every key of T: true when the type requires it, false when it is optional. */
type Fields<T> = { [K in keyof Required<T>]: undefined extends T[K] ? false : true };

function expectFields<T>(value: unknown, fields: Fields<T>): void {
  const keys = Object.keys(value as object);
  const table = fields as Record<string, boolean>;
  expect(keys.filter((k) => !(k in table))).toEqual([]);
  expect(Object.keys(table).filter((k) => table[k] && !keys.includes(k))).toEqual([]);
}

const COMPLETION: Fields<ChatCompletion> = {
  id: true,
  object: true,
  created: true,
  model: true,
  system_fingerprint: true,
  choices: true,
  usage: true,
};
const CHOICE: Fields<ChatCompletion["choices"][number]> = { index: true, message: true, finish_reason: true };
const MESSAGE: Fields<ChatCompletionMessage> = {
  role: true,
  content: true,
  reasoning_content: false,
  tool_calls: false,
};
const TOOL_CALL: Fields<ChatToolCall> = { id: true, type: true, function: true };
const USAGE: Fields<ChatUsage> = {
  prompt_tokens: true,
  completion_tokens: true,
  total_tokens: true,
  cached_tokens: true,
  prompt_tokens_details: true,
  completion_tokens_details: false,
};
const CHUNK: Fields<ChatCompletionChunk> = {
  id: true,
  object: true,
  created: true,
  model: true,
  system_fingerprint: true,
  choices: true,
  usage: false,
};
const CHUNK_CHOICE: Fields<ChatCompletionChunkChoice> = {
  index: true,
  delta: true,
  finish_reason: true,
  usage: false,
};
const DELTA: Fields<ChatCompletionChunkDelta> = {
  role: false,
  content: false,
  reasoning_content: false,
  tool_calls: false,
};
const TOOL_CALL_DELTA: Fields<ChatToolCallDelta> = { index: true, id: false, type: false, function: true };
const ERROR: Fields<GatewayErrorBody> = { error: true };
const ERROR_TYPES: Record<GatewayErrorType, true> = {
  invalid_request_error: true,
  content_filter: true,
  invalid_authentication_error: true,
  incorrect_api_key_error: true,
  exceeded_current_quota_error: true,
  permission_denied_error: true,
  resource_not_found_error: true,
  engine_overloaded_error: true,
  rate_limit_reached_error: true,
  server_error: true,
  unexpected_output: true,
};

async function post(body: ChatCompletionRequest) {
  return t.app.inject({
    method: "POST",
    url: "/v1/chat/completions",
    headers: { authorization: auth, "content-type": "application/json" },
    payload: JSON.stringify(body),
  });
}

function expectUsage(usage: ChatUsage): void {
  expectFields(usage, USAGE);
  expect(Object.keys(usage.prompt_tokens_details)).toEqual(["cached_tokens"]);
  if (usage.completion_tokens_details)
    expect(Object.keys(usage.completion_tokens_details)).toEqual(["reasoning_tokens"]);
}

/** 1×1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** A request that uses every field of `ChatCompletionRequest` and every message shape. */
const everything: ChatCompletionRequest = {
  model: "kimi-latest",
  messages: [
    { role: "system", content: "Answer briefly.", name: "rules" },
    {
      role: "user",
      content: [
        { type: "text", text: "What is in this picture?" },
        { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
      ],
    },
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "lookup:0", type: "function", function: { name: "lookup", arguments: '{"q":"pixel"}' } }],
    },
    { role: "tool", tool_call_id: "lookup:0", content: '{"answer":"one pixel"}' },
    { role: "user", content: "Thanks. And the colour?" },
    { role: "assistant", content: "The colour is", partial: true },
  ],
  max_tokens: 64,
  temperature: 0.3,
  top_p: 0.9,
  n: 2,
  presence_penalty: 0.1,
  frequency_penalty: -0.1,
  response_format: { type: "text" },
  stop: ["\n\n\n"],
  stream: false,
  stream_options: { include_usage: false },
  tools: [
    {
      type: "function",
      function: {
        name: "lookup",
        description: "Look a word up.",
        parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
      },
    },
    { type: "builtin_function", function: { name: "$web_search" } },
  ],
  tool_choice: "auto",
  seed: 7,
};

describe("chat wire types (packages/contracts chat-wire.ts) match /v1", () => {
  it("accepts a request using every field and answers with exactly the fields of ChatCompletion", async () => {
    const res = await post(everything);
    expect(res.statusCode).toBe(200);
    // The body is written out as text (chat-response.ts completionJson): the type an object would get, exact JSON.
    expect(res.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(JSON.stringify(JSON.parse(res.body))).toBe(res.body);
    const body = res.json() as ChatCompletion;
    expectFields(body, COMPLETION);
    expect(body.choices).toHaveLength(2);
    for (const choice of body.choices) {
      expectFields(choice, CHOICE);
      expectFields(choice.message, MESSAGE);
      for (const call of choice.message.tool_calls ?? []) expectFields(call, TOOL_CALL);
    }
    expectUsage(body.usage);
  });

  it("answers a thinking model with reasoning_content and reasoning tokens, as declared", async () => {
    const res = await post({
      model: "kimi-thinking-preview",
      messages: [{ role: "user", content: "Why is the sky blue?" }],
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as ChatCompletion;
    expectFields(body.choices[0]!.message, MESSAGE);
    expect(body.choices[0]!.message.reasoning_content).toBeTruthy();
    expectUsage(body.usage);
    expect(body.usage.completion_tokens_details?.reasoning_tokens).toBeGreaterThan(0);
  });

  it("streams chunks with exactly the fields of ChatCompletionChunk, tool-call deltas included", async () => {
    const res = await post({
      model: "kimi-latest",
      messages: [{ role: "user", content: "Look up the word pixel." }],
      tools: everything.tools!,
      tool_choice: { type: "function", function: { name: "lookup" } },
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(res.statusCode).toBe(200);
    // The head goes out from the chat core's SSE writer with the route's headers (request id, overhead).
    expect(res.headers["content-type"]).toBe("text/event-stream; charset=utf-8");
    expect(res.headers["msh-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers["server-timing"]).toMatch(/^gateway;dur=\d+(\.\d+)?$/);
    const events = res.body.split("\n\n").filter(Boolean);
    expect(events.at(-1)).toBe("data: [DONE]");
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice("data: ".length)) as ChatCompletionChunk);
    let toolDeltas = 0;
    for (const chunk of chunks) {
      expectFields(chunk, CHUNK);
      for (const choice of chunk.choices) {
        expectFields(choice, CHUNK_CHOICE);
        expectFields(choice.delta, DELTA);
        if (choice.usage) expectUsage(choice.usage);
        for (const d of choice.delta.tool_calls ?? []) {
          expectFields(d, TOOL_CALL_DELTA);
          toolDeltas++;
        }
      }
    }
    expect(toolDeltas).toBeGreaterThan(0);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expectUsage(last.usage!);
  });

  it("refuses a bad request with exactly the fields of GatewayErrorBody and a declared type", async () => {
    const res = await post({ model: "kimi-latest", messages: [{ role: "user", content: "hi" }], n: 9 });
    expect(res.statusCode).toBe(400);
    const body = res.json() as GatewayErrorBody;
    expectFields(body, ERROR);
    expect(Object.keys(body.error).sort()).toEqual(["message", "type"]);
    expect(body.error.type in ERROR_TYPES).toBe(true);
  });
});
