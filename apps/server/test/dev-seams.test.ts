/**
 * Development seams (SMS outbox, cash grant) are off unless DEV_SEAMS=true, and then answer loopback clients only:
 * a quick-start server bound to 0.0.0.0 must not hand out SMS codes or money.
 */
import { ApiErrorBody, OrgOverview } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildConfig, EnvError } from "../src/env.ts";
import { isLoopbackAddress } from "../src/http/dev-seams.ts";
import { devOutbox, uniquePhone } from "./auth-helpers.ts";
import { addOrgMember, signUp } from "./console-helpers.ts";
import { createTestApp, type TestApp, TestClient } from "./helpers.ts";

async function outboxFrom(t: TestApp, remoteAddress: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: "GET", url: "/api/dev/sms-outbox", remoteAddress, headers });
}

describe("with the default configuration", () => {
  let t: TestApp;
  beforeAll(async () => {
    // What `npm start` runs: no DEV_SEAMS (the test helper turns it on for every other test file).
    t = await createTestApp({ DEV_SEAMS: "false" });
  });
  afterAll(() => t.close());

  it("has no seams, not even for loopback clients", async () => {
    expect(buildConfig({}).devSeams).toBe(false);
    for (const ip of ["127.0.0.1", "::1", "203.0.113.9"]) {
      const res = await outboxFrom(t, ip);
      expect(res.statusCode).toBe(404);
      expect(ApiErrorBody.parse(res.json()).error.code).toBe("route_not_found");
    }
    const admin = await signUp(t);
    admin.client.ip = "127.0.0.1";
    const grant = await admin.client.post(`/api/dev/orgs/${admin.orgId}/grant`, { amount: "10" });
    expect(grant.status).toBe(404);
    expect(grant.body.error.code).toBe("route_not_found");
  });

  it("refuses to send an SMS it cannot deliver, and writes no code anywhere", async () => {
    const c = new TestClient(t.app);
    const phone = uniquePhone();
    const res = await c.post("/api/auth/sms", { phone: phone.local, purpose: "signup" });
    expect(res.status).toBe(502);
    expect(res.body.error.message).toBe("Failed to send the SMS: no SMS provider is configured");
    const rows = await t.ctx.db.select().from(schema.smsOutbox);
    expect(rows).toEqual([]);
  });
});

describe("with DEV_SEAMS=true", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ DEV_SEAMS: "true", TRUST_PROXY: "true" });
  });
  afterAll(() => t.close());

  it("serves the SMS outbox to loopback clients only, whatever X-Forwarded-For says", async () => {
    const phone = uniquePhone();
    expect((await new TestClient(t.app).post("/api/auth/sms", { phone: phone.local, purpose: "signup" })).status).toBe(
      200,
    );
    expect((await devOutbox(t.app, phone.local))[0]!.code).toMatch(/^\d{6}$/);
    expect((await outboxFrom(t, "::1")).statusCode).toBe(200);
    expect((await outboxFrom(t, "::ffff:127.0.0.1")).statusCode).toBe(200);
    for (const ip of ["203.0.113.9", "10.0.0.1", "::ffff:10.0.0.1", "fe80::1"]) {
      const res = await outboxFrom(t, ip, { "x-forwarded-for": "127.0.0.1" });
      expect(res.statusCode, ip).toBe(404);
      expect(ApiErrorBody.parse(res.json()).error.code).toBe("route_not_found");
    }
  });

  it("lets only an organization admin on this machine credit their organization", async () => {
    const admin = await signUp(t);
    const member = await signUp(t);
    await addOrgMember(t, admin.orgId, member, "member");
    // From another machine the route does not exist.
    expect((await admin.client.post(`/api/dev/orgs/${admin.orgId}/grant`, { amount: "10" })).status).toBe(404);
    admin.client.ip = "127.0.0.1";
    member.client.ip = "127.0.0.1";
    expect((await member.client.post(`/api/dev/orgs/${admin.orgId}/grant`, { amount: "10" })).status).toBe(403);
    expect((await admin.client.post(`/api/dev/orgs/${admin.orgId}/grant`, { amount: "-1" })).status).toBe(400);
    const ok = await admin.client.post(`/api/dev/orgs/${admin.orgId}/grant`, { amount: "12.5" });
    expect(ok.body).toEqual({ cashBalance: "12500000000" });
    const overview = OrgOverview.parse((await admin.client.get(`/api/orgs/${admin.orgId}/overview`)).body);
    expect(overview.balance.cash).toBe("12500000000");
  });
});

describe("configuration", () => {
  it("refuses the seams in production and names the retired DEV_GRANTS", () => {
    const prod = { NODE_ENV: "production", SMS_PROVIDER: "http", SMS_HTTP_URL: "http://x" };
    expect(() => buildConfig({ ...prod, DEV_SEAMS: "true" })).toThrow(/DEV_SEAMS/);
    expect(() => buildConfig({ DEV_GRANTS: "true" })).toThrow(EnvError);
    expect(() => buildConfig({ DEV_GRANTS: "true" })).toThrow(/replaced by DEV_SEAMS/);
  });

  it("knows loopback addresses", () => {
    for (const a of ["127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"]) expect(isLoopbackAddress(a), a).toBe(true);
    for (const a of ["10.0.0.1", "::ffff:10.0.0.1", "0.0.0.0", "::", "fe80::1", "", undefined]) {
      expect(isLoopbackAddress(a), String(a)).toBe(false);
    }
  });
});
