/**
 * The console permission matrix: every console endpoint, called as organization admin, organization member
 * (in no project), project admin, project member and a user of another organization. Each case gets a fresh
 * organization so that writes of one case cannot influence another.
 */
import { ApiErrorBody } from "@moonport/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../src/modules/keys/create-api-key.ts";
import { addOrgMember, addProjectMember, signUp, type TestUser } from "./console-helpers.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

type Role = "orgAdmin" | "orgMember" | "projectAdmin" | "projectMember" | "outsider";
const ROLES: Role[] = ["orgAdmin", "orgMember", "projectAdmin", "projectMember", "outsider"];

interface Fixture {
  users: Record<Role, TestUser>;
  /** an organization member in no project, the target of member edits */
  target: TestUser;
  orgId: string;
  projectId: string;
  invitationId: string;
  adminKeyId: string;
  memberKeyId: string;
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function fixture(): Promise<Fixture> {
  const orgAdmin = await signUp(t);
  const [orgMember, projectAdmin, projectMember, outsider, target] = await Promise.all([
    signUp(t),
    signUp(t),
    signUp(t),
    signUp(t),
    signUp(t),
  ]);
  const orgId = orgAdmin.orgId;
  for (const u of [orgMember, projectAdmin, projectMember, target]) await addOrgMember(t, orgId, u, "member");
  const created = await orgAdmin.client.post(`/api/orgs/${orgId}/projects`, { name: "matrix" });
  expect(created.status).toBe(201);
  const projectId = created.body.id as string;
  await addProjectMember(t, projectId, projectAdmin, "admin");
  await addProjectMember(t, projectId, projectMember, "member");
  const invite = await orgAdmin.client.post(`/api/orgs/${orgId}/invitations`, {
    phone: "13700001111",
    nickname: "pending_one",
    role: "member",
  });
  expect(invite.status).toBe(201);
  const adminKey = await createApiKey({
    db: t.ctx.db,
    orgId,
    projectId,
    name: "admin-key",
    createdBy: orgAdmin.userId,
  });
  const memberKey = await createApiKey({
    db: t.ctx.db,
    orgId,
    projectId,
    name: "member-key",
    createdBy: projectMember.userId,
  });
  return {
    users: { orgAdmin, orgMember, projectAdmin, projectMember, outsider },
    target,
    orgId,
    projectId,
    invitationId: invite.body.invitationId,
    adminKeyId: adminKey.id,
    memberKeyId: memberKey.id,
  };
}

type Expect = "ok" | 403 | 404;
interface Case {
  name: string;
  method: "GET" | "POST" | "PATCH" | "DELETE";
  url: (f: Fixture) => string;
  body?: (f: Fixture) => unknown;
  expect: Record<Role, Expect>;
}

const everyone: Record<Role, Expect> = {
  orgAdmin: "ok",
  orgMember: "ok",
  projectAdmin: "ok",
  projectMember: "ok",
  outsider: 404,
};
const orgAdminOnly: Record<Role, Expect> = {
  orgAdmin: "ok",
  orgMember: 403,
  projectAdmin: 403,
  projectMember: 403,
  outsider: 404,
};
const projectReaders: Record<Role, Expect> = {
  orgAdmin: "ok",
  orgMember: 404,
  projectAdmin: "ok",
  projectMember: "ok",
  outsider: 404,
};
const projectAdmins: Record<Role, Expect> = {
  orgAdmin: "ok",
  orgMember: 404,
  projectAdmin: "ok",
  projectMember: 403,
  outsider: 404,
};

const P = (f: Fixture) => `/api/orgs/${f.orgId}/projects/${f.projectId}`;

const CASES: Case[] = [
  { name: "read organization", method: "GET", url: (f) => `/api/orgs/${f.orgId}`, expect: everyone },
  {
    name: "rename organization",
    method: "PATCH",
    url: (f) => `/api/orgs/${f.orgId}`,
    body: () => ({ name: "Renamed" }),
    expect: orgAdminOnly,
  },
  { name: "organization overview", method: "GET", url: (f) => `/api/orgs/${f.orgId}/overview`, expect: everyone },
  { name: "list members", method: "GET", url: (f) => `/api/orgs/${f.orgId}/members`, expect: orgAdminOnly },
  {
    name: "invite a member",
    method: "POST",
    url: (f) => `/api/orgs/${f.orgId}/invitations`,
    body: () => ({ phone: "13800002222", nickname: "newbie", role: "member" }),
    expect: orgAdminOnly,
  },
  {
    name: "revoke an invitation",
    method: "DELETE",
    url: (f) => `/api/orgs/${f.orgId}/invitations/${f.invitationId}`,
    expect: orgAdminOnly,
  },
  {
    name: "resend an invitation",
    method: "POST",
    url: (f) => `/api/orgs/${f.orgId}/invitations/${f.invitationId}/resend`,
    expect: orgAdminOnly,
  },
  {
    name: "edit a member",
    method: "PATCH",
    url: (f) => `/api/orgs/${f.orgId}/members/${f.target.userId}`,
    body: () => ({ nickname: "edited", role: "admin" }),
    expect: orgAdminOnly,
  },
  {
    name: "remove a member",
    method: "DELETE",
    url: (f) => `/api/orgs/${f.orgId}/members/${f.target.userId}`,
    expect: orgAdminOnly,
  },
  { name: "list projects", method: "GET", url: (f) => `/api/orgs/${f.orgId}/projects`, expect: everyone },
  {
    name: "create a project",
    method: "POST",
    url: (f) => `/api/orgs/${f.orgId}/projects`,
    body: () => ({ name: "another" }),
    expect: orgAdminOnly,
  },
  { name: "project overview", method: "GET", url: P, expect: projectReaders },
  {
    name: "project settings",
    method: "PATCH",
    url: P,
    body: () => ({ description: "changed", monthlyBudget: 100 }),
    expect: projectAdmins,
  },
  {
    name: "archive a project",
    method: "POST",
    url: (f) => `${P(f)}/archive`,
    body: () => ({ confirmName: "matrix" }),
    expect: { orgAdmin: "ok", orgMember: 404, projectAdmin: 403, projectMember: 403, outsider: 404 },
  },
  { name: "list project members", method: "GET", url: (f) => `${P(f)}/members`, expect: projectReaders },
  {
    name: "list project member candidates",
    method: "GET",
    url: (f) => `${P(f)}/member-candidates`,
    expect: projectAdmins,
  },
  {
    name: "add a project member",
    method: "POST",
    url: (f) => `${P(f)}/members`,
    body: (f) => ({ userId: f.target.userId, role: "member" }),
    expect: projectAdmins,
  },
  {
    name: "change a project member's role",
    method: "PATCH",
    url: (f) => `${P(f)}/members/${f.users.projectMember.userId}`,
    body: () => ({ role: "admin" }),
    expect: projectAdmins,
  },
  {
    name: "remove a project member",
    method: "DELETE",
    url: (f) => `${P(f)}/members/${f.users.projectMember.userId}`,
    expect: projectAdmins,
  },
  { name: "project billing", method: "GET", url: (f) => `${P(f)}/billing?month=2026-11`, expect: projectReaders },
  { name: "list API keys", method: "GET", url: (f) => `/api/orgs/${f.orgId}/api-keys`, expect: everyone },
  {
    name: "create an API key",
    method: "POST",
    url: (f) => `/api/orgs/${f.orgId}/api-keys`,
    body: (f) => ({ name: "fresh", projectId: f.projectId }),
    expect: projectReaders,
  },
  {
    name: "rename another user's API key",
    method: "PATCH",
    url: (f) => `/api/orgs/${f.orgId}/api-keys/${f.adminKeyId}`,
    body: () => ({ name: "renamed" }),
    expect: { orgAdmin: "ok", orgMember: 404, projectAdmin: "ok", projectMember: 404, outsider: 404 },
  },
  {
    name: "disable another user's API key",
    method: "PATCH",
    url: (f) => `/api/orgs/${f.orgId}/api-keys/${f.adminKeyId}`,
    body: () => ({ status: "disabled" }),
    expect: { orgAdmin: "ok", orgMember: 404, projectAdmin: "ok", projectMember: 404, outsider: 404 },
  },
  {
    name: "delete another user's API key",
    method: "DELETE",
    url: (f) => `/api/orgs/${f.orgId}/api-keys/${f.adminKeyId}`,
    expect: { orgAdmin: "ok", orgMember: 404, projectAdmin: "ok", projectMember: 404, outsider: 404 },
  },
  {
    name: "rename a project member's own API key",
    method: "PATCH",
    url: (f) => `/api/orgs/${f.orgId}/api-keys/${f.memberKeyId}`,
    body: () => ({ name: "mine" }),
    expect: projectReaders,
  },
  {
    name: "delete a project member's own API key",
    method: "DELETE",
    url: (f) => `/api/orgs/${f.orgId}/api-keys/${f.memberKeyId}`,
    expect: projectReaders,
  },
  { name: "usage limits", method: "GET", url: (f) => `/api/orgs/${f.orgId}/limits`, expect: everyone },
  {
    name: "consumption",
    method: "GET",
    url: (f) => `/api/orgs/${f.orgId}/consumption?granularity=month&period=2026-11`,
    expect: everyone,
  },
  {
    name: "create an additional organization",
    method: "POST",
    url: () => "/api/orgs",
    body: () => ({ name: "Side org" }),
    expect: { orgAdmin: "ok", orgMember: "ok", projectAdmin: "ok", projectMember: "ok", outsider: "ok" },
  },
];

describe("console permission matrix", () => {
  for (const c of CASES) {
    for (const role of ROLES) {
      const want = c.expect[role];
      it(`${c.name}: ${role} is ${want === "ok" ? "allowed" : `denied with ${want}`}`, async () => {
        const f = await fixture();
        const client = f.users[role].client;
        const res = await client.request(c.method, c.url(f), c.body?.(f));
        if (want === "ok") {
          expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(200);
          expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
        } else {
          expect(res.status, JSON.stringify(res.body)).toBe(want);
          const body = ApiErrorBody.parse(res.body);
          expect(body.error.code).toBe(want === 404 ? "not_found" : "forbidden");
        }
      });
    }
  }

  it("answers every endpoint with 401 without a session", async () => {
    const f = await fixture();
    const { TestClient } = await import("./helpers.ts");
    const anon = new TestClient(t.app);
    for (const c of CASES) {
      const res = await anon.request(c.method, c.url(f), c.body?.(f));
      expect(res.status, c.name).toBe(401);
    }
  });

  it("gives an outsider the same answer for an existing object as for a missing one", async () => {
    const f = await fixture();
    const outsider = f.users.outsider.client;
    const real = await outsider.get(`/api/orgs/${f.orgId}/projects/${f.projectId}`);
    const missing = await outsider.get(`/api/orgs/${f.orgId}/projects/proj_doesnotexist0000000`);
    const missingOrg = await outsider.get("/api/orgs/org_doesnotexist00000000/projects/x");
    for (const r of [real, missing, missingOrg]) {
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe("not_found");
      expect(r.body.error.message).toBe(real.body.error.message);
    }
    const memberView = await f.users.orgMember.client.get(`/api/orgs/${f.orgId}/projects/${f.projectId}`);
    const memberMissing = await f.users.orgMember.client.get(`/api/orgs/${f.orgId}/projects/proj_doesnotexist0000000`);
    expect(memberView.body.error.code).toBe(memberMissing.body.error.code);
  });

  it("covers every console route of the app", () => {
    // Guards against an endpoint slipping in without a row above. The invitation-token routes are decided by
    // the token and the invitee's phone, not by a role; console-members.test.ts covers them.
    const tokenRoutes = [
      "GET /api/invitations/:token",
      "POST /api/invitations/:token/accept",
      "POST /api/invitations/:token/decline",
    ];
    const placeholder = {
      orgId: ":orgId",
      projectId: ":projectId",
      invitationId: ":invitationId",
      adminKeyId: ":keyId",
      memberKeyId: ":keyId",
      target: { userId: ":userId" },
      users: { projectMember: { userId: ":userId" } },
    } as unknown as Fixture;
    const covered = new Set([...CASES.map((c) => `${c.method} ${c.url(placeholder).split("?")[0]}`), ...tokenRoutes]);
    expect(new Set(consoleRoutes())).toEqual(covered);
  });
});

/** "METHOD /full/path" for every /api/orgs and /api/invitations route, read from Fastify's route tree. */
function consoleRoutes(): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split("\n")) {
    const m = /^([│├└─\s]*)(\/\S*) \(([^)]+)\)/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack.push(m[2]!);
    const path = stack.join("");
    if (!path.startsWith("/api/orgs") && !path.startsWith("/api/invitations")) continue;
    for (const method of m[3]!.split(", ")) if (method !== "HEAD") out.push(`${method} ${path}`);
  }
  return out;
}
