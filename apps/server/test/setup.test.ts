import { ApiErrorBody, MeWithOrgs, SetupStatus } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startupTasks } from "../src/startup.ts";
import { PASSWORD } from "./auth-helpers.ts";
import { createTestApp, type TestApp, TestClient } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function tokenOf(url: string | undefined): string {
  return new URL(url!).searchParams.get("token")!;
}

describe("one-time operator setup link", () => {
  it("prints a fresh link at every start while no operator exists, and only the newest works", async () => {
    const c = new TestClient(t.app);
    expect(SetupStatus.parse((await c.get("/api/setup/status")).body)).toEqual({ operatorExists: false });
    const first = await startupTasks(t.ctx, "http://localhost:3000");
    expect(first.setupUrl).toMatch(/^http:\/\/localhost:3000\/setup\?token=[\w-]{20,}$/);
    const second = await startupTasks(t.ctx, "http://localhost:3000");
    expect(tokenOf(second.setupUrl)).not.toBe(tokenOf(first.setupUrl));
    const stored = await t.ctx.db.select().from(schema.setupTokens);
    expect(stored.map((s) => s.tokenHash)).not.toContain(tokenOf(second.setupUrl));

    const body = { username: "platform_op", password: PASSWORD, confirmPassword: PASSWORD };
    const stale = await c.post("/api/setup", { ...body, token: tokenOf(first.setupUrl) });
    expect(stale.status).toBe(400);
    expect(ApiErrorBody.parse(stale.body).error.code).toBe("setup_token_invalid");
    const weak = await c.post("/api/setup", { ...body, password: "weak", token: tokenOf(second.setupUrl) });
    expect(ApiErrorBody.parse(weak.body).error.code).toBe("validation_failed");

    const ok = await c.post("/api/setup", { ...body, token: tokenOf(second.setupUrl) });
    expect(ok.status).toBe(200);
    const me = MeWithOrgs.parse(ok.body);
    expect(me.role).toBe("operator");
    expect((await c.get("/api/me")).status).toBe(200);
    expect(SetupStatus.parse((await c.get("/api/setup/status")).body)).toEqual({ operatorExists: true });

    const reuse = await new TestClient(t.app).post("/api/setup", {
      ...body,
      username: "another_op",
      token: tokenOf(second.setupUrl),
    });
    expect(ApiErrorBody.parse(reuse.body).error.code).toBe("setup_token_invalid");
    expect(await startupTasks(t.ctx, "http://localhost:3000")).toEqual({});
  });
});
