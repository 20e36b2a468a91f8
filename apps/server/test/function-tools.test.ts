import { FunctionTool, FunctionToolList, ToolRunResult } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp, type TestUser } from "./console-helpers.ts";
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
    // All at once: the server answers a plain request while every sandbox is busy.
    const runs = Promise.all(cases.map(([code]) => run(u, code)));
    const started = Date.now();
    const ping = await u.client.get(FT(u));
    expect(ping.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1500);
    const results = await runs;
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
