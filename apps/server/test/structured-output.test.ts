/**
 * Structured output and forced tool calls (docs/api-compat.md §2.1), and the reading of upstream streams to the SSE
 * rules (§2.8), with the official openai SDK: `response_format: json_schema` as `chat.completions.parse` sends it
 * from a zod schema, answered by the simulator and passed unchanged to an upstream; the schema guards; JSON mode
 * answering with the keys the prompt names; `tool_choice: "required"` where the model allows it; multi-line and
 * commented upstream events, and an unreadable one turned into an error instead of an empty answer.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import Ajv from "ajv";
import OpenAI from "openai";
import { zodResponseFormat } from "openai/helpers/zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestApp, type TestApp } from "./helpers.ts";
import { FIXTURE_DOCS } from "./support/fixtures.ts";
import { TestPipeline } from "./support/test-pipeline.ts";

const seen: Record<string, unknown>[] = [];
/** What the app logged at error level. */
const logs: string[] = [];
let upstream: http.Server;
let t: TestApp;
let client: OpenAI;
let baseURL: string;
let tmp: string;

const SIM = "kimi-k2-0905-preview";
const UP = "kimi-k2-turbo-preview";
const MULTILINE = "kimi-k2-0711-preview";
const GARBLED = "kimi-latest";

const Person = z.object({
  name: z.string(),
  age: z.number().int().min(0).max(150),
  email: z.string().nullable(),
  role: z.enum(["admin", "editor", "viewer"]),
  tags: z.array(z.string()).min(1),
  address: z.object({ city: z.string(), zip: z.string().max(10) }),
});

function sse(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: "up-1",
  object: "chat.completion.chunk",
  created: 1,
  model: "up",
  choices: [{ index: 0, delta, finish_reason: finish }],
});

function startUpstream(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      seen.push(body);
      const model = String(body.model);
      if (model === "structured" && !body.stream) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            id: "up-1",
            object: "chat.completion",
            created: 1,
            model: "up",
            choices: [
              {
                index: 0,
                message: {
                  role: "assistant",
                  content: JSON.stringify({
                    name: "Ada",
                    age: 36,
                    email: null,
                    role: "admin",
                    tags: ["math"],
                    address: { city: "London", zip: "N1" },
                  }),
                },
                finish_reason: "stop",
              },
            ],
            usage: { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 },
          }),
        );
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(": keep-alive comment\n\n");
      res.write(sse(chunk({ role: "assistant", content: "" })));
      if (model === "multiline") {
        // One event whose JSON is split over two data lines, with id and retry fields and a comment inside.
        const json = JSON.stringify(chunk({ content: "Hello" }));
        const cut = json.indexOf('"choices"');
        res.write(`id: 7\nretry: 1000\n: inside\ndata: ${json.slice(0, cut)}\n`);
        res.write(`data: ${json.slice(cut)}\n\n`);
        // CRLF line ends are allowed too.
        res.write(`data: ${JSON.stringify(chunk({ content: " world" }))}\r\n\r\n`);
      } else {
        res.write(sse(chunk({ content: "Hi" })));
        res.write('data: {"choices": [oops\n\n');
      }
      res.write(sse({ ...chunk({}, "stop"), usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } }));
      res.end("data: [DONE]\n\n");
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

