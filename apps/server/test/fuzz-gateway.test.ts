/**
 * Fuzzing the public gateway: thousands of generated bodies and URLs — valid-ish requests, wrong types,
 * huge numbers, NUL bytes, deep nesting, odd tool schemas and messages, broken JSON, odd paths — against the real
 * pipeline and a funded key. For every answer: no 5xx; every error is exactly `{"error":{"type","message"}}`;
 * nothing refused is admitted or settled; and at the end the bill rows are exactly the successful completions and
 * the balance moved by exactly their sum. Fixed seed; the figures are printed for the record.
 */
import { MODELS } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GatewayPipeline } from "../src/metering/pipeline.ts";
import { orgMoney, type SeededAccount, seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp } from "./helpers.ts";
import { FIXTURE_DOCS } from "./support/fixtures.ts";

const SEED = 20261122;

let t: TestApp;
let acct: SeededAccount;
const calls = { admit: 0, settle: 0 };

beforeAll(async () => {
  t = await createTestApp(
    { DOCS_DIR: FIXTURE_DOCS, SIMULATOR_DELAY_MS: "0" },
    {
      // The real pipeline, counted: a refused request must never be admitted or settled.
      pipeline: ({ meter }): GatewayPipeline => ({
        authenticate: (h) => meter.authenticate(h),
        balance: (o) => meter.balance(o),
        admit: (r) => {
          calls.admit++;
          return meter.admit(r);
        },
        settle: (r) => {
          calls.settle++;
          return meter.settle(r);
        },
      }),
    },
  );
  acct = await seedAccount(t.ctx, { cash: "100000", tierOverride: 5 });
  // Rate limits are not under test here: a 429 would only hide the requests behind it.
  await t.ctx.db
    .update(schema.organizations)
    .set({ rateLimitOverride: { concurrency: 1000, rpm: 1_000_000, tpm: 1_000_000_000, tpd: null } })
    .where(eq(schema.organizations.id, acct.orgId));
  await t.ctx.keyEvents.invalidate({ orgId: acct.orgId });
});
afterAll(async () => {
  await t.close();
});

// ---- generators -------------------------------------------------------------------------------------------

