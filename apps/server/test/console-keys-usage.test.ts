import {
  ApiKeyPage,
  ApiKeyRow,
  Consumption,
  CreateApiKeyResponse,
  OrgGeneral,
  OrgOverview,
  ProjectBilling,
  UsageLimits,
} from "@moonport/contracts";
import { schema, sha256Hex } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addOrgMember, addProjectMember, insertBill, signUp } from "./console-helpers.ts";
import { createTestApp, type TestApp } from "./helpers.ts";
import { seedRecharge, seedVoucher } from "./support/money.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ MAX_API_KEYS: "3" });
});
afterAll(() => t.close());

describe("API keys", () => {
  it("returns the secret only in the creation response and stores only its hash", async () => {
    const admin = await signUp(t);
    const res = await admin.client.post(`/api/orgs/${admin.orgId}/api-keys`, {
      name: "my key",
      projectId: admin.defaultProjectId,
    });
    expect(res.status).toBe(201);
    const created = CreateApiKeyResponse.parse(res.body);
    expect(created.secret).toMatch(/^sk-[0-9A-Za-z]{48}$/);
    expect(created.key).toMatchObject({ name: "my key", status: "enabled", canManage: true });
    expect(created.key.creator.nickname).toBe(admin.username);
    const [row] = await t.ctx.db.select().from(schema.apiKeys).where(eq(schema.apiKeys.id, created.key.id));
    expect(row!.keyHash).toBe(sha256Hex(created.secret));
    const list = await admin.client.get(`/api/orgs/${admin.orgId}/api-keys`);
    expect(JSON.stringify(list.body)).not.toContain(created.secret);
    expect(ApiKeyPage.parse(list.body).items[0]!.mask).toBe(created.key.mask);
  });

  it.each([
    [{ name: "", projectId: "x" }, "name"],
    [{ name: "n".repeat(33), projectId: "x" }, "name"],
    [{ name: "ok" }, "projectId"],
  ])("rejects the key %j with a field error on %s", async (body, field) => {
    const admin = await signUp(t);
    const res = await admin.client.post(`/api/orgs/${admin.orgId}/api-keys`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    expect(ApiKeyPage.parse((await admin.client.get(`/api/orgs/${admin.orgId}/api-keys`)).body).total).toBe(0);
  });

  it("shares one key quota across the organization's projects", async () => {
    const admin = await signUp(t);
    const other = await admin.client.post(`/api/orgs/${admin.orgId}/projects`, { name: "second" });
    const url = `/api/orgs/${admin.orgId}/api-keys`;
    await admin.client.post(url, { name: "a", projectId: admin.defaultProjectId });
    await admin.client.post(url, { name: "b", projectId: other.body.id });
    const third = await admin.client.post(url, { name: "c", projectId: other.body.id });
    expect(third.status).toBe(201);
    const fourth = await admin.client.post(url, { name: "d", projectId: admin.defaultProjectId });
    expect(fourth.status).toBe(409);
    expect(fourth.body.error.code).toBe("limit_reached");
    // Deleting frees a slot.
    expect((await admin.client.delete(`${url}/${third.body.key.id}`)).status).toBe(200);
    expect((await admin.client.post(url, { name: "d", projectId: admin.defaultProjectId })).status).toBe(201);
  });

  it("renames, disables, enables and deletes; a deleted key disappears from the list", async () => {
    const admin = await signUp(t);
    const url = `/api/orgs/${admin.orgId}/api-keys`;
    const created = await admin.client.post(url, { name: "k1", projectId: admin.defaultProjectId });
    const id = created.body.key.id;
    expect(ApiKeyRow.parse((await admin.client.patch(`${url}/${id}`, { name: "renamed" })).body).name).toBe("renamed");
    expect((await admin.client.patch(`${url}/${id}`, { status: "disabled" })).body.status).toBe("disabled");
    expect((await admin.client.patch(`${url}/${id}`, { status: "enabled" })).body.status).toBe("enabled");
    const bad = await admin.client.patch(`${url}/${id}`, { name: "x".repeat(40) });
    expect(bad.status).toBe(400);
    expect((await admin.client.patch(`${url}/${id}`, {})).status).toBe(400);
    expect((await admin.client.delete(`${url}/${id}`)).status).toBe(200);
    expect(ApiKeyPage.parse((await admin.client.get(url)).body).total).toBe(0);
    expect((await admin.client.patch(`${url}/${id}`, { name: "zombie" })).status).toBe(404);
  });

  it("lists keys by role: project members see their own, project admins their project's, filter by project", async () => {
    const admin = await signUp(t);
    const pm = await signUp(t);
    await addOrgMember(t, admin.orgId, pm, "member");
    await addProjectMember(t, admin.defaultProjectId, pm, "member");
    const url = `/api/orgs/${admin.orgId}/api-keys`;
    await admin.client.post(url, { name: "admins", projectId: admin.defaultProjectId });
    await pm.client.post(url, { name: "members", projectId: admin.defaultProjectId });
    const seen = ApiKeyPage.parse((await pm.client.get(url)).body);
    expect(seen.items.map((k) => k.name)).toEqual(["members"]);
    const all = ApiKeyPage.parse((await admin.client.get(`${url}?projectId=${admin.defaultProjectId}`)).body);
    expect(all.total).toBe(2);
    const page = ApiKeyPage.parse((await admin.client.get(`${url}?pageSize=1&page=2`)).body);
    expect(page.items.map((k) => k.name)).toEqual(["admins"]);
  });
});

describe("organization, usage limits and consumption", () => {
  it("renames the organization and rejects an empty name", async () => {
    const admin = await signUp(t);
    const ok = await admin.client.patch(`/api/orgs/${admin.orgId}`, { name: "Acme" });
    expect(OrgGeneral.parse(ok.body)).toMatchObject({ name: "Acme", role: "admin", verification: "unverified" });
    const bad = await admin.client.patch(`/api/orgs/${admin.orgId}`, { name: "  " });
    expect(bad.status).toBe(400);
    expect(OrgGeneral.parse((await admin.client.get(`/api/orgs/${admin.orgId}`)).body).name).toBe("Acme");
  });

  it("creates an additional organization, makes the creator its admin and switches to it", async () => {
    const u = await signUp(t);
    const res = await u.client.post("/api/orgs", { name: "Side project" });
    expect(res.status).toBe(201);
    const general = OrgGeneral.parse((await u.client.get(`/api/orgs/${res.body.id}`)).body);
    expect(general).toMatchObject({ name: "Side project", role: "admin", personal: false });
    const [user] = await t.ctx.db.select().from(schema.users).where(eq(schema.users.id, u.userId));
    expect(user!.currentOrgId).toBe(res.body.id);
  });

  it("creates the organization in the edition asked for and refuses an unknown one", async () => {
    const u = await signUp(t, { edition: "cn" });
    const chosen = await u.client.post("/api/orgs", { name: "Global arm", edition: "global" });
    expect(chosen.status).toBe(201);
    expect(OrgGeneral.parse((await u.client.get(`/api/orgs/${chosen.body.id}`)).body)).toMatchObject({
      edition: "global",
      currency: "USD",
    });
    const count = async () =>
      (await t.ctx.db.select().from(schema.orgMembers).where(eq(schema.orgMembers.userId, u.userId))).length;
    const before = await count();
    const bad = await u.client.post("/api/orgs", { name: "Moon arm", edition: "moon" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toEqual([expect.objectContaining({ path: "edition", message: "Invalid value." })]);
    expect(await count()).toBe(before);
  });

  it("shows a key's creator by their current name after they rename themselves", async () => {
    const admin = await signUp(t);
    await admin.client.post(`/api/orgs/${admin.orgId}/api-keys`, { name: "k", projectId: admin.defaultProjectId });
    const renamed = `${admin.username}_new`;
    expect((await admin.client.put("/api/me/username", { username: renamed })).status).toBe(200);
    const list = ApiKeyPage.parse((await admin.client.get(`/api/orgs/${admin.orgId}/api-keys`)).body);
    expect(list.items[0]!.creator.nickname).toBe(renamed);
  });

  it("buckets spend by day in the edition's time zone and breaks it down by key, project, type and model", async () => {
    const admin = await signUp(t, { edition: "cn" });
    const key = await admin.client.post(`/api/orgs/${admin.orgId}/api-keys`, {
      name: "billing-key",
      projectId: admin.defaultProjectId,
    });
    const base = { orgId: admin.orgId, projectId: admin.defaultProjectId, apiKeyId: key.body.key.id };
    // 17:30 UTC on Nov 3 is 01:30 on Nov 4 in Asia/Shanghai.
    await insertBill(t, { ...base, consumption: 1_500_000_000n, createdAt: new Date("2026-11-03T17:30:00Z") });
    await insertBill(t, {
      ...base,
      model: "kimi-k2-0905-preview",
      consumption: 250_000_000n,
      createdAt: new Date("2026-11-03T15:00:00Z"),
    });
    await insertBill(t, {
      ...base,
      productType: "tool_call",
      model: "$web_search",
      consumption: 5_000_000n,
      createdAt: new Date("2026-10-31T16:30:00Z"),
    });
    const month = Consumption.parse(
      (await admin.client.get(`/api/orgs/${admin.orgId}/consumption?granularity=month&period=2026-11`)).body,
    );
    expect(month.timeZone).toBe("Asia/Shanghai");
    expect(month.series).toHaveLength(30);
    expect(month.series.find((p) => p.label === "2026-11-04")!.amount).toBe("1500000000");
    expect(month.series.find((p) => p.label === "2026-11-03")!.amount).toBe("250000000");
    expect(month.series.find((p) => p.label === "2026-11-01")!.amount).toBe("5000000");
    expect(month.total).toBe("1755000000");
    expect(month.byApiKey).toEqual([{ id: key.body.key.id, name: "billing-key", amount: "1755000000" }]);
    expect(month.byProject[0]).toMatchObject({ id: admin.defaultProjectId, name: "default" });
    expect(month.byModel.map((m) => m.id)).toEqual(["moonshot-v1-8k", "kimi-k2-0905-preview", "$web_search"]);
    expect(month.byProductType.map((m) => [m.id, m.amount])).toEqual([
      ["model_inference", "1750000000"],
      ["tool_call", "5000000"],
    ]);
    const year = Consumption.parse(
      (await admin.client.get(`/api/orgs/${admin.orgId}/consumption?granularity=year&period=2026`)).body,
    );
    expect(year.series).toHaveLength(12);
    expect(year.series[10]).toEqual({ label: "2026-11", amount: "1755000000" });
    const bad = await admin.client.get(`/api/orgs/${admin.orgId}/consumption?granularity=year&period=2026-11`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe("period");

    const billing = ProjectBilling.parse(
      (await admin.client.get(`/api/orgs/${admin.orgId}/projects/${admin.defaultProjectId}/billing?month=2026-11`))
        .body,
    );
    expect(billing.total).toBe("1755000000");
    expect(billing.byModel[0]).toMatchObject({ model: "moonshot-v1-8k", requests: 1, tokens: 150 });
  });

  it("limits a member's consumption view to their projects", async () => {
    const admin = await signUp(t);
    const member = await signUp(t);
    await addOrgMember(t, admin.orgId, member, "member");
    const other = await admin.client.post(`/api/orgs/${admin.orgId}/projects`, { name: "secret" });
    await addProjectMember(t, admin.defaultProjectId, member, "member");
    await insertBill(t, { orgId: admin.orgId, projectId: admin.defaultProjectId, apiKeyId: "k1", consumption: 7n });
    await insertBill(t, { orgId: admin.orgId, projectId: other.body.id, apiKeyId: "k2", consumption: 100n });
    const mine = Consumption.parse((await member.client.get(`/api/orgs/${admin.orgId}/consumption`)).body);
    expect(mine.total).toBe("7");
    expect(mine.byProject.map((p) => p.id)).toEqual([admin.defaultProjectId]);
    const all = Consumption.parse((await admin.client.get(`/api/orgs/${admin.orgId}/consumption`)).body);
    expect(all.total).toBe("107");
    const overview = OrgOverview.parse((await member.client.get(`/api/orgs/${admin.orgId}/overview`)).body);
    expect(overview.month.total).toBe("7");
    expect(overview.counts.projects).toBe(1);
    expect(overview.month.daily.length).toBeGreaterThanOrEqual(28);
  });

  it("shows balance, voucher and tier on the overview", async () => {
    const admin = await signUp(t, { edition: "global" });
    await seedRecharge(t.ctx, admin.orgId, 20_000_000_000n);
    await seedVoucher(t.ctx, admin.orgId, 3_000_000_000n, new Date(Date.now() + 86_400_000), "register");
    const o = OrgOverview.parse((await admin.client.get(`/api/orgs/${admin.orgId}/overview`)).body);
    expect(o.currency).toBe("USD");
    expect(o.balance).toEqual({ cash: "20000000000", voucher: "3000000000", total: "23000000000" });
    expect(o.tier).toEqual({ tier: 2, name: "Tier2" });
    expect(o.counts).toEqual({ projects: 1, apiKeys: 0, members: 1 });
  });

  it("reports the tier table and current use counted from bill rows", async () => {
    const admin = await signUp(t, { edition: "cn" });
    const base = { orgId: admin.orgId, projectId: admin.defaultProjectId, apiKeyId: "k" };
    await insertBill(t, { ...base, consumption: 1n, inputTokens: 1000, outputTokens: 200 });
    await insertBill(t, { ...base, consumption: 1n, inputTokens: 10, outputTokens: 5 });
    await insertBill(t, { ...base, consumption: 1n, createdAt: new Date(Date.now() - 5 * 60_000) });
    const limits = UsageLimits.parse((await admin.client.get(`/api/orgs/${admin.orgId}/limits`)).body);
    expect(limits.tier).toMatchObject({ tier: 0, rpm: 3, tpm: 500_000, tpd: 1_500_000, concurrency: 1 });
    expect(limits.tiers).toHaveLength(6);
    expect(limits.tiers[1]).toMatchObject({ name: "Tier1", recharge: "50000000000", tpd: null });
    expect(limits.current.rpm).toBe(2);
    expect(limits.current.tpm).toBe(1215);
    expect(limits.current.concurrency).toBeNull();
    expect(limits.current.tpd).toBeGreaterThanOrEqual(1215);
  });
});
