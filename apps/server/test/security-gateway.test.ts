/**
 * Hostile input at the gateway: no request may freeze the server, and every /v1 answer is the
 * docs/api-compat.md §3 envelope. The timing tests run the app on a real port and poll /healthz over HTTP while the attack is sent.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../src/v1/routes.ts";
import { seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp } from "./helpers.ts";
import { healthBound, pollHealth } from "./support/health-poller.ts";

let t: TestApp;
let port: number;
let key: string;

beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_DELAY_MS: "0" });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as AddressInfo).port;
  // A high tier: RPM and TPM limits are not what these tests are about.
  key = (await seedAccount(t.ctx, { cash: "100", tierOverride: 5 })).key;
});
afterAll(async () => {
  await t.close();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  ms: number;
}

/** A raw HTTP request: resolves on the response even if the server closes before the whole body was sent. */
function send(opts: { method: string; path: string; headers?: Record<string, string>; body?: Buffer }) {
  return new Promise<Answer>((resolve, reject) => {
    const t0 = performance.now();
    let answered = false;
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method: opts.method,
        path: opts.path,
        headers: {
          ...(opts.body ? { "content-type": "application/json", "content-length": String(opts.body.length) } : {}),
          ...opts.headers,
        },
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
            ms: performance.now() - t0,
          }),
        );
      },
    );
    req.on("error", (e) => {
      if (!answered) reject(e);
    });
    if (opts.body) req.end(opts.body);
    else req.end();
  });
}

function expectEnvelope(a: { body: string }, type: string): string {
  const body = JSON.parse(a.body);
  expect(Object.keys(body)).toEqual(["error"]);
  expect(Object.keys(body.error).sort()).toEqual(["message", "type"]);
  expect(body.error.type).toBe(type);
  return body.error.message as string;
}

const FIVE_MB = 5 * 1024 * 1024;
const runs = {
  ascii: "a".repeat(FIVE_MB),
  cjk: "中".repeat(FIVE_MB / 3),
  emoji: "😀".repeat(FIVE_MB / 4),
};

describe("token counting cannot freeze the server", () => {
  it("5 MB runs of ASCII, CJK and emoji in messages, names and tools: /healthz stays under 100 ms", async () => {
    const bodies: { path: string; body: Buffer; status: number }[] = [];
    for (const run of Object.values(runs)) {
      const messages = [{ role: "user", content: run }];
      const named = [{ role: "user", content: "hi", name: run }];
      const tools = [
        { type: "function", function: { name: "lookup", description: run, parameters: { type: "object" } } },
      ];
      for (const path of ["/v1/chat/completions", "/v1/tokenizers/estimate-token-count"]) {
        const chat = path.includes("chat");
        // Chat refuses each of them as longer than any context; the estimate counts them in full.
        const status = chat ? 400 : 200;
        bodies.push({ path, status, body: Buffer.from(JSON.stringify({ model: "moonshot-v1-128k", messages })) });
        bodies.push({
          path,
          status,
          body: Buffer.from(JSON.stringify({ model: "moonshot-v1-128k", messages: named })),
        });
        bodies.push({
          path,
          status,
          body: Buffer.from(
            JSON.stringify({ model: "moonshot-v1-128k", messages: [{ role: "user", content: "hi" }], tools }),
          ),
        });
      }
    }
    const poll = pollHealth(port);
    const started = performance.now();
    for (const b of bodies) {
      const a = await send({ method: "POST", path: b.path, headers: { authorization: `Bearer ${key}` }, body: b.body });
      expect(a.status, `${b.path} ${a.body.slice(0, 200)}`).toBe(b.status);
      if (b.status === 400) expect(expectEnvelope(a, "invalid_request_error")).toBe("Input token length too long");
      else expect(JSON.parse(a.body).data.total_tokens).toBeGreaterThan(100_000);
    }
    const total = performance.now() - started;
    const latencies = await poll.stop();
    const sorted = [...latencies].sort((x, y) => x - y);
    console.log(
      `[security-gateway] ${bodies.length} bodies of 5 MB runs in ${(total / 1000).toFixed(1)} s; /healthz polled ${latencies.length}×: ` +
        `median ${sorted[sorted.length >> 1]!.toFixed(1)} ms, p95 ${sorted[Math.floor(sorted.length * 0.95)]!.toFixed(1)} ms, ` +
        `max ${sorted[sorted.length - 1]!.toFixed(1)} ms (load ${os.loadavg()[0]!.toFixed(1)} on ${os.availableParallelism()} cores)`,
    );
    expect(latencies.length).toBeGreaterThan(10);
    // A server blocked by counting would stall every poll, whatever the load.
    expect(sorted[sorted.length >> 1]!).toBeLessThan(20);
    expect(Math.max(...latencies)).toBeLessThan(healthBound());
  }, 180_000);
});

