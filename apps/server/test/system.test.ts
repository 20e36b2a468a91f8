import { ApiErrorBody, PublicConfig } from "@moonport/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildConfig, EnvError } from "../src/env.ts";
import { createTestApp, type TestApp, TestClient } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe("system routes", () => {
  it("reports health and database readiness", async () => {
    const c = new TestClient(t.app);
    expect((await c.get("/healthz")).body).toEqual({ status: "ok" });
    const ready = await c.get("/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe("ready");
  });

  it("resolves the edition from the locale when one host is configured", async () => {
    const c = new TestClient(t.app);
    c.locale = "en-US";
    const en = PublicConfig.parse((await c.get("/api/config")).body);
    expect(en.edition.edition).toBe("global");
    expect(en.edition.currency).toBe("USD");
    c.locale = "zh-CN";
    const zh = PublicConfig.parse((await c.get("/api/config")).body);
    expect(zh.edition.currency).toBe("CNY");
    expect(zh.other.edition).toBe("global");
  });

  it("refuses a brand name that could not be written into pages as is", () => {
    // The server substitutes BRAND_NAME into prerendered HTML, attributes and JSON without escaping.
    for (const bad of ["<b>Acme</b>", 'Acme "AI"', "A&B", "Acme\\AI", "Acme\nAI", " "]) {
      expect(() => buildConfig({ NODE_ENV: "test", BRAND_NAME: bad }), bad).toThrow(EnvError);
    }
    expect(buildConfig({ NODE_ENV: "test", BRAND_NAME: "月之港 Labs" }).brandName).toBe("月之港 Labs");
  });

  it("refuses a rate-limit sync interval that is not whole milliseconds from 0 to 1000, naming the variable", () => {
    for (const bad of ["-1", "1001", "2.5", "soon"]) {
      let err: unknown;
      try {
        buildConfig({ NODE_ENV: "test", GATEWAY_LIMIT_SYNC_MS: bad });
      } catch (e) {
        err = e;
      }
      expect(err, bad).toBeInstanceOf(EnvError);
      expect((err as EnvError).problems.join("\n"), bad).toContain("GATEWAY_LIMIT_SYNC_MS");
    }
    expect(buildConfig({ NODE_ENV: "test" }).gatewayLimitSyncMs).toBe(20);
    expect(buildConfig({ NODE_ENV: "test", GATEWAY_LIMIT_SYNC_MS: "0" }).gatewayLimitSyncMs).toBe(0);
  });

  it("answers an unknown API route with a localized 404 envelope and a request id", async () => {
    const c = new TestClient(t.app);
    const res = await c.get("/api/definitely-not-here");
    expect(res.status).toBe(404);
    const body = ApiErrorBody.parse(res.body);
    expect(body.error.code).toBe("route_not_found");
    expect(res.headers["x-request-id"]).toBe(body.error.requestId);
  });

  it("rejects a state-changing request from another origin or without the CSRF token", async () => {
    const c = new TestClient(t.app);
    c.origin = "https://evil.example";
    const cross = await c.post("/api/definitely-not-here", {});
    expect(cross.status).toBe(403);
    expect(cross.body.error.code).toBe("csrf_failed");
    const bare = await t.app.inject({ method: "POST", url: "/api/anything", headers: { host: "localhost:3000" } });
    expect(bare.statusCode).toBe(403);
  });
});
