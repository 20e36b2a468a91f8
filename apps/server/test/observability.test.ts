/**
 * Metrics and tracing (observability/): the Prometheus endpoint after real traffic, its protection, and the
 * OTLP export of /v1 request and job spans to a receiver on loopback that decodes what arrives.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { schema } from "@moonport/db";
import { afterEach, describe, expect, it } from "vitest";
import { grantBalance } from "../src/modules/billing/grant-balance.ts";
import { type MetricsServer, startMetricsServer } from "../src/observability/metrics-server.ts";
import { signUp } from "./console-helpers.ts";
import { seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function app(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp(env);
  cleanups.push(() => t.close());
  return t;
}

function chat(t: TestApp, key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: "POST",
    url: "/v1/chat/completions",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
    payload: JSON.stringify({ model: "moonshot-v1-8k", messages: [{ role: "user", content: "Hello" }], ...body }),
  });
}

/** One sample of the exposition: `name{labels} value`, labels given as a subset to match. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  let found = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got: Record<string, string> = {};
    for (const pair of (m[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) got[pair[1]!] = pair[2]!;
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) {
      total += Number(m[3]);
      found = true;
    }
  }
  if (!found) throw new Error(`no sample ${name} ${JSON.stringify(labels)} in\n${text}`);
  return total;
}

async function scrape(server: MetricsServer, token?: string) {
  const res = await fetch(`http://127.0.0.1:${server.port}/metrics`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
}

describe("Prometheus metrics", () => {
  it("count requests by route, model and status, time the gateway, and report refusals, bills and jobs", async () => {
    const t = await app();
    const token = "metrics-token-0123456789";
    const server = await startMetricsServer(
      t.ctx.observability.metrics,
      { host: "127.0.0.1", port: 0, token },
      t.ctx.log,
    );
    cleanups.push(() => server.close());

    // Protected: no token, a wrong token, another path, another method.
    expect((await scrape(server)).status).toBe(401);
    expect((await scrape(server, "metrics-token-0123456780")).status).toBe(401);
    expect((await fetch(`http://127.0.0.1:${server.port}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${server.port}/metrics`, { method: "POST" })).status).toBe(405);

    const before = await scrape(server, token);
    expect(before.status).toBe(200);
    expect(before.type).toContain("text/plain");
    // Histograms by model have no samples before the first request.
    expect(before.text).not.toContain("moonport_gateway_overhead_seconds_count");

    const rich = await seedAccount(t.ctx, { cash: "100", tierOverride: 1 });
    const tier0 = await seedAccount(t.ctx, { cash: "100", tierOverride: 0 }); // cn Tier0: 3 RPM
    const broke = await seedAccount(t.ctx, { tierOverride: 1 });

    for (let i = 0; i < 3; i++) expect((await chat(t, rich.key, {})).statusCode).toBe(200);
    expect((await chat(t, rich.key, { stream: true })).statusCode).toBe(200);
    expect((await chat(t, rich.key, { model: "kimi-nonexistent" })).statusCode).toBe(404);
    expect((await chat(t, rich.key, { messages: [] })).statusCode).toBe(400);
    expect((await chat(t, "sk-wrong", {})).statusCode).toBe(401);
    for (let i = 0; i < 3; i++) expect((await chat(t, tier0.key, {})).statusCode).toBe(200);
    expect((await chat(t, tier0.key, {})).statusCode).toBe(429); // the 4th in a minute: RPM
    expect((await chat(t, broke.key, {})).statusCode).toBe(429); // no balance
    const models = await t.app.inject({ url: "/v1/models", headers: { authorization: `Bearer ${rich.key}` } });
    expect(models.statusCode).toBe(200);
    expect((await t.app.inject({ url: "/healthz" })).statusCode).toBe(200);
    // A playground run: the same pipeline, counted under its own route with its model.
    const member = await signUp(t);
    await grantBalance({
      ctx: t.ctx,
      orgId: member.orgId,
      amount: 10_000_000_000n,
      note: "test",
      createdBy: member.userId,
    });
    const run = await member.client.post(
      `/api/orgs/${member.orgId}/projects/${member.defaultProjectId}/playground/chat`,
      { model: "kimi-k2-0905-preview", messages: [{ role: "user", content: "hi" }] },
    );
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    await t.ctx.meter.flush();

    // A job that succeeds and one that fails (each run counts, the failure too).
    let calls = 0;
    t.ctx.jobs.define({ name: "test.ok", handler: async () => void calls++ });
    t.ctx.jobs.define({
      name: "test.fails",
      handler: async () => {
        throw new Error("boom");
      },
    });
    await t.ctx.jobs.enqueue({ name: "test.ok" });
    await t.ctx.jobs.enqueue({ name: "test.fails" });
    await t.ctx.jobs.runDue();
    expect(calls).toBe(1);

    const { text } = await scrape(server, token);
    const req = (labels: Record<string, string>) =>
      sample(text, "moonport_http_requests_total", { route: "/v1/chat/completions", method: "POST", ...labels });
    expect(req({ model: "moonshot-v1-8k", status: "200" })).toBe(7);
    expect(req({ model: "other", status: "404" })).toBe(1);
    expect(req({ model: "moonshot-v1-8k", status: "400" })).toBe(1);
    expect(req({ model: "moonshot-v1-8k", status: "429" })).toBe(2);
    // Refused at authentication, before the body was read: no model to label.
    expect(req({ model: "", status: "401" })).toBe(1);
    expect(sample(text, "moonport_http_requests_total", { route: "/v1/models", method: "GET", status: "200" })).toBe(1);
    // Ours, and the member's client fetching its CSRF cookie before signing up.
    expect(sample(text, "moonport_http_requests_total", { route: "/healthz", status: "200" })).toBe(2);

    expect(sample(text, "moonport_gateway_refusals_total", { kind: "rpm" })).toBe(1);
    expect(sample(text, "moonport_gateway_refusals_total", { kind: "balance" })).toBe(1);
    expect(sample(text, "moonport_gateway_refusals_total", { kind: "concurrency" })).toBe(0);

    // Every /v1 response carries Server-Timing and is observed once; the engine only for the 7 completions.
    expect(sample(text, "moonport_gateway_overhead_seconds_count")).toBe(13);
    expect(sample(text, "moonport_gateway_overhead_seconds_bucket", { le: "+Inf" })).toBe(13);
    expect(sample(text, "moonport_gateway_upstream_seconds_count")).toBe(7);
    expect(sample(text, "moonport_gateway_upstream_seconds_sum")).toBeGreaterThan(0);
    // By the model the body names and the mode: 6 JSON completions, the 400 and the two 429s; one stream.
    const v8k = { model: "moonshot-v1-8k" };
    expect(sample(text, "moonport_gateway_overhead_seconds_count", { ...v8k, mode: "json" })).toBe(9);
    expect(sample(text, "moonport_gateway_overhead_seconds_count", { ...v8k, mode: "stream" })).toBe(1);
    expect(sample(text, "moonport_gateway_overhead_seconds_count", { model: "other" })).toBe(1);
    expect(sample(text, "moonport_gateway_upstream_seconds_count", { ...v8k, mode: "json" })).toBe(6);
    expect(sample(text, "moonport_gateway_upstream_seconds_count", { ...v8k, mode: "stream" })).toBe(1);
    // Whole requests by route and status.
    const duration = (labels: Record<string, string>) =>
      sample(text, "moonport_http_request_duration_seconds_count", labels);
    expect(duration({ route: "/v1/chat/completions", method: "POST", status: "200" })).toBe(7);
    expect(duration({ route: "/v1/chat/completions", method: "POST", status: "429" })).toBe(2);
    expect(duration({ route: "/v1/models", status: "200" })).toBe(1);
    expect(
      sample(text, "moonport_http_request_duration_seconds_sum", { route: "/v1/chat/completions" }),
    ).toBeGreaterThan(0);
    const playgroundRoute = "/api/orgs/:orgId/projects/:projectId/playground/chat";
    expect(
      sample(text, "moonport_http_requests_total", {
        route: playgroundRoute,
        model: "kimi-k2-0905-preview",
        status: "200",
      }),
    ).toBe(1);
    // Tokens by billed model, the same figures as the bills.
    const inference = (await t.ctx.db.select().from(schema.requestBills)).filter(
      (b) => b.productType === "model_inference",
    );
    for (const model of ["moonshot-v1-8k", "kimi-k2-0905-preview"]) {
      const rows = inference.filter((b) => b.model === model);
      const tokens = (kind: string) => sample(text, "moonport_gateway_tokens_total", { model, kind });
      expect(tokens("prompt")).toBe(rows.reduce((n, b) => n + b.inputTokens, 0));
      expect(tokens("completion")).toBe(rows.reduce((n, b) => n + b.outputTokens, 0));
      expect(tokens("cached")).toBe(rows.reduce((n, b) => n + b.cachedTokens, 0));
      expect(tokens("prompt")).toBeGreaterThan(0);
    }
    // The seven completions and the playground run reached the bill writer and are committed; refusals were never admitted.
    expect(sample(text, "moonport_bill_commit_lag_seconds_count")).toBe(8);
    expect(sample(text, "moonport_bill_queue_depth")).toBe(0);
    expect(sample(text, "moonport_journal_backlog")).toBe(0);
    expect(sample(text, "moonport_gateway_open_streams")).toBe(0);
    // With Redis, the admissions (8 admitted, 2 refused by the script) by path; without, none.
    const script = sample(text, "moonport_gateway_limit_admissions_total", { path: "script" });
    const allowance = sample(text, "moonport_gateway_limit_admissions_total", { path: "allowance" });
    expect(script + allowance).toBe(t.ctx.redis ? 8 : 0);

    expect(sample(text, "moonport_job_runs_total", { name: "test.ok" })).toBe(1);
    expect(sample(text, "moonport_job_failures_total", { name: "test.ok" })).toBe(0);
    expect(sample(text, "moonport_job_runs_total", { name: "test.fails" })).toBe(1);
    expect(sample(text, "moonport_job_failures_total", { name: "test.fails" })).toBe(1);
    expect(sample(text, "moonport_job_duration_seconds_count")).toBeGreaterThanOrEqual(2);
    // prom-client's process metrics come along.
    expect(sample(text, "moonport_process_resident_memory_bytes")).toBeGreaterThan(0);
  });

  it("report open streams and queued bills while they exist", async () => {
    const t = await app({ SIMULATOR_DELAY_MS: "40" });
    const server = await startMetricsServer(t.ctx.observability.metrics, { host: "127.0.0.1", port: 0 }, t.ctx.log);
    cleanups.push(() => server.close());
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const port = (t.app.server.address() as AddressInfo).port;
    const acct = await seedAccount(t.ctx, { cash: "100", tierOverride: 1 });

    const firstChunk = new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/v1/chat/completions",
          headers: { authorization: `Bearer ${acct.key}`, "content-type": "application/json" },
        },
        (res) => res.once("data", () => resolve(res)),
      );
      req.on("error", reject);
      req.end(
        JSON.stringify({
          model: "moonshot-v1-8k",
          stream: true,
          max_tokens: 60,
          messages: [{ role: "user", content: "Tell me a long story" }],
        }),
      );
    });
    const res = await firstChunk;
    const during = await scrape(server);
    expect(sample(during.text, "moonport_gateway_open_streams")).toBe(1);
    await new Promise((resolve) => res.on("end", resolve).resume());
    // Settled: the bill waits for the writer's next batch (up to 100 ms), then is committed.
    const after = await scrape(server);
    expect(sample(after.text, "moonport_gateway_open_streams")).toBe(0);
    expect(
      sample(after.text, "moonport_journal_backlog") + sample(after.text, "moonport_bill_commit_lag_seconds_count"),
    ).toBe(1);
    await t.ctx.meter.flush();
    const flushed = await scrape(server);
    expect(sample(flushed.text, "moonport_bill_queue_depth")).toBe(0);
    expect(sample(flushed.text, "moonport_journal_backlog")).toBe(0);
    expect(sample(flushed.text, "moonport_bill_commit_lag_seconds_count")).toBe(1);
  });
});

describe("Prometheus metrics, disconnects", () => {
  it("count a stream the client abandoned", async () => {
    const t = await app({ SIMULATOR_DELAY_MS: "40" });
    await t.app.listen({ port: 0, host: "127.0.0.1" });
    const port = (t.app.server.address() as AddressInfo).port;
    const acct = await seedAccount(t.ctx, { cash: "100", tierOverride: 1 });
    await new Promise<void>((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/v1/chat/completions",
          headers: { authorization: `Bearer ${acct.key}`, "content-type": "application/json" },
        },
        (res) =>
          res.once("data", () => {
            req.destroy();
            resolve();
          }),
      );
      req.on("error", () => {});
      req.end(
        JSON.stringify({
          model: "moonshot-v1-8k",
          stream: true,
          max_tokens: 60,
          messages: [{ role: "user", content: "Tell me a long story" }],
        }),
      );
      setTimeout(() => reject(new Error("no first chunk")), 10_000);
    });
    const { body } = await waitForScrape(t, (text) =>
      text.includes('moonport_http_requests_total{route="/v1/chat/completions"') ? text : undefined,
    );
    expect(
      sample(body, "moonport_http_requests_total", { route: "/v1/chat/completions", model: "moonshot-v1-8k" }),
    ).toBe(1);
  });
});

async function waitForScrape(t: TestApp, check: (text: string) => string | undefined) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const text = (await t.ctx.observability.metrics.scrape()).body;
    const got = check(text);
    if (got !== undefined) return { body: got };
    if (Date.now() > deadline) throw new Error(`timed out; last scrape:\n${text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
  status?: { code?: number };
}

/** A tiny OTLP/HTTP receiver: decodes the JSON export requests and keeps every span with its service name. */
async function otlpReceiver() {
  const spans: (OtlpSpan & { service: string })[] = [];
  const requests: { path: string; contentType: string; headers: http.IncomingHttpHeaders }[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      requests.push({ path: req.url ?? "", contentType: req.headers["content-type"] ?? "", headers: req.headers });
      const data = JSON.parse(body) as {
        resourceSpans: {
          resource: { attributes: OtlpSpan["attributes"] };
          scopeSpans: { spans: OtlpSpan[] }[];
        }[];
      };
      for (const rs of data.resourceSpans) {
        const service = String(rs.resource.attributes.find((a) => a.key === "service.name")?.value.stringValue);
        for (const ss of rs.scopeSpans) for (const s of ss.spans) spans.push({ ...s, service });
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, spans, requests };
}

function attrs(span: OtlpSpan): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of span.attributes) {
    const v = a.value;
    out[a.key] = v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : (v.boolValue ?? v.doubleValue));
  }
  return out;
}