const nasty = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom("", "\u0000", "a\u0000b", "\uD800", "<|endoftext|>", "%ff", "../../etc/passwd", "😀".repeat(50)),
  fc.string({ unit: fc.constantFrom("a", "中", "😀", " ", "\n", "\u0000", "/"), minLength: 100, maxLength: 3000 }),
);
const number = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, 1, 1e10, 1e308, -1e308, 2 ** 53, 0.5, 5, 6, 1024, 1e-9),
);
const scalar = fc.oneof(nasty, number, fc.boolean(), fc.constant(null));
const model = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...MODELS.filter((m) => m.listed).map((m) => m.id)) },
  { weight: 1, arbitrary: nasty },
  { weight: 1, arbitrary: scalar },
);
const part = fc.oneof(
  fc.record({ type: fc.constant("text"), text: fc.oneof(nasty, scalar) }),
  fc.record({
    type: fc.constant("image_url"),
    image_url: fc.oneof(
      fc.record({
        url: fc.constantFrom("data:image/png;base64,iVBORw0KGgo=", "http://x/y.png", "data:image/png;base64,"),
      }),
      scalar,
    ),
  }),
  scalar,
);
const message = fc.record(
  {
    role: fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom("user", "system", "assistant", "tool") },
      { weight: 1, arbitrary: scalar },
    ),
    content: fc.oneof(
      { weight: 5, arbitrary: nasty },
      { weight: 1, arbitrary: fc.array(part, { maxLength: 3 }) },
      { weight: 1, arbitrary: scalar },
    ),
    name: fc.oneof(nasty, scalar),
    partial: fc.oneof(fc.boolean(), scalar),
    tool_call_id: nasty,
    tool_calls: fc.oneof(
      fc.array(
        fc.record({
          id: nasty,
          type: fc.constantFrom("function", "builtin_function", "x"),
          function: fc.record({ name: nasty, arguments: fc.oneof(nasty, scalar) }),
        }),
        { maxLength: 2 },
      ),
      scalar,
    ),
  },
  { requiredKeys: ["role", "content"] },
);
/** JSON schemas: plausible, odd (wrong types for required/items/minItems…) and deep. */
const jsonSchema: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  schema: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    scalar,
    fc.record(
      {
        type: fc.oneof(
          fc.constantFrom("object", "string", "integer", "number", "boolean", "array", "null"),
          scalar,
          fc.array(fc.constantFrom("string", "null")),
        ),
        properties: fc.oneof(
          fc.dictionary(
            fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom("toString", "constructor", "a\u0000")),
            tie("schema"),
            { maxKeys: 3 },
          ),
          scalar,
        ),
        required: fc.oneof(fc.array(fc.oneof(fc.string({ maxLength: 8 }), scalar), { maxLength: 3 }), scalar),
        items: fc.oneof(tie("schema"), fc.array(tie("schema"), { maxLength: 2 })),
        enum: fc.oneof(fc.array(scalar, { maxLength: 3 }), scalar),
        minItems: number,
        maxItems: number,
        minimum: number,
        maximum: number,
        default: scalar,
        description: nasty,
      },
      { requiredKeys: [] },
    ),
  ),
})).schema;
const tool = fc.oneof(
  fc.record({
    type: fc.constantFrom("function", "builtin_function", "other"),
    function: fc.record(
      {
        name: fc.oneof(fc.constantFrom("get_weather", "lookup_item", "$web_search", "x"), nasty),
        description: fc.oneof(nasty, scalar),
        parameters: fc.oneof(
          jsonSchema.map((s) => (s && typeof s === "object" ? { ...s, type: "object" } : s)),
          jsonSchema,
        ),
      },
      { requiredKeys: ["name"] },
    ),
  }),
  scalar,
);
const chatBody = fc.record(
  {
    model,
    messages: fc.oneof(
      { weight: 6, arbitrary: fc.array(message, { minLength: 1, maxLength: 4 }) },
      { weight: 1, arbitrary: scalar },
    ),
    max_tokens: fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: 1, max: 40 }) },
      { weight: 1, arbitrary: number },
      { weight: 1, arbitrary: scalar },
    ),
    temperature: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), number),
    top_p: number,
    n: fc.oneof(fc.integer({ min: 1, max: 6 }), number),
    presence_penalty: number,
    stream: fc.oneof(fc.boolean(), scalar),
    stream_options: fc.oneof(fc.record({ include_usage: fc.oneof(fc.boolean(), scalar) }), scalar),
    stop: fc.oneof(nasty, fc.array(nasty, { maxLength: 6 }), scalar),
    response_format: fc.oneof(fc.record({ type: fc.constantFrom("text", "json_object", "json_schema") }), scalar),
    tools: fc.oneof(fc.array(tool, { maxLength: 3 }), scalar),
    tool_choice: fc.oneof(
      fc.constantFrom("auto", "none", "required"),
      fc.record({ type: fc.constant("function"), function: fc.record({ name: nasty }) }),
      scalar,
    ),
    seed: number,
  },
  { requiredKeys: ["model", "messages"] },
);
/** Requests that mostly pass validation, so completions (and their bills) are fuzzed too. */
const validChat = fc.record(
  {
    model: fc.constantFrom("moonshot-v1-8k", "moonshot-v1-32k", "moonshot-v1-auto", "kimi-latest"),
    messages: fc.array(
      fc.record({
        role: fc.constantFrom("user", "system"),
        content: fc.oneof(
          fc.string({ minLength: 1, maxLength: 80 }),
          fc.constantFrom("a\u0000b", "😀中文", "<|im_end|>"),
        ),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    max_tokens: fc.integer({ min: 1, max: 24 }),
    stream: fc.boolean(),
    stream_options: fc.record({ include_usage: fc.boolean() }),
    n: fc.integer({ min: 1, max: 3 }),
    temperature: fc.constantFrom(0.3, 0.7, 1),
    stop: fc.array(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 2 }),
    tools: fc.array(
      fc.record({
        type: fc.constant("function"),
        function: fc.record({
          name: fc.constantFrom("get_weather", "lookup_item", "search_docs"),
          description: fc.string({ maxLength: 40 }),
          parameters: jsonSchema.map((p) => ({ ...(p && typeof p === "object" ? p : {}), type: "object" })),
        }),
      }),
      { maxLength: 1 },
    ),
    seed: fc.integer({ min: 0, max: 1000 }),
  },
  { requiredKeys: ["model", "messages", "max_tokens", "temperature"] },
);
const deep = fc
  .tuple(fc.integer({ min: 100, max: 20_000 }), fc.constantFrom("[", '{"a":'))
  .map(
    ([d, open]) =>
      `{"model":"moonshot-v1-8k","messages":[{"role":"user","content":"hi"}],"x":${open.repeat(d)}1${(open === "[" ? "]" : "}").repeat(d)}}`,
  );
/** What goes on the wire: JSON of a generated body, or raw text (broken JSON, NUL bytes, deep nesting). */
const payload = fc.oneof(
  { weight: 8, arbitrary: chatBody.map((b) => JSON.stringify(b)) },
  { weight: 6, arbitrary: validChat.map((b) => JSON.stringify(b)) },
  { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 200 }) },
  { weight: 1, arbitrary: deep },
  { weight: 1, arbitrary: chatBody.map((b) => JSON.stringify(b).slice(0, -1)) },
);
const auth = fc.oneof(
  { weight: 20, arbitrary: fc.constant("valid") },
  {
    weight: 1,
    arbitrary: fc.constantFrom("", "Bearer ", "Bearer sk-nope", "Basic abc", `Bearer sk-${"x".repeat(60)}`),
  },
);
const contentType = fc.constantFrom(
  "application/json",
  "application/json",
  "text/plain",
  "",
  "application/x-www-form-urlencoded",
  "application/json; charset=utf-16",
);
const pathSegment = fc.oneof(
  fc.constantFrom(...MODELS.map((m) => m.id)),
  fc.string({ maxLength: 30 }).map(encodeURIComponent),
  // (no "..": URL parsing resolves `/v1/..` to `/`, which is not a gateway path)
  fc.constantFrom("%ff", "%", "%00", "a%2fb", "x".repeat(200), "%E4%B8%AD"),
);
const getUrl = fc.oneof(
  pathSegment.map((s) => `/v1/models/${s}`),
  fc.string({ maxLength: 20 }).map((q) => `/v1/users/me/balance?${encodeURIComponent(q)}`),
  fc.constantFrom(
    "/v1/users/me/balance",
    "/v1/models",
    "//v1//models",
    "/v1/",
    "/v1/nothing",
    "/v1/models/",
    "/v1/users/me/balance/",
  ),
  pathSegment.map((s) => `/v1/${s}`),
);