describe("bodies are read only for a valid key, and never parsed past a sane depth", () => {
  const deep = Buffer.alloc(48 * 1024 * 1024, "[");

  it("a 48 MB body nested 48 million deep with an invalid key: 401 at once, no stall, no memory", async () => {
    const rss0 = process.memoryUsage().rss;
    const poll = pollHealth(port);
    const a = await send({
      method: "POST",
      path: "/v1/chat/completions",
      headers: { authorization: "Bearer sk-invalidinvalidinvalidinvalidinvalidinvalid" },
      body: deep,
    });
    const latencies = await poll.stop();
    expect(a.status).toBe(401);
    expectEnvelope(a, "invalid_authentication_error");
    expect(a.headers.connection).toBe("close");
    expect(a.ms).toBeLessThan(1000);
    expect(Math.max(...latencies)).toBeLessThan(healthBound());
    // The body was never buffered (48 MB of input would be ~2 GB once parsed).
    expect(process.memoryUsage().rss - rss0).toBeLessThan(150 * 1024 * 1024);
    console.log(
      `[security-gateway] deep body, invalid key: ${a.status} in ${a.ms.toFixed(0)} ms; /healthz max ${Math.max(...latencies).toFixed(1)} ms`,
    );
  });

  it("the same body with a valid key is refused while it arrives, with the §3 message", async () => {
    const poll = pollHealth(port);
    const a = await send({
      method: "POST",
      path: "/v1/chat/completions",
      headers: { authorization: `Bearer ${key}` },
      body: deep,
    });
    const latencies = await poll.stop();
    expect(a.status).toBe(400);
    expect(expectEnvelope(a, "invalid_request_error")).toBe(
      `Invalid request: the request body nests JSON more than ${MAX_JSON_DEPTH} levels deep`,
    );
    expect(a.ms).toBeLessThan(1000);
    expect(Math.max(...latencies)).toBeLessThan(healthBound());
  });

  it("brackets inside strings do not count, and a body at the depth limit parses", async () => {
    // The object is level 1, so MAX_JSON_DEPTH - 1 arrays inside it reach the limit exactly.
    const nested = (d: number) => `${"[".repeat(d)}${"]".repeat(d)}`;
    const deepBody = (d: number) =>
      Buffer.from(
        `{"model":"moonshot-v1-8k","messages":[{"role":"user","content":"[[[[{{{{\\"[[["}],"x":${nested(d)}}`,
      );
    const at = (d: number) =>
      send({
        method: "POST",
        path: "/v1/tokenizers/estimate-token-count",
        headers: { authorization: `Bearer ${key}` },
        body: deepBody(d),
      });
    const ok = await at(MAX_JSON_DEPTH - 1);
    expect(ok.status, ok.body).toBe(200);
    const over = await at(MAX_JSON_DEPTH);
    expect(over.status).toBe(400);
    expectEnvelope(over, "invalid_request_error");
  });

  it("refuses a body over the limit from its Content-Length, before reading it", async () => {
    const a = await new Promise<string>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () => {
        socket.write(
          `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${200 * 1024 * 1024}\r\n\r\n`,
        );
      });
      let text = "";
      socket.on("data", (d) => {
        text += d.toString();
        if (text.includes("}}")) {
          socket.destroy();
          resolve(text);
        }
      });
    });
    expect(a).toMatch(/^HTTP\/1.1 400/);
    expect(a).toContain(
      '{"error":{"type":"invalid_request_error","message":"Invalid request: the request body is larger than the limit of 100 MB"}}',
    );
  });
});

