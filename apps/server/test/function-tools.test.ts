import { FunctionTool, FunctionToolList, ToolRunResult } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildConfig } from "../src/env.ts";
import { sandboxSchedulerFor } from "../src/tools/run-sandboxed.ts";
import { addOrgMember, addProjectMember, signUp, type TestUser } from "./console-helpers.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const FT = (u: TestUser) => `/api/orgs/${u.orgId}/projects/${u.defaultProjectId}/playground/function-tools`;

const PARAMS = JSON.stringify({
  type: "object",
  properties: { city: { type: "string" }, days: { type: "integer", minimum: 1 } },
  required: ["city"],
});
const good = (over: Record<string, unknown> = {}) => ({
  name: "get_forecast",
  description: "Forecast for a city",
  parameters: PARAMS,
  exampleInput: JSON.stringify({ city: "Beijing", days: 2 }),
  code: "function handler(args) { return { city: args.city, days: args.days || 1, sky: 'clear' }; }",
  ...over,
});

async function rows(u: TestUser) {
  return t.ctx.db.select().from(schema.functionTools).where(eq(schema.functionTools.userId, u.userId));
}

describe("function tools: saving", () => {
  it("creates, lists, edits and deletes a tool, private to its author", async () => {
    const u = await signUp(t);
    const created = await u.client.post(FT(u), good());
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const tool = FunctionTool.parse(created.body);
    expect(tool).toMatchObject({ name: "get_forecast", parameters: PARAMS });

    const list = FunctionToolList.parse((await u.client.get(FT(u))).body);
    expect(list.items.map((i) => i.id)).toEqual([tool.id]);

    const renamed = await u.client.patch(`${FT(u)}/${tool.id}`, { name: "forecast-v2", description: "" });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "forecast-v2", description: "" });

    // Another user of another organization sees nothing and cannot touch it.
    const other = await signUp(t);
    expect((await other.client.get(FT(other))).body.items).toEqual([]);

    const del = await u.client.delete(`${FT(u)}/${tool.id}`);
    expect(del.status).toBe(200);
    expect(await rows(u)).toHaveLength(0);
    expect((await u.client.delete(`${FT(u)}/${tool.id}`)).status).toBe(404);
  });

  it("refuses each §5 rule with a field error in the user's language and saves nothing", async () => {
    const u = await signUp(t);
    const cases: [Record<string, unknown>, string, string, RegExp][] = [
      [{ name: "" }, "name", "en-US", /required/],
      [{ name: "9lives" }, "name", "en-US", /Start with a letter or underscore/],
      [{ name: "has space" }, "name", "zh-CN", /须以字母或下划线开头/],
      [{ name: `a${"b".repeat(64)}` }, "name", "en-US", /At most 64 characters/],
      [{ description: "d".repeat(501) }, "description", "en-US", /At most 500/],
      [{ parameters: "" }, "parameters", "en-US", /required/],
      [{ parameters: "{nope" }, "parameters", "en-US", /Not valid JSON/],
      [{ parameters: " ".repeat(2001) }, "parameters", "en-US", /At most 2,000/],
      [{ parameters: "[1]" }, "parameters", "en-US", /Must be a JSON object/],
      [
        { parameters: JSON.stringify({ type: "object", properties: { a: { type: "strin" } } }) },
        "parameters",
        "en-US",
        /Not a valid JSON Schema/,
      ],
      [
        { parameters: JSON.stringify({ type: "object", required: "city" }) },
        "parameters",
        "zh-CN",
        /不是有效的 JSON Schema/,
      ],
      [{ parameters: JSON.stringify({ type: "string" }) }, "parameters", "en-US", /must describe an object/],
      [{ exampleInput: "" }, "exampleInput", "en-US", /required/],
      [{ exampleInput: "x".repeat(1001) }, "exampleInput", "en-US", /At most 1,000/],
      [{ exampleInput: "[]" }, "exampleInput", "en-US", /Must be a JSON object/],
      [{ exampleInput: JSON.stringify({ days: 2 }) }, "exampleInput", "en-US", /must have required property 'city'/],
      [
        { exampleInput: JSON.stringify({ city: 3 }) },
        "exampleInput",
        "zh-CN",
        /与参数 Schema 不符.*\/city must be string/,
      ],
      [{ code: "" }, "code", "en-US", /required/],
      [{ code: "x".repeat(3001) }, "code", "en-US", /At most 3,000/],
    ];
    for (const [over, path, locale, message] of cases) {
      u.client.locale = locale as "en-US" | "zh-CN";
      const res = await u.client.post(FT(u), good(over));
      expect(res.status, JSON.stringify(over)).toBe(400);
      const detail = res.body.error.details.find((d: { path: string }) => d.path === path);
      expect(detail?.message, JSON.stringify(res.body)).toMatch(message);
    }
    expect(await rows(u)).toHaveLength(0);
  });

  it("stops a catastrophic pattern at the deadline while the server keeps serving", async () => {
    const u = await signUp(t);
    // ^(a+)+$ against 30 a's and a b backtracks for minutes; the check runs in a worker that is stopped.
    const parameters = JSON.stringify({
      type: "object",
      properties: { s: { type: "string", pattern: "^(a+)+$" } },
      required: ["s"],
    });
    const saving = u.client.post(
      FT(u),
      good({ parameters, exampleInput: JSON.stringify({ s: `${"a".repeat(30)}b` }) }),
    );
    const started = Date.now();
    const ping = await u.client.get(FT(u));
    expect(ping.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);
    const res = await saving;
    expect(res.status).toBe(400);
    expect(res.body.error.details[0]).toMatchObject({ path: "exampleInput" });
    expect(res.body.error.details[0].message).toMatch(/took longer than 2 s/);
    expect(await rows(u)).toHaveLength(0);
    // The same pattern with a matching example is fine.
    const ok = await u.client.post(FT(u), good({ parameters, exampleInput: JSON.stringify({ s: "aaa" }) }));
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  }, 20_000);

  it("refuses a duplicate name and an invalid edit, changing nothing", async () => {
    const u = await signUp(t);
    const a = FunctionTool.parse((await u.client.post(FT(u), good())).body);
    await u.client.post(FT(u), good({ name: "second" }));
    const dup = await u.client.post(FT(u), good());
    expect(dup.status).toBe(400);
    expect(dup.body.error.details[0]).toMatchObject({
      path: "name",
      message: "A tool with this name already exists in the project.",
    });
    const clash = await u.client.patch(`${FT(u)}/${a.id}`, { name: "second" });
    expect(clash.status).toBe(400);
    const bad = await u.client.patch(`${FT(u)}/${a.id}`, { exampleInput: JSON.stringify({ days: 1 }) });
    expect(bad.status).toBe(400);
    const [row] = (await rows(u)).filter((r) => r.id === a.id);
    expect(row).toMatchObject({ name: "get_forecast", exampleInput: good().exampleInput });
  });
});