// ---- the run ----------------------------------------------------------------------------------------------

interface Tally {
  tried: number;
  fiveHundreds: number;
  byStatus: Map<number, number>;
  completions: number;
  refusedButCharged: number;
}
const tally: Tally = { tried: 0, fiveHundreds: 0, byStatus: new Map(), completions: 0, refusedButCharged: 0 };

function headersFor(a: string, ct: string): Record<string, string> {
  const h: Record<string, string> = {};
  if (a === "valid") h.authorization = `Bearer ${acct.key}`;
  else if (a) h.authorization = a;
  if (ct) h["content-type"] = ct;
  return h;
}

async function check(
  res: { statusCode: number; body: string; headers: Record<string, unknown> },
  before: { admit: number; settle: number },
) {
  tally.tried++;
  tally.byStatus.set(res.statusCode, (tally.byStatus.get(res.statusCode) ?? 0) + 1);
  if (res.statusCode >= 500) tally.fiveHundreds++;
  expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500);
  if (res.statusCode >= 400) {
    const body = JSON.parse(res.body);
    expect(Object.keys(body)).toEqual(["error"]);
    expect(Object.keys(body.error).sort()).toEqual(["message", "type"]);
    expect(typeof body.error.type).toBe("string");
    expect(typeof body.error.message).toBe("string");
    expect(body.error.message.length).toBeLessThanOrEqual(1025);
    if (calls.admit !== before.admit || calls.settle !== before.settle) tally.refusedButCharged++;
    expect(calls.admit).toBe(before.admit);
    expect(calls.settle).toBe(before.settle);
  }
}

