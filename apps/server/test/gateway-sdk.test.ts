/**
 * The official `openai` SDK as a client of a listening gateway (simulator engine, in-memory test pipeline).
 */
import type { AddressInfo } from "node:net";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayErrors } from "../src/chat/errors.ts";
import { countTokens } from "../src/chat/tokenizer.ts";
import { createTestApp, type TestApp } from "./helpers.ts";
import { FIXTURE_DOCS } from "./support/fixtures.ts";
import { TestPipeline } from "./support/test-pipeline.ts";

let t: TestApp;
let pipeline: TestPipeline;
let client: OpenAI;
let baseURL: string;

beforeAll(async () => {
  pipeline = new TestPipeline();
  t = await createTestApp({ DOCS_DIR: FIXTURE_DOCS }, { pipeline });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  baseURL = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1`;
  client = new OpenAI({ apiKey: pipeline.addKey().key, baseURL, maxRetries: 0 });
});
afterAll(async () => {
  await t.close();
});

async function estimate(body: unknown): Promise<number> {
  const res = await fetch(`${baseURL}/tokenizers/estimate-token-count`, {
    method: "POST",
    headers: { authorization: `Bearer ${client.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data: { total_tokens: number } };
  return json.data.total_tokens;
}

describe("chat completions through the official SDK", () => {
  it("answers a non-streaming request with the documented shape and usage that matches the tokenizer", async () => {
    const messages = [{ role: "user" as const, content: "Give me some advice on writing tests." }];
    const res = await client.chat.completions.create({ model: "moonshot-v1-8k", messages });
    expect(res.id).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
    expect(res.object).toBe("chat.completion");
    expect(res.model).toBe("moonshot-v1-8k");
    expect(res.system_fingerprint).toBe("moonport-simulator");
    const choice = res.choices[0]!;
    expect(choice.finish_reason).toBe("stop");
    expect(choice.message.role).toBe("assistant");
    expect(choice.message.content?.length).toBeGreaterThan(20);
    expect(res.usage?.completion_tokens).toBe(countTokens(choice.message.content!));
    expect(res.usage?.prompt_tokens).toBe(await estimate({ model: "moonshot-v1-8k", messages }));
    expect(res.usage?.total_tokens).toBe(res.usage!.prompt_tokens + res.usage!.completion_tokens);
    const again = await client.chat.completions.create({ model: "moonshot-v1-8k", messages });
    expect(again.choices[0]!.message.content).toBe(choice.message.content);
  });

  it("returns the request id and the gateway's own overhead in headers", async () => {
    const { response } = await client.chat.completions
      .create({ model: "moonshot-v1-8k", messages: [{ role: "user", content: "hello" }] })
      .withResponse();
    const id = response.headers.get("msh-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get("x-request-id")).toBe(id);
    expect(response.headers.get("server-timing")).toMatch(/^gateway;dur=\d+(\.\d+)?$/);
  });

  it("streams the same answer as SSE chunks with role first, usage in the final choice and [DONE]", async () => {
    const messages = [{ role: "user" as const, content: "Explain how caching helps latency." }];
    const plain = await client.chat.completions.create({ model: "kimi-latest", messages, max_tokens: 200 });
    const stream = await client.chat.completions.create({
      model: "kimi-latest",
      messages,
      max_tokens: 200,
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks[0]!.choices[0]!.delta).toEqual({ role: "assistant", content: "" });
    expect(chunks.slice(1).some((c) => c.choices[0]?.delta.role)).toBe(false);
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");
    expect(text).toBe(plain.choices[0]!.message.content);
    const final = chunks[chunks.length - 2]!;
    expect(final.choices[0]!.finish_reason).toBe("stop");
    const inChoice = (final.choices[0] as unknown as { usage: { completion_tokens: number } }).usage;
    expect(inChoice.completion_tokens).toBe(countTokens(text));
    const last = chunks[chunks.length - 1]!;
    expect(last.choices).toEqual([]);
    expect(last.usage?.completion_tokens).toBe(countTokens(text));
    expect(chunks.every((c) => c.id === chunks[0]!.id && c.model === "kimi-latest")).toBe(true);
  });

  it("runs a tool-call round trip with ids of the form name:index and arguments from the schema", async () => {
    const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = [
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "Get the current weather of a city",
          parameters: {
            type: "object",
            properties: { city: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } },
            required: ["city", "unit"],
          },
        },
      },
      {
        type: "function",
        function: { name: "send_email", description: "Send an email", parameters: { type: "object", properties: {} } },
      },
    ];
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: "user", content: "What is the weather in Paris right now?" },
    ];
    const first = await client.chat.completions.create({ model: "moonshot-v1-8k", messages, tools });
    const choice = first.choices[0]!;
    expect(choice.finish_reason).toBe("tool_calls");
    const call = choice.message.tool_calls![0]! as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
    expect(call.id).toBe("get_weather:0");
    expect(JSON.parse(call.function.arguments)).toEqual({ city: "Paris", unit: "celsius" });
    messages.push(choice.message, {
      role: "tool",
      tool_call_id: call.id,
      content: '{"temperature": 21, "sky": "clear"}',
    });
    const second = await client.chat.completions.create({ model: "moonshot-v1-8k", messages, tools });
    expect(second.choices[0]!.finish_reason).toBe("stop");
    expect(second.choices[0]!.message.content).toContain("temperature = 21");
  });

  it("streams tool calls with the id and name first and argument fragments after", async () => {
    const stream = await client.chat.completions.create({
      model: "moonshot-v1-8k",
      messages: [{ role: "user", content: "Search the orders for customer 42" }],
      tools: [
        {
          type: "function",
          function: {
            name: "search_orders",
            description: "Search orders by customer",
            parameters: { type: "object", properties: { customer_id: { type: "integer" } }, required: ["customer_id"] },
          },
        },
      ],
      stream: true,
    });
    let args = "";
    let name = "";
    let finish: string | null = null;
    for await (const c of stream) {
      for (const d of c.choices[0]?.delta.tool_calls ?? []) {
        if (d.function?.name) name = d.function.name;
        args += d.function?.arguments ?? "";
      }
      finish = c.choices[0]?.finish_reason ?? finish;
    }
    expect(name).toBe("search_orders");
    expect(JSON.parse(args)).toEqual({ customer_id: 42 });
    expect(finish).toBe("tool_calls");
  });

  it("answers with a valid JSON object in JSON mode, following an example object in the prompt", async () => {
    const res = await client.chat.completions.create({
      model: "moonshot-v1-8k",
      response_format: { type: "json_object" },
      messages: [
        { role: "system", content: 'Reply as JSON like {"title": "…", "score": 1, "tags": ["…"]}' },
        { role: "user", content: "Rate the novel Dune." },
      ],
    });
    const obj = JSON.parse(res.choices[0]!.message.content!);
    expect(Object.keys(obj).sort()).toEqual(["score", "tags", "title"]);
    expect(typeof obj.score).toBe("number");
    expect(Array.isArray(obj.tags)).toBe(true);
  });

  it("continues a partial assistant prefix without repeating it", async () => {
    const res = await client.chat.completions.create({
      model: "moonshot-v1-8k",
      messages: [
        { role: "user", content: "Write a short note about testing." },
        { role: "assistant", content: "Here is my note:", partial: true } as never,
      ],
    });
    const content = res.choices[0]!.message.content!;
    expect(content.length).toBeGreaterThan(10);
    expect(content.startsWith("Here is my note:")).toBe(false);
    expect(content.startsWith(" ")).toBe(true);
  });

  it("runs the $web_search round trip, adding the search tokens to the final prompt", async () => {
    const tools = [{ type: "builtin_function", function: { name: "$web_search" } }] as never;
    const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
      { role: "user", content: "How do rate limits and tiers work?" },
    ];
    const before = pipeline.settled.length;
    const first = await client.chat.completions.create({ model: "moonshot-v1-auto", messages, tools });
    expect(first.choices[0]!.finish_reason).toBe("tool_calls");
    const call = first.choices[0]!.message
      .tool_calls![0]! as OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall;
    expect(call.function.name).toBe("$web_search");
    const args = JSON.parse(call.function.arguments);
    expect(args.usage.total_tokens).toBeGreaterThan(20);
    await pipeline.waitForSettled(before + 1);
    expect(pipeline.settled[before]!.webSearchCalls).toBe(1);

    messages.push(first.choices[0]!.message, {
      role: "tool",
      tool_call_id: call.id,
      name: "$web_search",
      content: JSON.stringify(args),
    } as never);
    const final = await client.chat.completions.create({ model: "moonshot-v1-auto", messages, tools });
    expect(final.choices[0]!.finish_reason).toBe("stop");
    expect(final.choices[0]!.message.content).toContain("/docs/guide/rate-limits");
    const promptOnly = await estimate({ model: "moonshot-v1-auto", messages, tools });
    expect(final.usage!.prompt_tokens).toBe(promptOnly + args.usage.total_tokens);
    await pipeline.waitForSettled(before + 2);
    expect(pipeline.settled[before + 1]!.webSearchCalls).toBe(0);
    expect(pipeline.settled[before + 1]!.usage.promptTokens).toBe(final.usage!.prompt_tokens);
  });

  it("returns n different choices when n=2", async () => {
    const res = await client.chat.completions.create({
      model: "moonshot-v1-8k",
      n: 2,
      temperature: 0.7,
      messages: [{ role: "user", content: "Suggest a way to learn a language." }],
    });
    expect(res.choices.map((c) => c.index)).toEqual([0, 1]);
    expect(res.choices[0]!.message.content).not.toBe(res.choices[1]!.message.content);
    const sum = res.choices.reduce((s, c) => s + countTokens(c.message.content!), 0);
    expect(res.usage!.completion_tokens).toBe(sum);
  });

  it("ends the output before a stop sequence, leaving the matched text out", async () => {
    const messages = [{ role: "user" as const, content: "Tell me about software design." }];
    const full = (await client.chat.completions.create({ model: "moonshot-v1-8k", messages })).choices[0]!.message
      .content!;
    const word = full.split(" ")[6]!;
    const cut = await client.chat.completions.create({
      model: "moonshot-v1-8k",
      messages,
      stop: ["zzz-not-there", word],
    });
    expect(cut.choices[0]!.finish_reason).toBe("stop");
    expect(cut.choices[0]!.message.content).toBe(full.slice(0, full.indexOf(word)));
  });

  it("stops at max_tokens with finish_reason length", async () => {
    const res = await client.chat.completions.create({
      model: "moonshot-v1-8k",
      max_tokens: 5,
      messages: [{ role: "user", content: "Describe the ocean in detail." }],
    });
    expect(res.choices[0]!.finish_reason).toBe("length");
    expect(res.usage!.completion_tokens).toBe(5);
  });

  it("gives reasoning_content before the content for a thinking model", async () => {
    const stream = await client.chat.completions.create({
      model: "kimi-thinking-preview",
      messages: [{ role: "user", content: "Why is the sky blue?" }],
      stream: true,
    });
    const order: string[] = [];
    for await (const c of stream) {
      const d = c.choices[0]?.delta as { reasoning_content?: string; content?: string } | undefined;
      if (d?.reasoning_content) order.push("r");
      if (d?.content) order.push("c");
    }
    expect(order[0]).toBe("r");
    expect(order.lastIndexOf("r")).toBeLessThan(order.indexOf("c"));
    const plain = await client.chat.completions.create({
      model: "kimi-thinking-preview",
      messages: [{ role: "user", content: "Why is the sky blue?" }],
    });
    const reasoning = (plain.choices[0]!.message as unknown as { reasoning_content: string }).reasoning_content;
    expect(plain.usage!.completion_tokens_details?.reasoning_tokens).toBe(countTokens(reasoning));
    expect(plain.usage!.completion_tokens).toBe(
      countTokens(reasoning) + countTokens(plain.choices[0]!.message.content!),
    );
  });

  it("lists the models with context length and capabilities", async () => {
    const list = await client.models.list();
    const ids = list.data.map((m) => m.id);
    expect(ids).toContain("moonshot-v1-8k");
    expect(ids).not.toContain("kimi-latest-8k");
    const vision = list.data.find((m) => m.id === "moonshot-v1-8k-vision-preview") as unknown as {
      context_length: number;
      supports_image_in: boolean;
    };
    expect(vision.context_length).toBe(8192);
    expect(vision.supports_image_in).toBe(true);
  });
});