describe("hostile tool schemas and NUL bytes are 400s, never 500s", () => {
  const chat = (body: unknown) =>
    t.app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      payload: JSON.stringify(body),
    });
  const DEEP = "\u0000deep\u0000";
  const withTool = (parameters: unknown) => ({
    model: "moonshot-v1-8k",
    messages: [{ role: "user", content: "look up the weather" }],
    tools: [{ type: "function", function: { name: "lookup", parameters } }],
  });
  // Built as text: JSON.stringify itself overflows the stack on an object 5,000 levels deep.
  const deepSchema = `${'{"type":"object","properties":{"a":'.repeat(5000)}{"type":"string"}${"}}".repeat(5000)}`;

  it.each([
    [
      "a nested required that is not an array",
      { type: "object", properties: { a: { type: "object", required: 5 } }, required: ["a"] },
      "tools[0].function.parameters.properties.a.required must be an array of property names",
    ],
    [
      "minItems: 1e10",
      { type: "object", properties: { a: { type: "array", minItems: 1e10 } }, required: ["a"] },
      "tools[0].function.parameters.properties.a.minItems must be an integer between 0 and 1024",
    ],
    [
      "a property schema that is null",
      { type: "object", properties: { a: null }, required: ["a"] },
      "tools[0].function.parameters.properties.a must be a JSON schema object",
    ],
    [
      "schemas 40 levels deep",
      (() => {
        let s: Record<string, unknown> = { type: "string" };
        for (let i = 0; i < 40; i++) s = { type: "object", properties: { a: s }, required: ["a"] };
        return s;
      })(),
      "schemas may nest at most 32 levels deep",
    ],
    ["schemas 5,000 deep", DEEP, `the request body nests JSON more than ${MAX_JSON_DEPTH} levels deep`],
  ])("%s", async (_name, parameters, message) => {
    const res =
      parameters === DEEP
        ? await t.app.inject({
            method: "POST",
            url: "/v1/chat/completions",
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            payload: JSON.stringify(withTool(DEEP)).replace(JSON.stringify(DEEP), deepSchema),
          })
        : await chat(withTool(parameters));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.type).toBe("invalid_request_error");
    expect(res.json().error.message).toContain(message);
  });

  it("the simulator builds arguments for odd but valid schemas (boolean items, inherited names)", async () => {
    const res = await chat({
      ...withTool({
        type: "object",
        properties: { list: { type: "array", items: true, minItems: 1000 } },
        required: ["list", "toString", "missing"],
      }),
      tool_choice: { type: "function", function: { name: "lookup" } },
    });
    expect(res.statusCode, res.body).toBe(200);
    const args = JSON.parse(res.json().choices[0].message.tool_calls[0].function.arguments);
    expect(args.list.length).toBeLessThanOrEqual(8);
    expect(Object.keys(args).sort()).toEqual(["list", "missing", "toString"]);
  });

  it("NUL bytes in the model, messages, names, tool names and headers are never a 500", async () => {
    const nul = "a\u0000b";
    const bodies = [
      { model: nul, messages: [{ role: "user", content: "hi" }] },
      { model: "moonshot-v1-8k", messages: [{ role: "user", content: nul, name: nul }] },
      { model: "moonshot-v1-8k", messages: [{ role: nul, content: "x" }] },
      {
        ...withTool({ type: "object", properties: { [nul]: { type: "string", description: nul } }, required: [nul] }),
        tool_choice: { type: "function", function: { name: "lookup" } },
      },
      { model: "moonshot-v1-8k", messages: [{ role: "user", content: "hi" }], stop: [nul], seed: 1 },
    ];
    for (const b of bodies) {
      const res = await chat(b);
      expect(res.statusCode, res.body).toBeLessThan(500);
    }
    const est = await t.app.inject({
      method: "POST",
      url: "/v1/tokenizers/estimate-token-count",
      headers: { authorization: `Bearer ${key}` },
      payload: JSON.stringify({
        model: "moonshot-v1-8k",
        messages: [{ role: "user", content: "\u0000".repeat(10_000) }],
      }),
    });
    expect(est.statusCode).toBe(200);
    const model = await t.app.inject({
      method: "GET",
      url: "/v1/models/a%00b",
      headers: { authorization: `Bearer ${key}` },
    });
    expect(model.statusCode).toBe(404);
    expect(model.json().error.type).toBe("resource_not_found_error");
  });
});