describe("OpenTelemetry tracing", () => {
  it("is off by default: no tracer, no tracing hooks", async () => {
    const t = await app();
    expect(t.ctx.observability.tracing).toBeNull();
    expect(t.app.observability.tracing).toBeNull();
  });

  it("exports a span per /v1 request (model, status, organization; no secrets) and per job over OTLP/HTTP", async () => {
    const receiver = await otlpReceiver();
    const t = await createTestApp({
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiver.port}`,
      OTEL_EXPORTER_OTLP_HEADERS: "x-collector-token=s3cret%20value",
      OTEL_SERVICE_NAME: "moonport-test",
    });
    let closed = false;
    cleanups.push(async () => {
      if (!closed) await t.close();
    });
    const acct = await seedAccount(t.ctx, { cash: "100", tierOverride: 1 });
    const parentTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
    const ok = await chat(t, acct.key, {}, { traceparent: `00-${parentTrace}-00f067aa0ba902b7-01` });
    expect(ok.statusCode).toBe(200);
    const bad = await chat(t, acct.key, { messages: [] });
    expect(bad.statusCode).toBe(400);
    t.ctx.jobs.define({ name: "test.traced", handler: async () => {} });
    await t.ctx.jobs.enqueue({ name: "test.traced" });
    await t.ctx.jobs.runDue();
    // Closing the app flushes the batch processor.
    await t.close();
    closed = true;

    expect(receiver.requests.length).toBeGreaterThan(0);
    for (const r of receiver.requests) {
      expect(r.path).toBe("/v1/traces");
      expect(r.contentType).toContain("application/json");
      expect(r.headers["x-collector-token"]).toBe("s3cret value");
    }
    const requestSpans = receiver.spans.filter((s) => s.name === "POST /v1/chat/completions");
    expect(requestSpans).toHaveLength(2);
    const okSpan = requestSpans.find((s) => attrs(s)["http.response.status_code"] === 200)!;
    expect(okSpan.service).toBe("moonport-test");
    expect(okSpan.kind).toBe(2); // SERVER
    expect(okSpan.traceId).toBe(parentTrace);
    expect(okSpan.parentSpanId).toBe("00f067aa0ba902b7");
    expect(attrs(okSpan)).toMatchObject({
      "http.request.method": "POST",
      "http.route": "/v1/chat/completions",
      "http.response.status_code": 200,
      "moonport.model": "moonshot-v1-8k",
      "moonport.org_id": acct.orgId,
      "moonport.project_id": acct.projectId,
      "moonport.api_key_id": acct.keyId,
      "moonport.request_id": ok.headers["msh-request-id"],
    });
    const badSpan = requestSpans.find((s) => s !== okSpan)!;
    expect(attrs(badSpan)["http.response.status_code"]).toBe(400);
    // Nothing secret travels: neither the API key nor the Authorization header appear anywhere in the export.
    const everything = JSON.stringify(receiver.spans);
    expect(everything).not.toContain(acct.key);
    expect(everything.toLowerCase()).not.toContain("authorization");

    const jobSpan = receiver.spans.find((s) => s.name === "job test.traced");
    expect(jobSpan).toBeDefined();
    expect(attrs(jobSpan!)).toMatchObject({ "moonport.job.name": "test.traced", "moonport.job.attempt": 1 });
  });
});
