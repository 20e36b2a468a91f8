import {
  DEFAULT_PLAYGROUND_PARAMS,
  PlaygroundRunBill,
  PlaygroundSession,
  PlaygroundSessionPage,
  type PlaygroundSessionStateInput,
} from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantBalance } from "../src/modules/billing/grant-balance.ts";
import { addOrgMember, addProjectMember, signUp, type TestUser } from "./console-helpers.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SIMULATOR_DELAY_MS: "0" });
});
afterAll(() => t.close());

const P = (u: TestUser, projectId = u.defaultProjectId) => `/api/orgs/${u.orgId}/projects/${projectId}/playground`;
const state = (over: Partial<PlaygroundSessionStateInput> = {}): PlaygroundSessionStateInput => ({
  version: 1,
  mode: "chat",
  system: "You are terse.",
  panels: [{ id: "p1", model: "moonshot-v1-8k", params: DEFAULT_PLAYGROUND_PARAMS }],
  messages: [{ id: "m1", role: "user", content: "Hello" }],
  tools: [],
  ...over,
});

/** A run of the default project with a small default body; `over` changes or adds fields. */
const chat = (u: TestUser, over: Record<string, unknown> = {}) =>
  u.client.post(`${P(u)}/chat`, { model: "moonshot-v1-8k", messages: [{ role: "user", content: "hi" }], ...over });

async function funded(): Promise<TestUser> {
  const u = await signUp(t);
  await grantBalance({ ctx: t.ctx, orgId: u.orgId, amount: 10_000_000_000n, note: "test", createdBy: u.userId });
  return u;
}

async function bills(u: TestUser) {
  await t.ctx.meter.flush();
  return t.ctx.db.select().from(schema.requestBills).where(eq(schema.requestBills.orgId, u.orgId));
}