describe("errors surface as the SDK's exception classes", () => {
  it("raises AuthenticationError for a missing or unknown key", async () => {
    const res = await fetch(`${baseURL}/models`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      error: { type: "invalid_authentication_error", message: "Invalid Authentication" },
    });
    const malformed = new OpenAI({ apiKey: "not-a-key", baseURL, maxRetries: 0 });
    await expect(malformed.models.list()).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
    const wrong = new OpenAI({ apiKey: `sk-${"x".repeat(48)}`, baseURL, maxRetries: 0 });
    const err = await wrong.models.list().catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(err.error).toEqual({ type: "invalid_authentication_error", message: "Incorrect API key provided" });
  });

  it("raises RateLimitError and PermissionDeniedError from admission and charges nothing", async () => {
    const limited = new OpenAI({
      apiKey: pipeline.addKey({ refuse: () => gatewayErrors.engineOverloaded() }).key,
      baseURL,
      maxRetries: 0,
    });
    const denied = new OpenAI({
      apiKey: pipeline.addKey({ refuse: () => gatewayErrors.apiNotOpen() }).key,
      baseURL,
      maxRetries: 0,
    });
    const before = pipeline.settled.length;
    const body = { model: "moonshot-v1-8k", messages: [{ role: "user" as const, content: "hi" }] };
    await expect(limited.chat.completions.create(body)).rejects.toBeInstanceOf(OpenAI.RateLimitError);
    await expect(denied.chat.completions.create(body)).rejects.toBeInstanceOf(OpenAI.PermissionDeniedError);
    expect(pipeline.settled.length).toBe(before);
  });

  it("raises BadRequestError with the exact message for an invalid field", async () => {
    const err = await client.chat.completions
      .create({ model: "moonshot-v1-8k", temperature: 1.5, messages: [{ role: "user", content: "hi" }] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err.error).toEqual({
      type: "invalid_request_error",
      message: "Invalid request: temperature must be a number between 0 and 1",
    });
  });

  it("raises NotFoundError for an unknown model", async () => {
    const err = await client.chat.completions
      .create({ model: "gpt-9", messages: [{ role: "user", content: "hi" }] })
      .catch((e) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect(err.error.message).toBe("Not found the model gpt-9 or Permission denied");
  });
});
