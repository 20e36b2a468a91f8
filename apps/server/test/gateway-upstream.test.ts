/**
 * The OpenAI-compatible upstream adapter against a real local HTTP server standing in for the upstream:
 * routing and credentials, streaming passed through chunk by chunk, usage from the upstream or counted,
 * retries before the first byte, error mapping, and cancellation when the client goes away.
 */
import { EventEmitter } from "node:events";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import OpenAI from "openai";
import { Client } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countTokens } from "../src/chat/tokenizer.ts";
import { liveAbortListeners } from "../src/lib/abort-listeners.ts";
import { createTestApp, type TestApp } from "./helpers.ts";
import { FIXTURE_DOCS } from "./support/fixtures.ts";
import { TestPipeline } from "./support/test-pipeline.ts";
import { withDeadline } from "./support/wait.ts";

interface Seen {
  model: string;
  body: Record<string, unknown>;
  /** The request body as it arrived (JSON.parse would hide a repeated key). */
  raw: string;
  authorization: string | undefined;
}

const seen: Seen[] = [];
const closedEarly: string[] = [];
/** Emits "closed-early" with the model when the gateway hangs up on a streaming upstream response. */
const upstreamEvents = new EventEmitter();
let flakyCount = 0;
let upstream: http.Server;
let t: TestApp;
let pipeline: TestPipeline;
let client: OpenAI;
let baseURL: string;
let tmp: string;

const WORDS = ["Upstream ", "says ", "hello ", "in ", "five ", "chunks."];

function chunk(id: string, delta: Record<string, unknown>, finish: string | null = null, usage?: unknown) {
  return `data: ${JSON.stringify({
    id,
    object: "chat.completion.chunk",
    created: 1,
    model: "up",
    choices: [{ index: 0, delta, finish_reason: finish, ...(usage ? { usage } : {}) }],
  })}\n\n`;
}

function startUpstream(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", async () => {
      const body = JSON.parse(raw) as Record<string, unknown>;
      const model = String(body.model);
      seen.push({ model, body, raw, authorization: req.headers.authorization });
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(value));
      };
      if (model === "flaky" && flakyCount++ === 0) return json(503, { error: { message: "warming up" } });
      if (model === "bad") return json(400, { error: { message: "context too long for this upstream" } });
      if (model === "ratelimited") return json(429, { error: { message: "slow down" } });
      const usage =
        model === "no-usage"
          ? undefined
          : { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18, cached_tokens: 3 };
      if (!body.stream) {
        return json(200, {
          id: "up-1",
          object: "chat.completion",
          created: 1,
          model: "up",
          choices: [{ index: 0, message: { role: "assistant", content: WORDS.join("") }, finish_reason: "stop" }],
          ...(usage ? { usage } : {}),
        });
      }
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(chunk("up-1", { role: "assistant", content: "" }));
      let closed = false;
      res.on("close", () => {
        if (!res.writableFinished) {
          closed = true;
          closedEarly.push(model);
          upstreamEvents.emit("closed-early", model);
        }
      });
      if (model === "midfail") {
        res.write(chunk("up-1", { content: WORDS[0] }));
        res.end(`data: ${JSON.stringify({ error: { message: "engine crashed", type: "server_error" } })}\n\n`);
        return;
      }
      if (model === "flood") {
        // Far more than the sockets' buffers hold: a client that stops reading puts the gateway under backpressure.
        const piece = chunk("up-1", { content: "x".repeat(4000) });
        for (let i = 0; i < 5000 && !closed; i++) {
          if (!res.write(piece)) await new Promise((r) => res.once("drain", r).once("close", r));
        }
        if (!closed) res.end("data: [DONE]\n\n");
        return;
      }
      for (const w of WORDS) {
        if (closed) return;
        res.write(chunk("up-1", { content: w }));
        if (model === "slow") await new Promise((r) => setTimeout(r, 60));
      }
      res.write(chunk("up-1", {}, "stop", usage));
      res.end("data: [DONE]\n\n");
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

