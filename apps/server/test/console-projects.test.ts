import { ApiKeyPage, ProjectDetail, ProjectOverview, ProjectPage } from "@moonport/contracts";
import { newId, schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../src/lib/app-error.ts";
import { mapProjectNameViolation } from "../src/modules/projects/project-name.ts";
import { addOrgMember, addProjectMember, signUp } from "./console-helpers.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

/** A 20-digit amount (JSON.stringify writes 12345678901234567000). */
const TWENTY_DIGITS = 1.2345678901234567e19;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ MAX_ACTIVE_PROJECTS: "30", MAX_API_KEYS: "3" });
});
afterAll(() => t.close());

describe("projects", () => {
  it.each([
    [{ name: "" }, "name"],
    [{ name: "has space" }, "name"],
    [{ name: "a".repeat(21) }, "name"],
    [{ name: "ok", description: "d".repeat(51) }, "description"],
  ])("rejects the project %j with a field error on %s and creates nothing", async (body, field) => {
    const admin = await signUp(t);
    const res = await admin.client.post(`/api/orgs/${admin.orgId}/projects`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    const list = ProjectPage.parse((await admin.client.get(`/api/orgs/${admin.orgId}/projects`)).body);
    expect(list.total).toBe(1);
  });

  it("creates a project with a 20-character name and a 50-character description", async () => {
    const admin = await signUp(t);
    const res = await admin.client.post(`/api/orgs/${admin.orgId}/projects`, {
      name: "p".repeat(20),
      description: "d".repeat(50),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "active", role: "admin" });
  });

  it("paginates projects on the server, default project first", async () => {
    const admin = await signUp(t);
    for (let i = 0; i < 12; i++) {
      expect((await admin.client.post(`/api/orgs/${admin.orgId}/projects`, { name: `p${i}` })).status).toBe(201);
    }
    const p1 = ProjectPage.parse((await admin.client.get(`/api/orgs/${admin.orgId}/projects?pageSize=5`)).body);
    expect(p1.total).toBe(13);
    expect(p1.items[0]!.isDefault).toBe(true);
    const p3 = ProjectPage.parse((await admin.client.get(`/api/orgs/${admin.orgId}/projects?page=3&pageSize=5`)).body);
    expect(p3.items).toHaveLength(3);
    const ids = new Set<string>();
    for (let page = 1; page <= 3; page++) {
      const p = ProjectPage.parse(
        (await admin.client.get(`/api/orgs/${admin.orgId}/projects?page=${page}&pageSize=5`)).body,
      );
      for (const item of p.items) ids.add(item.id);
    }
    expect(ids.size).toBe(13);
  });

  it("stops at the configured number of active projects", async () => {
    const admin = await signUp(t);
    for (let i = 1; i < 30; i++) await admin.client.post(`/api/orgs/${admin.orgId}/projects`, { name: `q${i}` });
    const res = await admin.client.post(`/api/orgs/${admin.orgId}/projects`, { name: "one_more" });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("limit_reached");
    expect(res.body.error.message).toContain("30");
  });

  it("shows an organization member only the projects they belong to", async () => {
    const admin = await signUp(t);
    const member = await signUp(t);
    await addOrgMember(t, admin.orgId, member, "member");
    const a = await admin.client.post(`/api/orgs/${admin.orgId}/projects`, { name: "visible" });
    await admin.client.post(`/api/orgs/${admin.orgId}/projects`, { name: "hidden" });
    await addProjectMember(t, a.body.id, member, "member");
    const list = ProjectPage.parse((await member.client.get(`/api/orgs/${admin.orgId}/projects`)).body);
    expect(list.items.map((p) => [p.name, p.role])).toEqual([["visible", "member"]]);
  });

  it("updates settings: integer budgets and alerts, and a TPM cap within the organization's tier", async () => {
    const admin = await signUp(t);
    const url = `/api/orgs/${admin.orgId}/projects/${admin.defaultProjectId}`;
    const ok = await admin.client.patch(url, {
      name: "prod",
      description: "production",
      monthlyBudget: 500,
      dailyBudget: 20,
      monthlyAlert: 400,
      dailyAlert: 15,
      tpmLimit: 100_000,
    });
    expect(ok.status).toBe(200);
    const detail = ProjectDetail.parse(ok.body);
    expect(detail.settings).toEqual({
      monthlyBudget: 500,
      dailyBudget: 20,
      monthlyAlert: 400,
      dailyAlert: 15,
      tpmLimit: 100_000,
    });
    expect(detail.orgTpm).toBe(500_000);

    for (const [body, field] of [
      [{ monthlyBudget: 1.5 }, "monthlyBudget"],
      [{ dailyBudget: -1 }, "dailyBudget"],
      [{ dailyAlert: "10" }, "dailyAlert"],
      [{ tpmLimit: 500_001 }, "tpmLimit"],
      [{ name: "two words" }, "name"],
    ] as const) {
      const res = await admin.client.patch(url, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details[0].path).toBe(field);
    }
    const after = ProjectOverview.parse((await admin.client.get(url)).body);
    expect(after.project.name).toBe("prod");
    expect(after.project.settings.tpmLimit).toBe(100_000);

    const cleared = await admin.client.patch(url, { monthlyBudget: null, tpmLimit: null });
    expect(ProjectDetail.parse(cleared.body).settings).toMatchObject({ monthlyBudget: null, tpmLimit: null });
  });

  it("project admins add organization members only; others must be invited to the organization first", async () => {
    const admin = await signUp(t);
    const pAdmin = await signUp(t);
    const colleague = await signUp(t);
    const stranger = await signUp(t);
    await addOrgMember(t, admin.orgId, pAdmin, "member");
    await addOrgMember(t, admin.orgId, colleague, "member");
    const project = await admin.client.post(`/api/orgs/${admin.orgId}/projects`, { name: "team" });
    await addProjectMember(t, project.body.id, pAdmin, "admin");
    const base = `/api/orgs/${admin.orgId}/projects/${project.body.id}`;

    const candidates = await pAdmin.client.get(`${base}/member-candidates`);
    expect(candidates.body.items.map((c: { userId: string }) => c.userId)).toEqual([colleague.userId]);

    const refused = await pAdmin.client.post(`${base}/members`, { userId: stranger.userId, role: "member" });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0]).toMatchObject({ path: "userId" });
    expect(refused.body.error.details[0].message).toContain("invite them first");

    const noRole = await pAdmin.client.post(`${base}/members`, { userId: colleague.userId });
    expect(noRole.status).toBe(400);
    expect(noRole.body.error.details[0].path).toBe("role");

    expect((await pAdmin.client.post(`${base}/members`, { userId: colleague.userId, role: "member" })).status).toBe(
      201,
    );
    const twice = await pAdmin.client.post(`${base}/members`, { userId: colleague.userId, role: "member" });
    expect(twice.status).toBe(400);
    const members = await pAdmin.client.get(`${base}/members`);
    expect(members.body.total).toBe(3);
    expect((await colleague.client.get(base)).status).toBe(200);
  });

  it("archives irreversibly after the name is typed: keys disabled, members removed, read-only", async () => {
    const admin = await signUp(t);
    const member = await signUp(t);
    await addOrgMember(t, admin.orgId, member, "member");
    const project = await admin.client.post(`/api/orgs/${admin.orgId}/projects`, { name: "old" });
    const base = `/api/orgs/${admin.orgId}/projects/${project.body.id}`;
    await addProjectMember(t, project.body.id, member, "member");
    const key = await member.client.post(`/api/orgs/${admin.orgId}/api-keys`, {
      name: "k",
      projectId: project.body.id,
    });
    expect(key.status).toBe(201);

    const wrong = await admin.client.post(`${base}/archive`, { confirmName: "OLD" });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details[0].path).toBe("confirmName");
    expect(ProjectOverview.parse((await admin.client.get(base)).body).project.status).toBe("active");

    const events: unknown[] = [];
    const off = t.ctx.keyEvents.subscribe((e) => {
      events.push(e);
    });
    const archived = await admin.client.post(`${base}/archive`, { confirmName: "old" });
    off();
    expect(archived.status).toBe(200);
    expect(ProjectDetail.parse(archived.body)).toMatchObject({ status: "archived" });
    expect(events).toEqual([{ projectId: project.body.id }]);

    const [k] = await t.ctx.db.select().from(schema.apiKeys).where(eq(schema.apiKeys.id, key.body.key.id));
    expect(k!.status).toBe("disabled");
    const pm = await t.ctx.db
      .select()
      .from(schema.projectMembers)
      .where(eq(schema.projectMembers.projectId, project.body.id));
    expect(pm).toHaveLength(0);
    expect((await member.client.get(base)).status).toBe(404);

    const writes = [
      admin.client.patch(base, { description: "x" }),
      admin.client.post(`${base}/archive`, { confirmName: "old" }),
      admin.client.post(`${base}/members`, { userId: member.userId, role: "member" }),
      admin.client.post(`/api/orgs/${admin.orgId}/api-keys`, { name: "new", projectId: project.body.id }),
      admin.client.patch(`/api/orgs/${admin.orgId}/api-keys/${key.body.key.id}`, { status: "enabled" }),
      admin.client.delete(`/api/orgs/${admin.orgId}/api-keys/${key.body.key.id}`),
    ];
    for (const res of await Promise.all(writes)) {
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe("project_archived");
    }
    // Still readable by the organization admin, and the key shows as read-only.
    const keys = ApiKeyPage.parse((await admin.client.get(`/api/orgs/${admin.orgId}/api-keys`)).body);
    expect(keys.items.find((i) => i.id === key.body.key.id)).toMatchObject({ status: "disabled", canManage: false });
  });

  it("refuses budgets that contradict each other or exceed the stated maximum, and changes nothing", async () => {
    const admin = await signUp(t);
    const url = `/api/orgs/${admin.orgId}/projects/${admin.defaultProjectId}`;
    const base = { monthlyBudget: 100, dailyBudget: 10, monthlyAlert: 80, dailyAlert: 8 };
    expect((await admin.client.patch(url, base)).status).toBe(200);
    for (const [body, field, message] of [
      [{ dailyBudget: 500 }, "dailyBudget", "The daily budget cannot exceed the monthly budget (100)."],
      [
        { monthlyBudget: 50, dailyBudget: 60 },
        "dailyBudget",
        "The daily budget cannot exceed the monthly budget (50).",
      ],
      [{ monthlyAlert: 101 }, "monthlyAlert", "The alert amount cannot exceed the budget (100)."],
      [{ dailyAlert: 11 }, "dailyAlert", "The alert amount cannot exceed the budget (10)."],
      // Lowering a budget below its stored alert is a contradiction too.
      [{ dailyBudget: 5 }, "dailyAlert", "The alert amount cannot exceed the budget (5)."],
      [{ monthlyBudget: 1_000_000_001 }, "monthlyBudget", "Enter a whole number from 0 to 1,000,000,000."],
      [{ monthlyBudget: TWENTY_DIGITS }, "monthlyBudget", "Enter a whole number from 0 to 1,000,000,000."],
      [{ dailyAlert: -12.5 }, "dailyAlert", "Enter a whole number from 0 to 1,000,000,000."],
    ] as const) {
      const res = await admin.client.patch(url, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details, JSON.stringify(body)).toContainEqual({ path: field, message });
    }
    admin.client.locale = "zh-CN";
    const zh = await admin.client.patch(url, { dailyBudget: 500 });
    expect(zh.body.error.details).toEqual([{ path: "dailyBudget", message: "日预算不能超过月预算（100）。" }]);
    const big = await admin.client.patch(url, { monthlyBudget: TWENTY_DIGITS });
    expect(big.body.error.details[0].message).toBe("请输入 0 到 1,000,000,000 之间的整数。");
    const after = ProjectOverview.parse((await admin.client.get(url)).body);
    expect(after.project.settings).toMatchObject(base);
    // Clearing a budget lifts its relations; the maximum itself is accepted.
    const ok = await admin.client.patch(url, { monthlyBudget: null, dailyBudget: 1_000_000_000, dailyAlert: 900 });
    expect(ok.status).toBe(200);
  });

  it("keeps project names unique within an organization in any letter case, archived projects included", async () => {
    const admin = await signUp(t);
    const other = await signUp(t);
    const projects = `/api/orgs/${admin.orgId}/projects`;
    const dup = await admin.client.post(projects, { name: "Default" });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toMatchObject({
      code: "project_name_taken",
      details: [
        {
          path: "name",
          message:
            "This organization already has a project with this name (in any letter case, archived projects included).",
        },
      ],
    });
    admin.client.locale = "zh-CN";
    const zh = await admin.client.post(projects, { name: "DEFAULT" });
    expect(zh.body.error.details[0].message).toBe("该组织已有同名项目（不区分大小写，含已归档项目）。");
    // Another organization may use the name.
    expect((await other.client.post(`/api/orgs/${other.orgId}/projects`, { name: "Shared" })).status).toBe(201);
    const shared = await admin.client.post(projects, { name: "shared" });
    expect(shared.status).toBe(201);

    // Renaming: onto another project's name is refused; a project may change its own name's letter case.
    const rename = await admin.client.patch(`${projects}/${shared.body.id}`, { name: "DeFault" });
    expect(rename.status).toBe(409);
    expect(rename.body.error.details[0].path).toBe("name");
    expect((await admin.client.patch(`${projects}/${shared.body.id}`, { name: "SHARED" })).status).toBe(200);

    // Archived names stay reserved.
    const old = await admin.client.post(projects, { name: "old" });
    expect((await admin.client.post(`${projects}/${old.body.id}/archive`, { confirmName: "old" })).status).toBe(200);
    expect((await admin.client.post(projects, { name: "Old" })).body.error.code).toBe("project_name_taken");

    // Racing creations and renames: exactly one wins, the rest get the same field error.
    const racers = await Promise.all(
      ["race", "RACE", "Race", "rAce"].map((name) => admin.client.post(projects, { name })),
    );
    expect(racers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409]);
    const a = await admin.client.post(projects, { name: "a1" });
    const b = await admin.client.post(projects, { name: "b1" });
    const renames = await Promise.all([
      admin.client.patch(`${projects}/${a.body.id}`, { name: "same" }),
      admin.client.patch(`${projects}/${b.body.id}`, { name: "SAME" }),
    ]);
    expect(renames.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(renames.find((r) => r.status === 409)!.body.error.code).toBe("project_name_taken");

    const list = ProjectPage.parse((await admin.client.get(`${projects}?pageSize=100`)).body);
    const lower = list.items.map((p) => p.name.toLowerCase());
    expect(new Set(lower).size).toBe(lower.length);
  });

  it("maps the unique index's violation (the race the check cannot see) to project_name_taken", async () => {
    const admin = await signUp(t);
    const err = await t.ctx.db
      .insert(schema.projects)
      .values({ id: newId("proj"), orgId: admin.orgId, name: "DEFAULT" })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(err).toBeDefined();
    let mapped: unknown;
    try {
      mapProjectNameViolation(err);
    } catch (e) {
      mapped = e;
    }
    expect(mapped).toBeInstanceOf(AppError);
    expect((mapped as AppError).code).toBe("project_name_taken");
  });

  it("does not archive the default project", async () => {
    const admin = await signUp(t);
    const res = await admin.client.post(`/api/orgs/${admin.orgId}/projects/${admin.defaultProjectId}/archive`, {
      confirmName: "default",
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("default_project_archive");
  });
});
