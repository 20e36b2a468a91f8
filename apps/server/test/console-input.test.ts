/** Hostile console input: NUL characters anywhere and impossible periods are a 400 with a clear message, never a 500. */
import { ApiErrorBody, isPeriod } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD, uniqueUsername } from "./auth-helpers.ts";
import { signUp, type TestUser } from "./console-helpers.ts";
import { createTestApp, type TestApp, TestClient } from "./helpers.ts";

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signUp(t);
});
afterAll(() => t.close());

const NUL = "\u0000";

function expectBadRequest(res: { status: number; body: unknown }, path?: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  const e = ApiErrorBody.parse(res.body).error;
  expect(e.code).toBe("validation_failed");
  if (path) expect(e.details).toContainEqual({ path, message: "Must not contain the NUL character (\\u0000)." });
  return e;
}

describe("NUL characters", () => {
  it("are refused in bodies of every console write, naming the field, and change nothing", async () => {
    const before = await t.ctx.db.select().from(schema.organizations);
    const anon = new TestClient(t.app);
    expectBadRequest(
      await anon.post("/api/auth/signup/password", {
        username: `a${NUL}b`,
        password: PASSWORD,
        confirmPassword: PASSWORD,
      }),
      "username",
    );
    expectBadRequest(await anon.post("/api/auth/signin", { username: `x${NUL}`, password: PASSWORD }), "username");
    expectBadRequest(await admin.client.post("/api/orgs", { name: `Org${NUL}` }), "name");
    expectBadRequest(await admin.client.patch(`/api/orgs/${admin.orgId}`, { name: `${NUL}` }), "name");
    expectBadRequest(
      await admin.client.post(`/api/orgs/${admin.orgId}/projects`, { name: "p", description: `d${NUL}` }),
      "description",
    );
    expectBadRequest(
      await admin.client.post(`/api/orgs/${admin.orgId}/api-keys`, {
        name: `k${NUL}`,
        projectId: admin.defaultProjectId,
      }),
      "name",
    );
    // Keys and nested values too.
    expectBadRequest(await admin.client.post("/api/orgs", { name: "ok", [`x${NUL}`]: 1 }), `x${NUL}`);
    expectBadRequest(
      await admin.client.post("/api/orgs", { name: "ok", extra: { deep: [[`a${NUL}`]] } }),
      "extra.deep.0.0",
    );
    expect(await t.ctx.db.select().from(schema.organizations)).toHaveLength(before.length);
  });

  it("are refused in path parameters and query strings", async () => {
    for (const url of [
      `/api/orgs/${NUL}`,
      `/api/orgs/%00`,
      `/api/orgs/${admin.orgId}/projects/%00abc`,
      `/api/invitations/%00`,
      `/api/orgs/${admin.orgId}/consumption?period=%00`,
      `/api/orgs/${admin.orgId}/api-keys?page=1&x=%00`,
    ]) {
      const res = await admin.client.get(url.replace(NUL, "%00"));
      expectBadRequest(res);
      expect(res.body.error.details[0].message).toBe("Must not contain the NUL character (\\u0000).");
    }
  });

  it("are explained in the user's language", async () => {
    admin.client.locale = "zh-CN";
    try {
      const res = await admin.client.post("/api/orgs", { name: `Org${NUL}` });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toContainEqual({ path: "name", message: "不能包含 NUL 字符（\\u0000）。" });
    } finally {
      admin.client.locale = "en-US";
    }
  });
});

describe("periods", () => {
  it.each([
    "granularity=year&period=0000",
    "granularity=month&period=0000-01",
    "granularity=month&period=1969-12",
    "granularity=year&period=9999",
    "granularity=month&period=2026-13",
    "granularity=month&period=2026-1",
  ])("consumption ?%s is a 400 in both languages", async (query) => {
    const res = await admin.client.get(`/api/orgs/${admin.orgId}/consumption?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.details).toContainEqual({
      path: "period",
      message: "Invalid period: use YYYY or YYYY-MM with a year from 1970 to 9998.",
    });
    admin.client.locale = "zh-CN";
    try {
      const zh = await admin.client.get(`/api/orgs/${admin.orgId}/consumption?${query}`);
      expect(zh.body.error.details[0].message).toBe("统计周期无效：请使用 YYYY 或 YYYY-MM，年份在 1970 到 9998 之间。");
    } finally {
      admin.client.locale = "en-US";
    }
  });

  it("project billing refuses year 0000 and the far future, and answers real months", async () => {
    const base = `/api/orgs/${admin.orgId}/projects/${admin.defaultProjectId}/billing`;
    for (const month of ["0000-01", "9999-12", "0001-01"]) {
      const res = await admin.client.get(`${base}?month=${month}`);
      expect(res.status, month).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
    }
    expect((await admin.client.get(`${base}?month=1970-01`)).status).toBe(200);
    expect((await admin.client.get(`${base}?month=9998-12`)).status).toBe(200);
    expect((await admin.client.get(`/api/orgs/${admin.orgId}/consumption?granularity=year&period=9998`)).status).toBe(
      200,
    );
  });

  it("share one definition", () => {
    expect(isPeriod("year", "1970")).toBe(true);
    expect(isPeriod("month", "2026-02")).toBe(true);
    expect(isPeriod("year", "0000")).toBe(false);
    expect(isPeriod("month", "2026")).toBe(false);
  });
});

it("a fresh user can still sign up with ordinary input", async () => {
  const res = await new TestClient(t.app).post("/api/auth/signup/password", {
    username: uniqueUsername(),
    password: PASSWORD,
    confirmPassword: PASSWORD,
  });
  expect(res.status).toBe(200);
});
