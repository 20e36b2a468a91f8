/**
 * The back office prefix (/api/admin, operator only) and the console API's OpenAPI document.
 */
import { AdminOrganizationPage, TIERS } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUp, type TestUser } from "./console-helpers.ts";
import { createTestApp, type TestApp, TestClient } from "./helpers.ts";
import { seedRecharge, seedVoucher } from "./support/money.ts";

let t: TestApp;
let operator: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  operator = await signUp(t);
  // Fixture shortcut: the operator role given directly (setup and create-operator have their own tests).
  await t.ctx.db.update(schema.users).set({ role: "operator" }).where(eq(schema.users.id, operator.userId));
});
afterAll(() => t.close());

/** The error body without its request id, which differs on every response. */
function withoutRequestId(body: { error: Record<string, unknown> }) {
  const { requestId: _, ...rest } = body.error;
  return rest;
}

describe("GET /api/admin/organizations", () => {
  it("lists organizations for the operator with balance and tier, searchable by name or id", async () => {
    const owner = await signUp(t);
    const name = `Acme_${owner.userId.slice(-6)}%`;
    expect((await owner.client.patch(`/api/orgs/${owner.orgId}`, { name })).status).toBe(200);
    const tier1 = TIERS.cn[1]!;
    // Recharged exactly to Tier1; one usable voucher and one expired (left out of the balance).
    await seedRecharge(t.ctx, owner.orgId, tier1.cumulativeRecharge);
    const day = 86_400_000;
    await seedVoucher(t.ctx, owner.orgId, 2_000_000_000n, new Date(Date.now() + 30 * day), "activity");
    await seedVoucher(t.ctx, owner.orgId, 9_000_000_000n, new Date(Date.now() - day), "activity");
    const cash = tier1.cumulativeRecharge;

    const byName = await operator.client.get(`/api/admin/organizations?q=${encodeURIComponent(name.toLowerCase())}`);
    expect(byName.status, JSON.stringify(byName.body)).toBe(200);
    const page = AdminOrganizationPage.parse(byName.body);
    expect(page.total).toBe(1);
    expect(page.items[0]).toMatchObject({
      id: owner.orgId,
      name,
      edition: "cn",
      currency: "CNY",
      members: 1,
      balance: { cash: cash.toString(), voucher: "2000000000", total: (cash + 2_000_000_000n).toString() },
      cumulativeRecharge: tier1.cumulativeRecharge.toString(),
      tier: { tier: tier1.tier, name: tier1.name },
    });

    const byId = AdminOrganizationPage.parse(
      (await operator.client.get(`/api/admin/organizations?q=${owner.orgId}`)).body,
    );
    expect(byId.items.map((o) => o.id)).toEqual([owner.orgId]);
    // `%` and `_` are literal: "Acme_" does not match "Acmex".
    const literal = AdminOrganizationPage.parse(
      (await operator.client.get(`/api/admin/organizations?q=${encodeURIComponent("cme_%")}`)).body,
    );
    expect(literal.items.every((o) => o.name.includes("cme_"))).toBe(true);
  });

  it("pages through every organization, newest first", async () => {
    await signUp(t);
    const all = AdminOrganizationPage.parse((await operator.client.get("/api/admin/organizations?pageSize=100")).body);
    expect(all.total).toBeGreaterThanOrEqual(3);
    const first = AdminOrganizationPage.parse((await operator.client.get("/api/admin/organizations?pageSize=1")).body);
    const second = AdminOrganizationPage.parse(
      (await operator.client.get("/api/admin/organizations?pageSize=1&page=2")).body,
    );
    expect([first.items[0]!.id, second.items[0]!.id]).toEqual(all.items.slice(0, 2).map((o) => o.id));
    expect(first.total).toBe(all.total);
  });

  it("answers everyone but the operator exactly like a missing route, even for a bad query", async () => {
    const user = await signUp(t);
    const anon = new TestClient(t.app);
    for (const client of [user.client, anon]) {
      const missing = await client.get("/api/admin/no-such-thing");
      expect(missing.status).toBe(404);
      for (const url of ["/api/admin/organizations", "/api/admin/organizations?page=zero"]) {
        const res = await client.get(url);
        expect(res.status, url).toBe(404);
        expect(withoutRequestId(res.body)).toEqual(withoutRequestId(missing.body));
      }
    }
    const bad = await operator.client.get("/api/admin/organizations?page=zero");
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("validation_failed");
  });
});

describe("GET /api/openapi.json", () => {
  it("documents every console route with its schemas and declared access, and nothing else", async () => {
    const res = await new TestClient(t.app).get("/api/openapi.json");
    expect(res.status).toBe(200);
    const doc = JSON.parse(res.raw.body) as {
      openapi: string;
      paths: Record<string, Record<string, { "x-access"?: string; "x-object-rule"?: string; responses?: object }>>;
    };
    expect(doc.openapi).toMatch(/^3\./);
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const declared = t.app.declaredRoutes
      .filter((r) => r.method !== "HEAD")
      .map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, "{$1}")}`);
    expect(declared.length).toBeGreaterThan(40);
    expect(documented.sort()).toEqual([...new Set(declared)].sort());
    for (const r of t.app.declaredRoutes.filter((d) => d.method !== "HEAD")) {
      const op = doc.paths[r.url.replace(/:(\w+)/g, "{$1}")]![r.method.toLowerCase()]!;
      expect(op["x-access"], `${r.method} ${r.url}`).toBe(r.access);
      expect(op["x-object-rule"]).toBe(r.objectRule);
    }
    // Schemas come from the zod contracts: a paged list documents its items and a path its parameters.
    const keys = doc.paths["/api/orgs/{orgId}/api-keys"]!.get as unknown as {
      parameters: { name: string; in: string }[];
      responses: { 200: { content: { "application/json": { schema: { properties: Record<string, unknown> } } } } };
    };
    expect(keys.parameters).toContainEqual(expect.objectContaining({ name: "orgId", in: "path" }));
    expect(Object.keys(keys.responses[200].content["application/json"].schema.properties)).toEqual(
      expect.arrayContaining(["items", "total", "page", "pageSize"]),
    );
  });
});