describe("function tools: the QuickJS sandbox", () => {
  const run = (u: TestUser, code: string, input?: string) =>
    u.client.post(`${FT(u)}/test-run`, { ...good({ code }), ...(input ? { input } : {}) });

  it("runs the code with the example input, or the given input, and returns its JSON", async () => {
    const u = await signUp(t);
    const res = await run(u, good().code as string);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const r = ToolRunResult.parse(res.body);
    expect(r.state).toBe("success");
    expect(JSON.parse(r.output)).toEqual({ city: "Beijing", days: 2, sky: "clear" });
    const other = ToolRunResult.parse((await run(u, good().code as string, '{"city":"Oslo"}')).body);
    expect(JSON.parse(other.output)).toMatchObject({ city: "Oslo", days: 1 });
    const asyncRun = ToolRunResult.parse((await run(u, "async function handler(a) { return a.city.length; }")).body);
    expect(asyncRun).toMatchObject({ state: "success", output: "7" });
    // The test run saved nothing.
    expect(await rows(u)).toHaveLength(0);
  });

  it("ends an infinite loop, a memory bomb, deep recursion and host access as failed calls while the server serves", async () => {
    const u = await signUp(t);
    const cases: [string, RegExp][] = [
      ["function handler() { while (true) {} }", /ran longer than the 2000 ms limit/],
      ["function handler() { function f(n) { return f(n + 1) + 1; } return f(0); }", /stack limit/],
      ["function handler() { return process.env; }", /ReferenceError: 'process' is not defined/],
      ["function handler() { return require('fs').readFileSync('/etc/passwd', 'utf8'); }", /'require' is not defined/],
      [
        "function handler() { return typeof fetch + typeof setTimeout + typeof console; }",
        /^"undefinedundefinedundefined"$/,
      ],
      ["function handler( {", /SyntaxError/],
      ["var notAHandler = 1;", /must define a function named handler/],
      ["function handler() { throw new Error('boom'); }", /Error: boom/],
    ];
    // Four at once (one user's share): the server answers a plain request while those sandboxes are busy.
    const results: Awaited<ReturnType<typeof run>>[] = [];
    for (let i = 0; i < cases.length; i += 4) {
      const runs = Promise.all(cases.slice(i, i + 4).map(([code]) => run(u, code)));
      const started = Date.now();
      const ping = await u.client.get(FT(u));
      expect(ping.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(1500);
      results.push(...(await runs));
    }
    results.forEach((res, i) => {
      const [, expected] = cases[i]!;
      expect(res.status).toBe(200);
      expect(res.body.output, cases[i]![0]).toMatch(expected);
      if (i !== 4) expect(res.body.state).toBe("failed");
    });
    // A memory bomb reaches the 16 MB limit in about 0.2 s of CPU. It runs alone: on a two-core CI machine, next to
    // four busy sandboxes and other test files, it once reached the 2 s time limit first.
    const bomb = await run(u, "function handler() { const a = []; for (let i = 0; ; i++) a.push({ i, s: 'y' + i }); }");
    expect(bomb.body).toMatchObject({ state: "failed", output: expect.stringMatching(/16 MB memory limit/) });
    // And keeps serving afterwards.
    expect((await run(u, "function handler(a) { return 1 + 1; }")).body).toMatchObject({
      state: "success",
      output: "2",
    });
  }, 30_000);

  it("checks the definition before running and a bad input is a field error", async () => {
    const u = await signUp(t);
    const res = await u.client.post(`${FT(u)}/test-run`, good({ exampleInput: "{}" }));
    expect(res.status).toBe(400);
    const bad = await u.client.post(`${FT(u)}/test-run`, { ...good(), input: "[1,2]" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe("input");
  });
});

describe("function tools: async handlers", () => {
  const run = (u: TestUser, code: string) => u.client.post(`${FT(u)}/test-run`, good({ code }));

  it("reports an async handler's throw, rejection or missing global as the error itself, never QuickJS's crash", async () => {
    const u = await signUp(t);
    const cases: [string, RegExp][] = [
      ["async function handler() { throw new Error('boom'); }", /^Error: Error: boom$/],
      ["async function handler() { return Promise.reject(new TypeError('nope')); }", /^Error: TypeError: nope$/],
      [
        "async function handler() { await null; return await missingGlobal; }",
        /ReferenceError: 'missingGlobal' is not defined/,
      ],
      // A job left queued behind a settled result (a rejection no one handles, a loop) must not break teardown.
      [
        "async function handler() { Promise.reject(new Error('ignored')); Promise.resolve().then(() => { for (;;) {} }); throw new Error('first'); }",
        /^Error: Error: first$/,
      ],
    ];
    const results = await Promise.all(cases.map(([code]) => run(u, code)));
    results.forEach((res, i) => {
      expect(res.status, cases[i]![0]).toBe(200);
      expect(res.body.state, cases[i]![0]).toBe("failed");
      expect(res.body.output, cases[i]![0]).toMatch(cases[i]![1]);
      expect(res.body.output).not.toMatch(/Aborted|Assertion|gc_obj_list|RuntimeError/);
    });
    // And a handler that succeeds while leaving work queued still answers its value.
    const leftover = await run(
      u,
      "async function handler() { Promise.reject(new Error('x')); Promise.resolve().then(() => { for (;;) {} }); return 8; }",
    );
    expect(leftover.body).toMatchObject({ state: "success", output: "8" });
  });

  it("ends a promise that never settles with a clear error at once, and endless awaiting at the time limit", async () => {
    const u = await signUp(t);
    const started = Date.now();
    const never = await run(u, "async function handler() { await new Promise(() => {}); return 1; }");
    expect(never.body).toMatchObject({
      state: "failed",
      output: expect.stringMatching(/^Error: the returned promise never settled/),
    });
    // Nothing could settle it (no timers, no I/O), so it does not hold a sandbox until the deadline.
    expect(Date.now() - started).toBeLessThan(2000);
    const spinning = await run(u, "async function handler() { for (;;) await null; }");
    expect(spinning.body).toMatchObject({
      state: "failed",
      output: expect.stringMatching(/ran longer than the 2000 ms limit/),
    });
  }, 20_000);
});

describe("function tools: fair sandboxes", () => {
  const SPIN = "function handler() { while (true) {} }";
  const TRIVIAL = "function handler(a) { return a.city.length; }";

  async function saveTool(u: TestUser, projectId: string, name: string, code: string): Promise<string> {
    const res = await u.client.post(
      `/api/orgs/${u.orgId}/projects/${projectId}/playground/function-tools`,
      good({ name, code }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id;
  }

  it("caps an organization's and a user's runs and lets another organization's run through at once", async () => {
    // Organization A: its owner floods with test runs, a member with the playground's tool calls.
    const owner = await signUp(t);
    const member = await signUp(t);
    const third = await signUp(t);
    for (const m of [member, third]) {
      await addOrgMember(t, owner.orgId, m, "member");
      await addProjectMember(t, owner.defaultProjectId, m, "member");
    }
    const inA = (m: TestUser) => ({ ...m, orgId: owner.orgId, defaultProjectId: owner.defaultProjectId });
    const memberInA = inA(member);
    const spinId = await saveTool(memberInA, owner.defaultProjectId, "spin", SPIN);
    const toolCall = (u: TestUser, target: string) =>
      u.client.post(`/api/orgs/${u.orgId}/projects/${u.defaultProjectId}/playground/tool-calls`, {
        kind: "function",
        target,
        name: "spin",
        arguments: JSON.stringify({ city: "Beijing" }),
      });
    const flood = Promise.all([
      ...Array.from({ length: 4 }, () => owner.client.post(`${FT(owner)}/test-run`, good({ code: SPIN }))),
      ...Array.from({ length: 4 }, () => toolCall(memberInA, spinId)),
    ]);
    const scheduler = sandboxSchedulerFor(t.ctx);
    for (let i = 0; i < 200; i++) {
      const s = scheduler.stats();
      if (s.running + s.queued >= 8) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(scheduler.stats()).toMatchObject({ running: 2, queued: 6 });

    // The owner's fifth call is over the user's share, a third member's over the organization's: 429 at once.
    const fifth = await owner.client.post(`${FT(owner)}/test-run`, good({ code: TRIVIAL }));
    expect(fifth.status).toBe(429);
    expect(fifth.headers["retry-after"]).toBe("2");
    expect(fifth.body.error).toMatchObject({
      code: "tool_runs_busy_user",
      message: "You have too many tool runs running or waiting. Try again in a few seconds.",
    });
    third.client.locale = "zh-CN";
    const overOrg = await inA(third).client.post(`${FT(inA(third))}/test-run`, good({ code: TRIVIAL }));
    expect(overOrg.status).toBe(429);
    expect(overOrg.body.error).toMatchObject({
      code: "tool_runs_busy_org",
      message: "本组织正在运行或等待的工具调用过多，请几秒后再试。",
    });

    // Organization B's trivial test run and playground call finish within one sandbox time limit (2 s).
    const other = await signUp(t);
    let started = Date.now();
    const quick = await other.client.post(`${FT(other)}/test-run`, good({ code: TRIVIAL }));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(quick.body).toMatchObject({ state: "success", output: "7" });
    const lengthId = await saveTool(other, other.defaultProjectId, "spin", TRIVIAL);
    started = Date.now();
    const called = await toolCall(other, lengthId);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(called.body).toMatchObject({ state: "success", output: "7" });

    // The flood itself ends as it would alone: every call stopped at the limit, none lost.
    const flooded = await flood;
    for (const res of flooded) {
      expect(res.status).toBe(200);
      expect(res.body.output).toMatch(/ran longer than the 2000 ms limit/);
    }
    expect(scheduler.stats()).toEqual({ running: 0, queued: 0 });
    const again = await owner.client.post(`${FT(owner)}/test-run`, good({ code: TRIVIAL }));
    expect(again.body).toMatchObject({ state: "success", output: "7" });
  }, 40_000);

  it("reads the caps from the environment with safe defaults and refuses inconsistent ones", () => {
    expect(buildConfig({ NODE_ENV: "test" }).toolSandboxes).toEqual({
      maxRunning: 4,
      maxRunningPerOrg: 2,
      maxPendingPerOrg: 8,
      maxPendingPerUser: 4,
      maxQueued: 100,
      testRunsPerUserPerMinute: 30,
    });
    expect(buildConfig({ NODE_ENV: "test", TOOL_SANDBOX_CONCURRENCY: "1" }).toolSandboxes.maxRunningPerOrg).toBe(1);
    for (const [name, value] of [
      ["TOOL_SANDBOX_CONCURRENCY", "0"],
      ["TOOL_SANDBOX_CONCURRENCY_PER_ORG", "5"],
      ["TOOL_SANDBOX_PENDING_PER_USER", "many"],
      ["TOOL_TEST_RUNS_PER_USER_PER_MINUTE", "0"],
    ] as const) {
      expect(() => buildConfig({ NODE_ENV: "test", [name]: value }), name).toThrow(name);
    }
  });

  it("limits each user's test runs per minute with a 429 in the user's language", async () => {
    const limited = await createTestApp({ TOOL_TEST_RUNS_PER_USER_PER_MINUTE: "2" });
    try {
      const u = await signUp(limited);
      const run = () => u.client.post(`${FT(u)}/test-run`, good({ code: TRIVIAL }));
      expect((await run()).body).toMatchObject({ state: "success" });
      expect((await run()).body).toMatchObject({ state: "success" });
      const third = await run();
      expect(third.status).toBe(429);
      expect(Number(third.headers["retry-after"])).toBeGreaterThan(0);
      expect(third.body.error.code).toBe("tool_test_runs_rate_limited");
      expect(third.body.error.message).toMatch(/^Too many test runs\. Try again in \d+ seconds\.$/);
      u.client.locale = "zh-CN";
      expect((await run()).body.error.message).toMatch(/^试运行过于频繁，请 \d+ 秒后再试。$/);
      // Another user is not affected.
      const v = await signUp(limited);
      expect((await v.client.post(`${FT(v)}/test-run`, good({ code: TRIVIAL }))).body).toMatchObject({
        state: "success",
      });
    } finally {
      await limited.close();
    }
  }, 30_000);
});