describe("playground runs", () => {
  it("answers like /v1, bills the project under the playground key id, and reports the exact bill", async () => {
    const u = await funded();
    const res = await u.client.post(`${P(u)}/chat`, {
      model: "moonshot-v1-8k",
      messages: [{ role: "user", content: "Say hello" }],
      max_tokens: 20,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.object).toBe("chat.completion");
    expect(res.body.choices[0].message.content.length).toBeGreaterThan(0);
    const requestId = res.headers["msh-request-id"] as string;
    expect(requestId).toMatch(/^req/);
    const rows = await bills(u);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      requestId,
      projectId: u.defaultProjectId,
      apiKeyId: `playground:${u.userId}`,
      inputTokens: res.body.usage.prompt_tokens,
      outputTokens: res.body.usage.completion_tokens,
    });
    const bill = PlaygroundRunBill.parse((await u.client.get(`${P(u)}/bills/${requestId}`)).body);
    expect(bill.consumption).toBe(rows[0]!.consumption.toString());
    expect(BigInt(bill.consumption)).toBeGreaterThan(0n);
    expect(bill.currency).toBe("CNY");
    // Consumption lists the playground like a key, by name, with the same amount.
    const consumption = (await u.client.get(`/api/orgs/${u.orgId}/consumption`)).body;
    expect(consumption.byApiKey).toEqual([
      { id: `playground:${u.userId}`, name: "Playground", amount: bill.consumption },
    ]);
  });

  it("streams SSE with usage and [DONE]", async () => {
    const u = await funded();
    const res = await u.client.post(`${P(u)}/chat`, {
      model: "moonshot-v1-8k",
      messages: [{ role: "user", content: "Count to three" }],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toContain("text/event-stream");
    const text = res.raw.body;
    expect(text).toContain('"chat.completion.chunk"');
    expect(text.trim().endsWith("data: [DONE]")).toBe(true);
    expect(await bills(u)).toHaveLength(1);
  });

  it("refuses with an empty balance in the user's language and bills nothing", async () => {
    const u = await signUp(t);
    const body = { model: "moonshot-v1-8k", messages: [{ role: "user", content: "hi" }] };
    const en = await u.client.post(`${P(u)}/chat`, body);
    expect(en.status).toBe(429);
    expect(en.body.error.code).toBe("playground_insufficient_balance");
    expect(en.body.error.message).toBe("The organization's balance is used up. Recharge to continue.");
    u.client.locale = "zh-CN";
    const zh = await u.client.post(`${P(u)}/chat`, body);
    expect(zh.body.error.message).toBe("组织余额不足，请充值后继续。");
    expect(await bills(u)).toHaveLength(0);
  });

  it("refuses a spent daily budget (403) in the user's language", async () => {
    const u = await funded();
    await t.ctx.db.update(schema.projects).set({ dailyBudget: 0 }).where(eq(schema.projects.id, u.defaultProjectId));
    t.ctx.keyEvents.invalidate({ projectId: u.defaultProjectId });
    const res = await chat(u);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("playground_daily_budget_exceeded");
    expect(await bills(u)).toHaveLength(0);
  });

  it("refuses the organization's rate limit with its wait", async () => {
    const u = await funded();
    await t.ctx.db
      .update(schema.organizations)
      .set({ rateLimitOverride: { concurrency: 10, rpm: 1, tpm: 1_000_000, tpd: null } })
      .where(eq(schema.organizations.id, u.orgId));
    t.ctx.keyEvents.invalidate({ orgId: u.orgId });
    const body = { model: "moonshot-v1-8k", messages: [{ role: "user", content: "hi" }], max_tokens: 5 };
    expect((await u.client.post(`${P(u)}/chat`, body)).status).toBe(200);
    const second = await u.client.post(`${P(u)}/chat`, body);
    expect(second.status).toBe(429);
    expect(second.body.error.code).toBe("playground_rate_limited");
    expect(second.body.error.message).toMatch(
      /^The organization's rate limit was reached \(RPM 1\)\. Try again in \d+ seconds\.$/,
    );
    expect(Number(second.headers["retry-after"])).toBeGreaterThan(0);
    expect(await bills(u)).toHaveLength(1);
  });

  it.each([
    [{ stop: ["a", "b", "c", "d", "e", "f"] }, "stop", "At most 5 stop sequences, separated by commas."],
    [{ stop: ["x".repeat(33)] }, "stop.0", "Each stop sequence can be at most 32 bytes."],
    // 11 CJK characters are 33 bytes: the limit is bytes, not characters.
    [{ stop: ["停".repeat(11)] }, "stop.0", "Each stop sequence can be at most 32 bytes."],
    [{ stop: [""] }, "stop.0", "A stop sequence cannot be empty."],
    [{ model: "" }, "model", "This field is required."],
    [{ model: "x".repeat(129) }, "model", "At most 128 characters."],
    [{ messages: [] }, "messages", "This field is required."],
    [{ messages: undefined }, "messages", "This field is required."],
    // n where the model does not allow it: thinking models answer with one choice …
    [{ model: "kimi-thinking-preview", n: 2 }, "n", "This model answers with one choice: n must be 1."],
    // … and several choices at temperature 0 (given, or moonshot-v1's default) would be identical.
    [{ n: 2, temperature: 0 }, "n", "n must be 1 when the temperature is 0."],
    [{ n: 3 }, "n", "n must be 1 when the temperature is 0."],
  ])("refuses %j with a field error and bills nothing", async (change, path, message) => {
    const u = await funded();
    const res = await chat(u, change);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_failed");
    expect(res.body.error.details).toContainEqual({ path, message });
    expect(await bills(u)).toHaveLength(0);
  });

  it("translates the n rule into Chinese", async () => {
    const u = await funded();
    u.client.locale = "zh-CN";
    const res = await chat(u, { model: "kimi-thinking-preview", n: 2 });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toContainEqual({ path: "n", message: "该模型只返回一个结果：n 必须为 1。" });
    expect(await bills(u)).toHaveLength(0);
  });

  it("accepts the limits themselves: 5 stop sequences of 32 bytes, n = 5 at a non-zero temperature", async () => {
    const u = await funded();
    const res = await chat(u, {
      // 32 bytes each: ASCII, and 10 CJK characters + 2 ASCII (30 + 2).
      stop: ["a".repeat(32), "b".repeat(32), `${"停".repeat(10)}ab`, "d", "e"],
      n: 5,
      temperature: 0.5,
      max_tokens: 5,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.choices).toHaveLength(5);
  });

  it.each([
    [{ n: 6, temperature: 0.5 }, /\bn\b/],
    [{ top_p: 2 }, /top_p/],
    [{ max_tokens: 0 }, /max_tokens/],
    [{ presence_penalty: 3 }, /presence_penalty/],
    [{ frequency_penalty: -3 }, /frequency_penalty/],
    [{ model: "kimi-thinking-preview", response_format: { type: "json_object" } }, /json_object/],
    [
      {
        messages: [
          { role: "user", content: "hi" },
          { role: "assistant", content: "Hel", partial: true },
        ],
        model: "kimi-thinking-preview",
      },
      /partial/,
    ],
  ])("passes the chat core's refusal of %j on in the user's language and bills nothing", async (change, reason) => {
    const u = await funded();
    const res = await chat(u, change);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe("playground_request_invalid");
    expect(res.body.error.message).toMatch(/^The model refused the request: /);
    expect(res.body.error.message).toMatch(reason);
    expect(await bills(u)).toHaveLength(0);
  });

  it("refuses a malformed tool with a field error and bills nothing", async () => {
    const u = await funded();
    const res = await chat(u, {
      tools: [{ type: "function", function: { name: "x".repeat(65) } }],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("validation_failed");
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain("tools.0.function.name");
    expect(await bills(u)).toHaveLength(0);
  });

  it("answers 404 for a run bill that does not exist", async () => {
    const u = await funded();
    expect((await u.client.get(`${P(u)}/bills/req_nope`)).status).toBe(404);
  });

  it("explains the chat core's refusals in the user's language (unknown model, bad temperature)", async () => {
    const u = await funded();
    u.client.locale = "zh-CN";
    const res = await chat(u, { model: "no-such-model" });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("playground_request_invalid");
    expect(res.body.error.message).toMatch(/^模型拒绝了该请求：/);
    const temp = await chat(u, { temperature: 5 });
    expect(temp.status).toBe(400);
    expect(temp.body.error.code).toBe("playground_request_invalid");
    expect(await bills(u)).toHaveLength(0);
  });

  it("hides another member's run bills", async () => {
    const a = await funded();
    const res = await a.client.post(`${P(a)}/chat`, {
      model: "moonshot-v1-8k",
      messages: [{ role: "user", content: "x" }],
    });
    const other = await signUp(t);
    await addOrgMember(t, a.orgId, other, "member");
    await addProjectMember(t, a.defaultProjectId, other, "member");
    const seen = await other.client.get(`${P(a)}/bills/${res.headers["msh-request-id"]}`);
    expect(seen.status).toBe(404);
  });
});

describe("playground sessions", () => {
  it("creates, lists, reads, renames, updates and deletes the caller's own sessions", async () => {
    const u = await signUp(t);
    const created = await u.client.post(`${P(u)}/sessions`, { title: "First", state: state() });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const s = PlaygroundSession.parse(created.body);
    expect(s.state.panels[0]!.model).toBe("moonshot-v1-8k");
    const list = PlaygroundSessionPage.parse((await u.client.get(`${P(u)}/sessions`)).body);
    expect(list.items.map((i) => i.title)).toEqual(["First"]);
    const renamed = await u.client.patch(`${P(u)}/sessions/${s.id}`, { title: "Renamed" });
    expect(renamed.body.title).toBe("Renamed");
    const moved = await u.client.patch(`${P(u)}/sessions/${s.id}`, { state: state({ mode: "edit" }) });
    expect(moved.body.mode).toBe("edit");
    expect((await u.client.get(`${P(u)}/sessions/${s.id}`)).body.state.mode).toBe("edit");
    expect((await u.client.delete(`${P(u)}/sessions/${s.id}`)).status).toBe(200);
    expect((await u.client.get(`${P(u)}/sessions/${s.id}`)).status).toBe(404);
  });

  it("keeps sessions private to their author", async () => {
    const a = await signUp(t);
    const s = (await a.client.post(`${P(a)}/sessions`, { title: "Mine", state: state() })).body;
    const b = await signUp(t);
    await addOrgMember(t, a.orgId, b, "admin");
    expect((await b.client.get(`${P(a)}/sessions/${s.id}`)).status).toBe(404);
    expect((await b.client.patch(`${P(a)}/sessions/${s.id}`, { title: "x" })).status).toBe(404);
    expect((await b.client.delete(`${P(a)}/sessions/${s.id}`)).status).toBe(404);
    expect(PlaygroundSessionPage.parse((await b.client.get(`${P(a)}/sessions`)).body).total).toBe(0);
    expect((await a.client.get(`${P(a)}/sessions/${s.id}`)).body.title).toBe("Mine");
  });

  it.each([
    [{ title: "", state: state() }, "title", "This field is required."],
    [{ title: "x".repeat(81), state: state() }, "title", "At most 80 characters."],
    [{ title: "ok", state: state({ mode: "riddle" as never }) }, "state.mode", "Invalid value."],
    [
      {
        title: "ok",
        state: state({
          panels: [1, 2, 3, 4].map((i) => ({
            id: `p${i}`,
            model: "moonshot-v1-8k",
            params: DEFAULT_PLAYGROUND_PARAMS,
          })),
        }),
      },
      "state.panels",
      null,
    ],
    [
      {
        title: "ok",
        state: state({
          panels: [{ id: "p", model: "moonshot-v1-8k", params: { ...DEFAULT_PLAYGROUND_PARAMS, stop: "a,b,c,d,e,f" } }],
        }),
      },
      "state.panels.0.params.stop",
      "At most 5 stop sequences, separated by commas.",
    ],
    [
      {
        title: "ok",
        state: state({
          panels: [
            { id: "p", model: "moonshot-v1-8k", params: { ...DEFAULT_PLAYGROUND_PARAMS, stop: "x".repeat(33) } },
          ],
        }),
      },
      "state.panels.0.params.stop",
      "Each stop sequence can be at most 32 bytes.",
    ],
    [
      {
        title: "ok",
        state: state({
          panels: [{ id: "p", model: "moonshot-v1-8k", params: { ...DEFAULT_PLAYGROUND_PARAMS, temperature: 2 } }],
        }),
      },
      "state.panels.0.params.temperature",
      "Enter a value from 0 to 1.",
    ],
    [
      {
        title: "ok",
        state: state({
          panels: [{ id: "p", model: "moonshot-v1-8k", params: { ...DEFAULT_PLAYGROUND_PARAMS, n: 6 } }],
        }),
      },
      "state.panels.0.params.n",
      "Enter a value from 1 to 5.",
    ],
    [
      {
        title: "ok",
        state: state({
          panels: [{ id: "p", model: "moonshot-v1-8k", params: { ...DEFAULT_PLAYGROUND_PARAMS, maxTokens: 0 } }],
        }),
      },
      "state.panels.0.params.maxTokens",
      "Enter a value from 1 to 262,144.",
    ],
    [{ title: "ok", state: state({ panels: [] }) }, "state.panels", null],
    [{ title: "ok", state: { ...state(), version: 2 } }, "state.version", null],
  ])("refuses the session %# with a field error and saves nothing", async (body, path, message) => {
    const u = await signUp(t);
    u.client.locale = "en-US";
    const res = await u.client.post(`${P(u)}/sessions`, body);
    expect(res.status).toBe(400);
    const paths = res.body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toContain(path);
    if (message) expect(res.body.error.details).toContainEqual({ path, message });
    const rows = await t.ctx.db
      .select()
      .from(schema.playgroundSessions)
      .where(and(eq(schema.playgroundSessions.userId, u.userId)));
    expect(rows).toHaveLength(0);
  });

  it("refuses an update with neither title nor state, and changes nothing", async () => {
    const u = await signUp(t);
    const s = (await u.client.post(`${P(u)}/sessions`, { title: "Keep", state: state() })).body;
    const res = await u.client.patch(`${P(u)}/sessions/${s.id}`, {});
    expect(res.status).toBe(400);
    const bad = await u.client.patch(`${P(u)}/sessions/${s.id}`, { title: "ok", state: state({ mode: "x" as never }) });
    expect(bad.status).toBe(400);
    const after = (await u.client.get(`${P(u)}/sessions/${s.id}`)).body;
    expect(after.title).toBe("Keep");
    expect(after.state.mode).toBe("chat");
  });

  it("stops at 200 sessions per user and project", async () => {
    const u = await signUp(t);
    const now = new Date();
    await t.ctx.db.insert(schema.playgroundSessions).values(
      Array.from({ length: 200 }, (_, i) => ({
        id: `pgs_fill_${u.userId}_${i}`,
        userId: u.userId,
        orgId: u.orgId,
        projectId: u.defaultProjectId,
        title: `s${i}`,
        mode: "chat" as const,
        state: state() as never,
        createdAt: now,
        updatedAt: now,
      })),
    );
    const res = await u.client.post(`${P(u)}/sessions`, { title: "one more", state: state() });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("limit_reached");
    const rows = await t.ctx.db
      .select()
      .from(schema.playgroundSessions)
      .where(eq(schema.playgroundSessions.userId, u.userId));
    expect(rows).toHaveLength(200);
  });

  it("translates a session's stop-sequence error into Chinese", async () => {
    const u = await signUp(t);
    u.client.locale = "zh-CN";
    const res = await u.client.post(`${P(u)}/sessions`, {
      title: "ok",
      state: state({
        panels: [{ id: "p", model: "moonshot-v1-8k", params: { ...DEFAULT_PLAYGROUND_PARAMS, stop: "停".repeat(11) } }],
      }),
    });
    expect(res.body.error.details).toContainEqual({
      path: "state.panels.0.params.stop",
      message: "每个停止序列最多 32 个字节。",
    });
  });

  it("keeps an archived project's sessions readable but unchangeable", async () => {
    const u = await signUp(t);
    const p = await u.client.post(`/api/orgs/${u.orgId}/projects`, { name: "temp" });
    const s = (await u.client.post(`${P(u, p.body.id)}/sessions`, { title: "Keep", state: state() })).body;
    await t.ctx.db.update(schema.projects).set({ status: "archived" }).where(eq(schema.projects.id, p.body.id));
    expect((await u.client.get(`${P(u, p.body.id)}/sessions/${s.id}`)).status).toBe(200);
    const res = await u.client.patch(`${P(u, p.body.id)}/sessions/${s.id}`, { title: "changed" });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("project_archived");
    expect((await u.client.get(`${P(u, p.body.id)}/sessions/${s.id}`)).body.title).toBe("Keep");
  });
});