describe("gateway fuzz", () => {
  it("no 5xx, only §3 errors, and nothing charged for what was refused", async () => {
    const money0 = await orgMoney(t.ctx.db, acct.orgId);
    const started = performance.now();

    await fc.assert(
      fc.asyncProperty(payload, auth, contentType, fc.boolean(), async (body, a, ct, estimate) => {
        const before = { ...calls };
        const res = await t.app.inject({
          method: "POST",
          url: estimate ? "/v1/tokenizers/estimate-token-count" : "/v1/chat/completions",
          headers: headersFor(a, ct),
          payload: body,
        });
        await check(res, before);
        if (res.statusCode === 200) {
          if (estimate) {
            expect(typeof res.json().data.total_tokens).toBe("number");
            expect(calls.admit).toBe(before.admit);
          } else {
            tally.completions++;
            if (String(res.headers["content-type"]).startsWith("text/event-stream"))
              expect(res.body).toContain("data: [DONE]");
            else expect(res.json().object).toBe("chat.completion");
            expect(calls.settle).toBe(before.settle + 1);
          }
        }
      }),
      { seed: SEED, numRuns: 5000 },
    );

    await fc.assert(
      fc.asyncProperty(
        getUrl,
        auth,
        fc.constantFrom("GET", "GET", "GET", "POST", "DELETE", "PUT"),
        async (url, a, method) => {
          const before = { ...calls };
          const res = await t.app.inject({ method, url, headers: headersFor(a, "") });
          await check(res, before);
        },
      ),
      { seed: SEED + 1, numRuns: 1500 },
    );

    await t.ctx.meter.flush();
    const money1 = await orgMoney(t.ctx.db, acct.orgId);
    const charged = money0.cash - money1.cash;
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `[fuzz-gateway] ${tally.tried} bodies/URLs in ${seconds.toFixed(1)} s (seed ${SEED}); 5xx: ${tally.fiveHundreds}; ` +
        `statuses: ${[...tally.byStatus]
          .sort((x, y) => x[0] - y[0])
          .map(([s, n]) => `${s}×${n}`)
          .join(" ")}; ` +
        `completions: ${tally.completions}, billed requests: ${money1.bills.requests - money0.bills.requests}, ` +
        `charged ${charged} nano-units = Σ bills ${money1.bills.consumption - money0.bills.consumption}; ` +
        `refused but admitted or settled: ${tally.refusedButCharged}`,
    );
    expect(tally.tried).toBeGreaterThanOrEqual(6000);
    expect(tally.fiveHundreds).toBe(0);
    // Exactly the completions were billed (a $web_search call adds a line to its request, not a request), and
    // the balance moved by exactly the bills.
    expect(money1.bills.requests - money0.bills.requests).toBe(tally.completions);
    expect(charged).toBe(money1.bills.consumption - money0.bills.consumption);
    expect(money1.ledgerCash).toBe(money1.cash);
  }, 480_000);
});