beforeAll(async () => {
  upstream = await startUpstream();
  const up = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-upstreams-"));
  const file = path.join(tmp, "upstreams.json");
  const route = (upstreamModel: string, extra: Record<string, unknown> = {}) => ({
    baseUrl: up,
    apiKeyEnv: "TEST_UPSTREAM_KEY",
    upstreamModel,
    connectTimeoutMs: 1000,
    responseTimeoutMs: 5000,
    ...extra,
  });
  fs.writeFileSync(
    file,
    JSON.stringify({
      "moonshot-v1-8k": route("echo"),
      "moonshot-v1-32k": route("no-usage"),
      "moonshot-v1-128k": route("flaky"),
      "kimi-k2-0905-preview": route("bad"),
      "kimi-k2-turbo-preview": route("slow"),
      "kimi-latest": route("midfail"),
      "moonshot-v1-8k-vision-preview": route("ratelimited"),
      "kimi-k2-0711-preview": route("gone", { baseUrl: "http://127.0.0.1:1/v1" }),
      "moonshot-v1-auto": route("flood"),
    }),
  );
  pipeline = new TestPipeline();
  t = await createTestApp(
    { DOCS_DIR: FIXTURE_DOCS, UPSTREAMS_FILE: file, TEST_UPSTREAM_KEY: "upstream-secret" },
    { pipeline },
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

const messages = [{ role: "user" as const, content: "Say hello." }];

describe("OpenAI-compatible upstream adapter", () => {
  it("forwards to the configured upstream with its model name, key and the admitted max_tokens", async () => {
    const res = await client.chat.completions.create({ model: "moonshot-v1-8k", messages });
    expect(res.choices[0]!.message.content).toBe(WORDS.join(""));
    expect(res.model).toBe("moonshot-v1-8k");
    expect(res.id).toMatch(/^chatcmpl-[0-9a-f]{32}$/);
    expect(res.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 7, total_tokens: 18, cached_tokens: 3 });
    const s = seen[seen.length - 1]!;
    expect(s.model).toBe("echo");
    expect(s.authorization).toBe("Bearer upstream-secret");
    expect(s.body.max_tokens).toBe(1024);
    await pipeline.waitForSettled(1);
    expect(pipeline.settled[pipeline.settled.length - 1]!.usage).toEqual({
      promptTokens: 11,
      completionTokens: 7,
      cachedTokens: 3,
    });
  });

  it("passes a stream through chunk by chunk with the upstream's usage in the final choice", async () => {
    const stream = await client.chat.completions.create({ model: "moonshot-v1-8k", messages, stream: true });
    const deltas: string[] = [];
    let usage: unknown;
    for await (const c of stream) {
      if (c.choices[0]?.delta.content) deltas.push(c.choices[0].delta.content);
      if (c.choices[0]?.finish_reason) usage = (c.choices[0] as unknown as { usage: unknown }).usage;
    }
    expect(deltas).toEqual(WORDS);
    expect(usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 7 });
  });

  it("asks a stream's upstream for usage over the client's stream_options, and sends the stream's head", async () => {
    const res = await fetch(`${baseURL}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${client.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        model: "moonshot-v1-8k",
        messages,
        stream: true,
        stream_options: { include_usage: false },
        max_completion_tokens: 64,
        temperature: 0.3,
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    // The reply's own headers go out with the stream's.
    expect(res.headers.get("msh-request-id")).toMatch(/.+/);
    expect(res.headers.get("server-timing")).toMatch(/^gateway;dur=/);
    const text = await res.text();
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);
    // The client did not ask for the usage chunk: none reaches it.
    expect(text).not.toMatch(/"choices":\[\],"usage"/);
    const s = seen[seen.length - 1]!;
    expect(s.raw.match(/"stream_options"/g)).toHaveLength(1);
    expect(s.body.stream_options).toEqual({ include_usage: true });
    expect(s.body).not.toHaveProperty("max_completion_tokens");
    expect(s.body.max_tokens).toBe(64);
    expect(s.body.temperature).toBe(0.3);
    expect(s.model).toBe("echo");
  });

  it("counts usage with the tokenizer when the upstream reports none", async () => {
    const res = await client.chat.completions.create({ model: "moonshot-v1-32k", messages });
    expect(res.usage!.completion_tokens).toBe(countTokens(WORDS.join("")));
    const est = await fetch(`${baseURL}/tokenizers/estimate-token-count`, {
      method: "POST",
      headers: { authorization: `Bearer ${client.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "moonshot-v1-32k", messages }),
    });
    expect(res.usage!.prompt_tokens).toBe(((await est.json()) as { data: { total_tokens: number } }).data.total_tokens);
    const stream = await client.chat.completions.create({ model: "moonshot-v1-32k", messages, stream: true });
    let completion = 0;
    for await (const c of stream) {
      const u = (c.choices[0] as unknown as { usage?: { completion_tokens: number } } | undefined)?.usage;
      if (u) completion = u.completion_tokens;
    }
    expect(completion).toBe(countTokens(WORDS.join("")));
  });

  it("retries an upstream 503 before anything reached the client", async () => {
    const before = seen.filter((s) => s.model === "flaky").length;
    const res = await client.chat.completions.create({ model: "moonshot-v1-128k", messages });
    expect(res.choices[0]!.message.content).toBe(WORDS.join(""));
    expect(seen.filter((s) => s.model === "flaky").length).toBe(before + 2);
  });

  it("maps upstream errors to the gateway's error types", async () => {
    const bad = await client.chat.completions.create({ model: "kimi-k2-0905-preview", messages }).catch((e) => e);
    expect(bad).toBeInstanceOf(OpenAI.BadRequestError);
    expect(bad.error).toEqual({
      type: "invalid_request_error",
      message: "Invalid request: context too long for this upstream",
    });
    const badStream = await client.chat.completions
      .create({ model: "kimi-k2-0905-preview", messages, stream: true })
      .catch((e) => e);
    expect(badStream).toBeInstanceOf(OpenAI.BadRequestError);
    const limited = await client.chat.completions
      .create({ model: "moonshot-v1-8k-vision-preview", messages })
      .catch((e) => e);
    expect(limited).toBeInstanceOf(OpenAI.RateLimitError);
    expect(limited.error.type).toBe("engine_overloaded_error");
    const gone = await client.chat.completions.create({ model: "kimi-k2-0711-preview", messages }).catch((e) => e);
    expect(gone.status).toBe(502);
    expect(gone.error.type).toBe("server_error");
  });

  it("ends a stream that fails after the first byte with an SSE error event and bills what was produced", async () => {
    const before = pipeline.settled.length;
    const res = await fetch(`${baseURL}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${client.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "kimi-latest", messages, stream: true }),
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain(`"content":"${WORDS[0]}"`);
    expect(text).toContain('data: {"error":{"type":"server_error","message":"engine crashed"}}');
    expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
    await pipeline.waitForSettled(before + 1);
    const s = pipeline.settled[before]!;
    expect(s.status).toBe("upstream_error");
    expect(s.usage.completionTokens).toBe(countTokens(WORDS[0]!));
  });

  it("keeps no abort listeners behind on a keep-alive connection (answers, streams, retries, failures)", async () => {
    // /v1 builds one abort signal per connection (chat/send-chat-run.ts abortOnDisconnect): whatever listens to
    // it for a request must stop when that request ends, or a busy connection would collect listeners (in
    // lib/abort-listeners.ts, or on the signal itself until Node warns of a leak: more than 10 on one signal).
    const listening = liveAbortListeners();
    const warnings: string[] = [];
    const onWarning = (w: Error) => {
      if (w.name === "MaxListenersExceededWarning") warnings.push(w.message);
    };
    process.on("warning", onWarning);
    const conn = new Client(baseURL.replace(/\/v1$/, ""), { pipelining: 1 });
    const post = async (model: string, stream: boolean) => {
      const res = await conn.request({
        path: "/v1/chat/completions",
        method: "POST",
        headers: { authorization: `Bearer ${client.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ model, messages, stream }),
      });
      const text = await res.body.text();
      return { status: res.statusCode, text };
    };
    try {
      for (let i = 0; i < 12; i++) {
        const answer = await post("moonshot-v1-8k", i % 2 === 1);
        expect(answer.status).toBe(200);
        expect(answer.text).toContain("chunks.");
      }
      // Each of these retries twice (two backoff waits on the connection's signal) before it fails.
      for (let i = 0; i < 6; i++) expect((await post("kimi-k2-0711-preview", false)).status).toBe(502);
      expect((await post("kimi-k2-0905-preview", false)).status).toBe(400);
      await new Promise((r) => setImmediate(r));
      expect(warnings).toEqual([]);
      expect(liveAbortListeners()).toBe(listening);
    } finally {
      process.off("warning", onWarning);
      await conn.close();
    }
  });

  it("cancels the upstream request when the client disconnects and settles only what was produced", async () => {
    const abort = new AbortController();
    const res = await fetch(`${baseURL}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${client.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "kimi-k2-turbo-preview", messages, stream: true }),
      signal: abort.signal,
    });
    const reader = res.body!.getReader();
    let text = "";
    while (!text.includes("says")) text += new TextDecoder().decode((await reader.read()).value);
    const settledBefore = pipeline.settled.length;
    abort.abort();
    await pipeline.waitForSettled(settledBefore + 1);
    const s = pipeline.settled[pipeline.settled.length - 1]!;
    expect(s.status).toBe("client_closed");
    expect(s.usage.completionTokens).toBeGreaterThan(0);
    expect(s.usage.completionTokens).toBeLessThan(countTokens(WORDS.join("")));
    if (!closedEarly.includes("slow")) {
      await withDeadline(
        "the upstream request to be cancelled",
        new Promise<void>((resolve) => {
          const onClosed = (model: string) => {
            if (model !== "slow") return;
            upstreamEvents.off("closed-early", onClosed);
            resolve();
          };
          upstreamEvents.on("closed-early", onClosed);
        }),
        1000,
      );
    }
    expect(closedEarly).toContain("slow");
  });

  it("settles a stream whose client stopped reading and then left, instead of waiting for a drain forever", async () => {
    const settledBefore = pipeline.settled.length;
    const socket = net.connect((t.app.server.address() as AddressInfo).port, "127.0.0.1");
    const body = JSON.stringify({ model: "moonshot-v1-auto", messages, stream: true });
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${client.apiKey}\r\n` +
        `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    // Read the head and the first events, then stop reading: the gateway's writes back up.
    await new Promise<void>((resolve) => socket.once("data", () => resolve()));
    socket.pause();
    await new Promise((r) => setTimeout(r, 500));
    expect(pipeline.settled.length).toBe(settledBefore);
    socket.destroy();
    await pipeline.waitForSettled(settledBefore + 1);
    const s = pipeline.settled[pipeline.settled.length - 1]!;
    expect(s.status).toBe("client_closed");
    expect(s.usage.completionTokens).toBeGreaterThan(0);
  });
});