beforeAll(async () => {
  upstream = await startUpstream();
  const up = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-structured-"));
  const file = path.join(tmp, "upstreams.json");
  const route = (upstreamModel: string) => ({
    baseUrl: up,
    upstreamModel,
    connectTimeoutMs: 1000,
    responseTimeoutMs: 5000,
  });
  fs.writeFileSync(
    file,
    JSON.stringify({ [UP]: route("structured"), [MULTILINE]: route("multiline"), [GARBLED]: route("garbled") }),
  );
  const pipeline = new TestPipeline();
  t = await createTestApp(
    { DOCS_DIR: FIXTURE_DOCS, UPSTREAMS_FILE: file },
    { pipeline, logger: { level: "error", stream: { write: (line: string) => void logs.push(line) } } },
  );
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  baseURL = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/v1`;
  client = new OpenAI({ apiKey: pipeline.addKey().key, baseURL, maxRetries: 0 });
});
afterAll(async () => {
  await t.close();
  upstream.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function raw(body: unknown) {
  const res = await fetch(`${baseURL}/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${client.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

describe("response_format json_schema", () => {
  it("answers the simulator's structured output with JSON the schema accepts", async () => {
    const res = await client.chat.completions.parse({
      model: SIM,
      messages: [{ role: "user", content: "Describe Ada Lovelace, born in London, as a person record." }],
      response_format: zodResponseFormat(Person, "person"),
    });
    const parsed = res.choices[0]!.message.parsed;
    expect(parsed).not.toBeNull();
    expect(Person.parse(parsed)).toEqual(parsed);
  });

  it("streams structured output that parses", async () => {
    const stream = client.chat.completions.stream({
      model: SIM,
      messages: [{ role: "user", content: "A person record for Grace Hopper." }],
      response_format: zodResponseFormat(Person, "person"),
    });
    const final = await stream.finalChatCompletion();
    expect(Person.safeParse(final.choices[0]!.message.parsed).success).toBe(true);
  });

  it("follows $ref, $defs, anyOf and recursion in a hand-written schema", async () => {
    const schema = {
      type: "object",
      properties: {
        root: { $ref: "#/$defs/node" },
        kind: { anyOf: [{ type: "string", enum: ["tree"] }, { type: "null" }] },
        when: { type: "string", format: "date-time" },
        code: { type: "string", minLength: 3, maxLength: 5 },
        score: { type: "number", exclusiveMinimum: 0, maximum: 1 },
      },
      required: ["root", "kind", "when", "code", "score"],
      additionalProperties: false,
      $defs: {
        node: {
          type: "object",
          properties: { label: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/node" } } },
          required: ["label", "children"],
          additionalProperties: false,
        },
      },
    };
    const res = await client.chat.completions.create({
      model: SIM,
      messages: [{ role: "user", content: "Give me a tree." }],
      response_format: { type: "json_schema", json_schema: { name: "tree", strict: true, schema } },
    });
    const value = JSON.parse(res.choices[0]!.message.content!);
    const validate = new Ajv({ strict: false, logger: false }).compile(schema);
    expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
  });

  it("passes the response_format to an upstream unchanged", async () => {
    const format = zodResponseFormat(Person, "person");
    const res = await client.chat.completions.parse({
      model: UP,
      messages: [{ role: "user", content: "Ada" }],
      response_format: format,
    });
    expect(res.choices[0]!.message.parsed).toMatchObject({ name: "Ada", role: "admin" });
    expect(seen[seen.length - 1]!.response_format).toEqual(JSON.parse(JSON.stringify(format)));
  });

  const valid = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
  const refusals: [string, unknown, string][] = [
    [
      "a model without structured output",
      { model: "moonshot-v1-8k", rf: { name: "x", schema: valid } },
      "model moonshot-v1-8k does not support response_format json_schema",
    ],
    ["no json_schema", { rf: undefined }, "response_format.json_schema must be an object with name and schema"],
    ["a bad name", { rf: { name: "has space", schema: valid } }, "response_format.json_schema.name must match"],
    [
      "a non-boolean strict",
      { rf: { name: "x", strict: "yes", schema: valid } },
      "json_schema.strict must be a boolean",
    ],
    [
      "a root that is not an object",
      { rf: { name: "x", schema: { type: "array" } } },
      "response_format.json_schema.schema must be a JSON schema whose root has type object",
    ],
    [
      "a nested schema of the wrong shape",
      { rf: { name: "x", schema: { type: "object", properties: { a: { type: 5 } } } } },
      "response_format.json_schema.schema.properties.a.type must be a string or an array of strings",
    ],
    [
      "an outside $ref",
      { rf: { name: "x", schema: { type: "object", properties: { a: { $ref: "https://example.com/s" } } } } },
      "response_format.json_schema.schema.properties.a.$ref must be a reference inside the schema",
    ],
    [
      "an empty anyOf",
      { rf: { name: "x", schema: { type: "object", properties: { a: { anyOf: [] } } } } },
      "response_format.json_schema.schema.properties.a.anyOf must be a non-empty array of schemas",
    ],
  ];
  it.each(refusals)("refuses %s with a clear 400", async (_name, c, message) => {
    const { model, rf } = c as { model?: string; rf: unknown };
    const res = await raw({
      model: model ?? SIM,
      messages: [{ role: "user", content: "hi" }],
      response_format: { type: "json_schema", ...(rf === undefined ? {} : { json_schema: rf }) },
    });
    expect(res.status).toBe(400);
    const err = JSON.parse(res.text).error;
    expect(err.type).toBe("invalid_request_error");
    expect(err.message).toContain(message);
  });
});

describe("response_format json_object", () => {
  it("answers with the keys the prompt names", async () => {
    const res = await client.chat.completions.create({
      model: "moonshot-v1-8k",
      response_format: { type: "json_object" },
      messages: [
        { role: "system", content: "Reply in JSON with the keys name, age and city." },
        { role: "user", content: "Tell me about Alan Turing, who lived to 41 in Wilmslow." },
      ],
    });
    const value = JSON.parse(res.choices[0]!.message.content!);
    expect(Object.keys(value)).toEqual(["name", "age", "city"]);
    expect(value.age).toBe(41);
  });
});

describe('tool_choice "required"', () => {
  const tools = [
    {
      type: "function" as const,
      function: {
        name: "get_weather",
        description: "Current weather in a city",
        parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      },
    },
  ];

  it("makes a K2 model call a tool even when none fits the question", async () => {
    const res = await client.chat.completions.create({
      model: SIM,
      messages: [{ role: "user", content: "Tell me a joke about penguins." }],
      tools,
      tool_choice: "required",
    });
    expect(res.choices[0]!.finish_reason).toBe("tool_calls");
    expect(res.choices[0]!.message.tool_calls?.[0]).toMatchObject({ function: { name: "get_weather" } });
  });

  it("is passed to an upstream", async () => {
    await client.chat.completions.create({
      model: UP,
      messages: [{ role: "user", content: "Weather?" }],
      tools,
      tool_choice: "required",
    });
    expect(seen[seen.length - 1]!.tool_choice).toBe("required");
  });

  it("is refused with thinking enabled and on models that do not allow it", async () => {
    const thinking = await raw({
      model: SIM,
      messages: [{ role: "user", content: "hi" }],
      tools,
      tool_choice: "required",
      thinking: { type: "enabled" },
    });
    expect(thinking.status).toBe(400);
    expect(JSON.parse(thinking.text).error.message).toBe(
      "Invalid request: tool_choice 'required' is not supported with thinking enabled; use 'auto' or 'none'",
    );
    const v1 = await raw({
      model: "moonshot-v1-8k",
      messages: [{ role: "user", content: "hi" }],
      tools,
      tool_choice: "required",
    });
    expect(v1.status).toBe(400);
    expect(JSON.parse(v1.text).error.message).toBe(
      "Invalid request: model moonshot-v1-8k does not support tool_choice 'required'; use 'auto' or 'none'",
    );
  });
});

describe("upstream SSE events", () => {
  it("joins an event's data lines and ignores id, retry and comments", async () => {
    const stream = await client.chat.completions.create({
      model: MULTILINE,
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    let text = "";
    for await (const c of stream) text += c.choices[0]?.delta.content ?? "";
    expect(text).toBe("Hello world");
  });

  it("turns an event it cannot read into an error, not an empty answer", async () => {
    const res = await raw({ model: GARBLED, messages: [{ role: "user", content: "hi" }], stream: true });
    expect(res.status).toBe(200);
    expect(res.text).toContain('"error"');
    expect(res.text).toContain("could not be read");
    expect(res.text).not.toContain('"finish_reason":"stop"');
    expect(logs.some((l) => l.includes("stream failed") && l.includes("could not be read"))).toBe(true);
  });
});