describe("every /v1 answer is the §3 envelope and quotes at most a short prefix of the input", () => {
  const auth = () => ({ authorization: `Bearer ${key}` });

  it("bad percent-encoding: 400", async () => {
    const a = await send({ method: "GET", path: "/v1/models/%ff", headers: auth() });
    expect(a.status).toBe(400);
    expect(expectEnvelope(a, "invalid_request_error")).toBe(
      "Invalid request: the URL is not correctly percent-encoded",
    );
  });

  it("a path parameter over the router's limit: 414", async () => {
    const a = await send({ method: "GET", path: `/v1/models/${"m".repeat(500)}`, headers: auth() });
    expect(a.status).toBe(414);
    expectEnvelope(a, "invalid_request_error");
  });

  it("headers (or a URL) over Node's maxHeaderSize: 431 from the HTTP parser", async () => {
    for (const [path, headers] of [
      ["/v1/models", { ...auth(), "x-pad": "p".repeat(32 * 1024) }],
      [`/v1/models?${"q".repeat(32 * 1024)}`, auth()],
    ] as const) {
      const a = await send({ method: "GET", path, headers });
      expect(a.status).toBe(431);
      expectEnvelope(a, "invalid_request_error");
    }
    // Outside /v1 the usual answer stays.
    const other = await send({ method: "GET", path: "/api/me", headers: { "x-pad": "p".repeat(32 * 1024) } });
    expect(other.status).toBe(431);
    expect(JSON.parse(other.body).statusCode).toBe(431);
  });

  it("doubled slashes reach the gateway", async () => {
    const a = await send({
      method: "POST",
      path: "//v1//chat/completions",
      headers: auth(),
      body: Buffer.from(JSON.stringify({ model: "moonshot-v1-8k", messages: [{ role: "user", content: "hi" }] })),
    });
    expect(a.status).toBe(200);
    const unknown = await send({ method: "GET", path: "//v1//nothing-here", headers: auth() });
    expect(unknown.status).toBe(404);
    expectEnvelope(unknown, "resource_not_found_error");
  });

  it("unknown routes and wrong methods: 404 in the envelope, with the path cut short", async () => {
    const long = `/v1/${"x".repeat(5000)}`;
    for (const [method, path] of [
      ["GET", "/v1/chat/completions"],
      ["DELETE", "/v1/models"],
      ["GET", long],
    ] as const) {
      const a = await send({ method, path, headers: auth() });
      expect(a.status).toBe(404);
      expect(expectEnvelope(a, "resource_not_found_error").length).toBeLessThan(120);
    }
  });

  it("a 1 MB model name is not echoed back", async () => {
    const model = "m".repeat(1024 * 1024);
    const a = await send({
      method: "POST",
      path: "/v1/chat/completions",
      headers: auth(),
      body: Buffer.from(JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] })),
    });
    expect(a.status).toBe(404);
    const message = expectEnvelope(a, "resource_not_found_error");
    expect(message).toBe(`Not found the model ${"m".repeat(64)}… or Permission denied`);
  });

  it("long tool names and tool_call ids are quoted by prefix only", async () => {
    const name = `t${"x".repeat(100_000)}`;
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/chat/completions",
      headers: auth(),
      payload: JSON.stringify({
        model: "moonshot-v1-8k",
        messages: [{ role: "user", content: "hi" }],
        tools: [
          { type: "function", function: { name } },
          { type: "function", function: { name } },
        ],
      }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message.length).toBeLessThan(200);
  });
});
