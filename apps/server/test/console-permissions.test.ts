/**
 * The console permission matrix. Every `/api` route the app registers declares who may call it (`config.access`,
 * http/route.ts); this file reads those declarations from the app, derives from each what every kind of caller
 * must get (organization admin, organization member in no project, project admin, project member, a user of
 * another organization, the operator, a signed-out browser), and checks the real answers. A route without a
 * request below fails the file, as does a route without a declaration (the app refuses to start).
 *
 * Reads and expected denials run against one shared organization; a write that is expected to succeed gets a
 * fresh one, so the writes of one case cannot influence another.
 */
import { ApiErrorBody, DEFAULT_PLAYGROUND_PARAMS } from "@moonport/contracts";
import { newId, schema } from "@moonport/db";
import { desc, eq } from "drizzle-orm";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installAccessControl } from "../src/http/access.ts";
import type { DeclaredRoute } from "../src/http/route.ts";
import { createApiKey } from "../src/modules/keys/create-api-key.ts";
import { uniquePhone as uniqueLocalPhone, uniqueUsername } from "./auth-helpers.ts";
import { addOrgMember, addProjectMember, signUp, type TestUser } from "./console-helpers.ts";
import { createTestApp, multipartBody, type TestApp, TestClient } from "./helpers.ts";

type Role = "orgAdmin" | "orgMember" | "projectAdmin" | "projectMember" | "outsider" | "operator" | "signedOut";
const ROLES: Role[] = ["orgAdmin", "orgMember", "projectAdmin", "projectMember", "outsider", "operator", "signedOut"];
type SignedIn = Exclude<Role, "signedOut">;

interface Actor extends TestUser {
  sessionId: string;
}

interface Fixture {
  users: Record<SignedIn, Actor>;
  /** an organization member in no project, the target of member edits */
  target: TestUser;
  orgId: string;
  projectId: string;
  invitationId: string;
  invitationToken: string;
  adminKeyId: string;
  memberKeyId: string;
  /** a playground session of the organization admin in the project */
  sessionId: string;
  /** a function tool of the organization admin in the project */
  functionToolId: string;
  /** an MCP server of the organization admin in the project (at a refused address) */
  mcpServerId: string;
  /** Files uploaded by the organization admin and by the project member (for the project). */
  adminFileId: string;
  memberFileId: string;
}

/** What a caller gets: allowed, or refused with this status and error code. */
type Answer = "ok" | { status: number; code: string };
const NOT_FOUND: Answer = { status: 404, code: "not_found" };
const FORBIDDEN: Answer = { status: 403, code: "forbidden" };
const NO_ROUTE: Answer = { status: 404, code: "route_not_found" };
const SIGNED_OUT: Answer = { status: 401, code: "unauthenticated" };

let t: TestApp;
let shared: Fixture;
beforeAll(async () => {
  t = await createTestApp();
  shared = await fixture();
});
afterAll(() => t.close());

async function actor(user: TestUser): Promise<Actor> {
  const [session] = await t.ctx.db
    .select({ id: schema.sessions.id })
    .from(schema.sessions)
    .where(eq(schema.sessions.userId, user.userId))
    .orderBy(desc(schema.sessions.createdAt))
    .limit(1);
  return { ...user, sessionId: session!.id };
}

/** The operator: a signed-up account given the operator role directly (fixture shortcut; setup has its own tests). */
async function signUpOperator(): Promise<Actor> {
  const user = await signUp(t);
  await t.ctx.db.update(schema.users).set({ role: "operator" }).where(eq(schema.users.id, user.userId));
  return actor(user);
}

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
  const sessionId = newId("pgs");
  await t.ctx.db.insert(schema.playgroundSessions).values({
    id: sessionId,
    userId: orgAdmin.userId,
    orgId,
    projectId,
    title: "matrix session",
    mode: "chat",
    state: PLAYGROUND_STATE,
  });
  const functionToolId = newId("fnt");
  await t.ctx.db.insert(schema.functionTools).values({
    id: functionToolId,
    userId: orgAdmin.userId,
    orgId,
    projectId,
    ...FUNCTION_TOOL,
  });
  const mcpServerId = newId("mcp");
  await t.ctx.db.insert(schema.mcpServers).values({
    id: mcpServerId,
    userId: orgAdmin.userId,
    orgId,
    projectId,
    name: "matrix mcp",
    url: "http://127.0.0.1:9/mcp",
    transport: "streamable_http",
    authType: "none",
    timeoutMs: 2000,
  });
  const adminFileId = await insertFile(orgId, orgAdmin.userId, null);
  const memberFileId = await insertFile(orgId, projectMember.userId, projectId);
  const users = { orgAdmin, orgMember, projectAdmin, projectMember, outsider };
  const actors = Object.fromEntries(
    await Promise.all(Object.entries(users).map(async ([role, u]) => [role, await actor(u)])),
  ) as Record<Exclude<SignedIn, "operator">, Actor>;
  return {
    users: { ...actors, operator: await signUpOperator() },
    target,
    orgId,
    projectId,
    invitationId: invite.body.invitationId,
    invitationToken: (invite.body.path as string).split("/").pop()!,
    adminKeyId: adminKey.id,
    memberKeyId: memberKey.id,
    sessionId,
    functionToolId,
    mcpServerId,
    adminFileId,
    memberFileId,
  };
}

/** An extracted file with its text in the store, as an upload leaves it (the upload has its own tests). */
async function insertFile(orgId: string, uploadedBy: string, projectId: string | null): Promise<string> {
  const id = newId("file");
  const contentKey = `${orgId}/${id}.txt`;
  await t.ctx.files.store.putText(contentKey, "matrix file text");
  await t.ctx.db.insert(schema.files).values({
    id,
    orgId,
    projectId,
    uploadedBy,
    filename: "matrix.txt",
    bytes: 16,
    purpose: "file-extract",
    status: "ok",
    blobKey: `${orgId}/${id}`,
    contentKey,
  });
  return id;
}

/** The shared organization with `role` played by a fresh account: for account-level writes (sign-out, password…). */
async function withFreshAccount(role: Role): Promise<Fixture> {
  if (role === "signedOut") return { ...shared, users: { ...shared.users, orgAdmin: await actor(await signUp(t)) } };
  const fresh = role === "operator" ? await signUpOperator() : await actor(await signUp(t));
  return { ...shared, users: { ...shared.users, [role]: fresh } };
}

/** True when the route acts on a project: its visibility is checked before the role. */
function hasProject(route: DeclaredRoute): boolean {
  return route.project === "body" || route.params.includes("projectId");
}

/** What `role` must get from a route, derived from its declaration alone (src/modules/README.md "Console roles"). */
function expected(route: DeclaredRoute, role: Role): Answer {
  // Development seams answer only loopback clients; every client here has its own non-loopback address.
  if (route.loopbackOnly) return NO_ROUTE;
  switch (route.access) {
    case "public":
      return "ok";
    case "operator":
      return role === "operator" ? "ok" : NO_ROUTE;
    case "user":
      return role === "signedOut" ? SIGNED_OUT : "ok";
  }
  if (role === "signedOut") return SIGNED_OUT;
  if (role === "outsider" || role === "operator") return NOT_FOUND;
  // Organization admins administer every project; an organization member in no project cannot see it.
  if (hasProject(route) && role === "orgMember") return NOT_FOUND;
  switch (route.access) {
    case "orgMember":
    case "projectMember":
      return "ok";
    case "orgAdmin":
      return role === "orgAdmin" ? "ok" : FORBIDDEN;
    case "projectAdmin":
      return role === "orgAdmin" || role === "projectAdmin" ? "ok" : FORBIDDEN;
  }
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
interface Case {
  name: string;
  /** The registered route, as "METHOD /api/path/:param". */
  route: string;
  url: (f: Fixture, role: Role) => string;
  body?: (f: Fixture, role: Role) => unknown;
  /** Request headers besides the session's (a multipart upload's content type). */
  headers?: () => Record<string, string>;
  /**
   * The route's object-level rule (its declaration's `objectRule`), for this case's object: roles the domain
   * refuses although the route lets them in.
   */
  object?: Partial<Record<Role, Answer>>;
  /** When the route lets the caller in, the domain's own answer to this request (default: any 2xx). */
  reached?: { status: number; code: string };
}

const O = (f: Fixture) => `/api/orgs/${f.orgId}`;
const DAYS_AGO = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const MONTHS_AGO = (n: number) => {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - n);
  return d.toISOString().slice(0, 7);
};
const P = (f: Fixture) => `${O(f)}/projects/${f.projectId}`;
/** The account that acts as `role` (for signed-out callers: an account whose credentials they may use). */
const me = (f: Fixture, role: Role) => f.users[role === "signedOut" ? "orgAdmin" : role];
const PASSWORD = "Str0ng!pass";
const NEW_ACCOUNT = () => ({ username: uniqueUsername("mx"), password: PASSWORD, confirmPassword: PASSWORD });
/** project members manage only the keys they created; organization members in no project see no key */
const someoneElsesKey: Partial<Record<Role, Answer>> = { orgMember: NOT_FOUND, projectMember: NOT_FOUND };
const ownKeyOfProjectMember: Partial<Record<Role, Answer>> = { orgMember: NOT_FOUND };
const notTheInvitee: Partial<Record<Role, Answer>> = Object.fromEntries(
  ROLES.filter((r) => r !== "signedOut").map((r) => [r, { status: 403, code: "invitation_phone_mismatch" }]),
);

const PLAYGROUND_STATE = {
  version: 1,
  mode: "chat",
  system: "",
  panels: [{ id: "p1", model: "moonshot-v1-8k", params: DEFAULT_PLAYGROUND_PARAMS, messages: [] }],
  messages: [{ id: "m1", role: "user", content: "hi" }],
  tools: [],
  readOnly: false,
};
/** Playground sessions are private to their author (the organization admin here). */
const someoneElsesSession: Partial<Record<Role, Answer>> = {
  orgMember: NOT_FOUND,
  projectAdmin: NOT_FOUND,
  projectMember: NOT_FOUND,
};
const PG = (f: Fixture) => `${P(f)}/playground`;
const FEEDBACK = multipartBody({ type: "platform_feature", description: "The matrix wants a dark mode." });
const FUNCTION_TOOL = {
  name: "matrix_tool",
  description: "",
  parameters: '{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}',
  exampleInput: '{"q":"x"}',
  code: "function handler(a) { return a.q; }",
};
const UPLOAD = multipartBody({ purpose: "file-extract" }, { name: "matrix.md", data: Buffer.from("# Matrix\n") });
const PROJECT_UPLOAD_BOUNDARY = "----moonportmatrix";
const PROJECT_UPLOAD_TYPE = `multipart/form-data; boundary=${PROJECT_UPLOAD_BOUNDARY}`;
/** The upload's fields name the fixture's project, so the body is built per fixture with a fixed boundary. */
function projectUpload(f: Fixture) {
  const part = (name: string, value: string) =>
    `--${PROJECT_UPLOAD_BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  return {
    body: Buffer.from(
      part("purpose", "file-extract") +
        part("projectId", f.projectId) +
        `--${PROJECT_UPLOAD_BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="p.md"\r\n\r\n# P\r\n` +
        `--${PROJECT_UPLOAD_BOUNDARY}--\r\n`,
    ),
  };
}

const CASES: Case[] = [
  // Public: accounts, setup, configuration, the invitation preview, the API description.
  { name: "public configuration", route: "GET /api/config", url: () => "/api/config" },
  { name: "API description", route: "GET /api/openapi.json", url: () => "/api/openapi.json" },
  { name: "setup status", route: "GET /api/setup/status", url: () => "/api/setup/status" },
  {
    name: "operator setup with a wrong token",
    route: "POST /api/setup",
    url: () => "/api/setup",
    body: () => ({ token: "not-a-token", ...NEW_ACCOUNT() }),
    reached: { status: 400, code: "setup_token_invalid" },
  },
  {
    name: "send an SMS code",
    route: "POST /api/auth/sms",
    url: () => "/api/auth/sms",
    body: () => ({ purpose: "signup", phone: uniqueLocalPhone().local }),
  },
  { name: "development SMS outbox", route: "GET /api/dev/sms-outbox", url: () => "/api/dev/sms-outbox" },
  {
    // The fixture has an operator already: reaching the seam shows as its 409.
    name: "development setup token",
    route: "POST /api/dev/setup-token",
    url: () => "/api/dev/setup-token",
    reached: { status: 409, code: "conflict" },
  },
  { name: "whether a session exists", route: "GET /api/auth/session", url: () => "/api/auth/session" },
  {
    name: "sign up with a password",
    route: "POST /api/auth/signup/password",
    url: () => "/api/auth/signup/password",
    body: () => NEW_ACCOUNT(),
  },
  {
    name: "sign up by phone without a code sent",
    route: "POST /api/auth/signup/phone",
    url: () => "/api/auth/signup/phone",
    body: () => ({ phone: uniqueLocalPhone().local, code: "000000", ...NEW_ACCOUNT() }),
    reached: { status: 400, code: "sms_code_expired" },
  },
  {
    name: "sign in with a password",
    route: "POST /api/auth/signin",
    url: () => "/api/auth/signin",
    body: (f, role) => ({ username: me(f, role).username, password: PASSWORD }),
  },
  {
    name: "sign in by SMS without a code sent",
    route: "POST /api/auth/signin/sms",
    url: () => "/api/auth/signin/sms",
    body: (f, role) => ({ phone: me(f, role).phone, code: "000000" }),
    reached: { status: 400, code: "sms_code_expired" },
  },
  { name: "sign out", route: "POST /api/auth/signout", url: () => "/api/auth/signout", body: () => ({}) },
  {
    name: "read an invitation by its link",
    route: "GET /api/invitations/:token",
    url: (f) => `/api/invitations/${f.invitationToken}`,
  },

  // Any signed-in user: their own account.
  { name: "read my account", route: "GET /api/me", url: () => "/api/me" },
  {
    name: "switch my current organization",
    route: "PUT /api/me/current-org",
    url: () => "/api/me/current-org",
    body: (f, role) => ({ orgId: me(f, role).orgId }),
  },
  { name: "list my sessions", route: "GET /api/me/sessions", url: () => "/api/me/sessions" },
  {
    name: "revoke my session",
    route: "DELETE /api/me/sessions/:id",
    url: (f, role) => `/api/me/sessions/${me(f, role).sessionId}`,
  },
  {
    name: "change my username",
    route: "PUT /api/me/username",
    url: () => "/api/me/username",
    body: () => ({ username: uniqueUsername("mx") }),
  },
  {
    name: "change my password",
    route: "PUT /api/me/password",
    url: () => "/api/me/password",
    body: () => ({ currentPassword: PASSWORD, newPassword: "An0ther!pass", confirmPassword: "An0ther!pass" }),
  },
  {
    name: "rebind my phone without codes sent",
    route: "PUT /api/me/phone",
    url: () => "/api/me/phone",
    body: () => ({ oldCode: "000000", newPhone: uniqueLocalPhone().local, newCode: "000000" }),
    reached: { status: 400, code: "sms_code_expired" },
  },
  {
    name: "create an additional organization",
    route: "POST /api/orgs",
    url: () => "/api/orgs",
    body: () => ({ name: "Side org" }),
  },
  {
    name: "accept someone else's invitation",
    route: "POST /api/invitations/:token/accept",
    url: (f) => `/api/invitations/${f.invitationToken}/accept`,
    body: () => ({}),
    object: notTheInvitee,
  },
  {
    name: "decline someone else's invitation",
    route: "POST /api/invitations/:token/decline",
    url: (f) => `/api/invitations/${f.invitationToken}/decline`,
    body: () => ({}),
    object: notTheInvitee,
  },

  // The organization.
  { name: "read organization", route: "GET /api/orgs/:orgId", url: O },
  {
    name: "rename organization",
    route: "PATCH /api/orgs/:orgId",
    url: O,
    body: () => ({ name: "Renamed" }),
  },
  { name: "organization overview", route: "GET /api/orgs/:orgId/overview", url: (f) => `${O(f)}/overview` },
  { name: "usage limits", route: "GET /api/orgs/:orgId/limits", url: (f) => `${O(f)}/limits` },
  {
    name: "consumption",
    route: "GET /api/orgs/:orgId/consumption",
    url: (f) => `${O(f)}/consumption?granularity=month&period=2026-11`,
  },
  // Billing details, exports and alerts: organization admins only.
  {
    name: "daily bills",
    route: "GET /api/orgs/:orgId/bills/daily",
    url: (f) => `${O(f)}/bills/daily?from=${DAYS_AGO(3)}&to=${DAYS_AGO(0)}`,
  },
  {
    name: "product bills",
    route: "GET /api/orgs/:orgId/bills/products",
    url: (f) => `${O(f)}/bills/products?from=${DAYS_AGO(3)}&to=${DAYS_AGO(0)}`,
  },
  {
    name: "request details",
    route: "GET /api/orgs/:orgId/bills/requests",
    url: (f) => `${O(f)}/bills/requests?from=${DAYS_AGO(3)}&to=${DAYS_AGO(0)}`,
  },
  { name: "list bill exports", route: "GET /api/orgs/:orgId/bill-exports", url: (f) => `${O(f)}/bill-exports` },
  {
    name: "create a bill export",
    route: "POST /api/orgs/:orgId/bill-exports",
    url: (f) => `${O(f)}/bill-exports`,
    // Two months back is always past its 5th-of-the-next-month 07:00.
    body: () => ({ month: MONTHS_AGO(2), format: "csv" }),
  },
  {
    name: "download a bill export that does not exist",
    route: "GET /api/orgs/:orgId/bill-exports/:exportId/download",
    url: (f) => `${O(f)}/bill-exports/exp_missing/download`,
    reached: { status: 404, code: "not_found" },
  },
  { name: "read alert settings", route: "GET /api/orgs/:orgId/alerts", url: (f) => `${O(f)}/alerts` },
  {
    name: "save alert settings",
    route: "PUT /api/orgs/:orgId/alerts",
    url: (f) => `${O(f)}/alerts`,
    body: () => ({ balanceEnabled: true, balanceThreshold: 10, recipients: ["ops@example.test"] }),
  },
  // Organization verification: organization admins only. The reached answers leave the fixture unverified.
  { name: "read verification", route: "GET /api/orgs/:orgId/verification", url: (f) => `${O(f)}/verification` },
  {
    name: "apply for personal verification",
    route: "POST /api/orgs/:orgId/verification/personal",
    url: (f) => `${O(f)}/verification/personal`,
    body: () => ({ realName: "Test", idNumber: "110105194912310020" }),
    reached: { status: 400, code: "validation_failed" },
  },
  {
    name: "apply for company verification",
    route: "POST /api/orgs/:orgId/verification/company",
    url: (f) => `${O(f)}/verification/company`,
    body: () => ({
      companyName: "Acme",
      creditCode: "91350100M000100Y43",
      bankAccountName: "Acme",
      bankName: "Bank",
      bankAccountNumber: "123456",
    }),
    reached: { status: 409, code: "verification_needs_personal" },
  },
  {
    name: "cancel a company change",
    route: "POST /api/orgs/:orgId/verification/cancel",
    url: (f) => `${O(f)}/verification/cancel`,
    reached: { status: 409, code: "verification_cancel_failed" },
  },
  // Refunds: organization admins ask and cancel. The reached answers change nothing (the fixture paid nothing).
  { name: "list refunds", route: "GET /api/orgs/:orgId/refunds", url: (f) => `${O(f)}/refunds?page=1` },
  { name: "refund options", route: "GET /api/orgs/:orgId/refunds/options", url: (f) => `${O(f)}/refunds/options` },
  {
    name: "request a refund",
    route: "POST /api/orgs/:orgId/refunds",
    url: (f) => `${O(f)}/refunds`,
    body: () => ({ items: [{ paymentId: "pay_missing", amount: "1" }], email: "ops@example.test" }),
    reached: { status: 409, code: "refund_not_refundable" },
  },
  {
    name: "cancel a refund",
    route: "POST /api/orgs/:orgId/refunds/:refundId/cancel",
    url: (f) => `${O(f)}/refunds/rfd_missing/cancel`,
    reached: { status: 404, code: "not_found" },
  },
  {
    name: "algorithm-filing letter (needs a verified company and ¥100 recharged)",
    route: "GET /api/orgs/:orgId/verification/filing-letter.pdf",
    url: (f) => `${O(f)}/verification/filing-letter.pdf`,
    reached: { status: 403, code: "filing_not_allowed" },
  },
  // Invoices: organization admins only (the organization's payments and bank details). The fixture organization
  // is cn and unverified, so an application is refused by the identity gate and nothing changes.
  {
    name: "invoice overview",
    route: "GET /api/orgs/:orgId/invoices/overview",
    url: (f) => `${O(f)}/invoices/overview`,
  },
  { name: "list invoices", route: "GET /api/orgs/:orgId/invoices", url: (f) => `${O(f)}/invoices` },
  {
    name: "apply for an invoice",
    route: "POST /api/orgs/:orgId/invoices",
    url: (f) => `${O(f)}/invoices`,
    body: () => ({
      titleId: "ivt_missing",
      invoiceType: "general",
      email: "a@example.test",
      items: [{ paymentId: "pay_missing", amount: "1" }],
    }),
    reached: { status: 403, code: "invoice_needs_verification" },
  },
  // Tax invoices are the global edition's application: the cn fixture answers 404.
  {
    name: "request a tax invoice",
    route: "POST /api/orgs/:orgId/tax-invoices",
    url: (f) => `${O(f)}/tax-invoices`,
    body: () => ({ email: "a@example.test", items: [{ paymentId: "pay_missing", amount: "1" }] }),
    reached: { status: 404, code: "not_found" },
  },
  ...(
    [
      ["withdraw an invoice application", "POST", "withdraw", undefined],
      ["download an invoice's or its voiding document's PDF", "GET", ":document", undefined],
      ["start a red-letter voiding", "POST", "red-letter", { reason: "matrix" }],
      ["answer or withdraw a red-letter voiding", "POST", "red-letter/:action", undefined],
    ] as const
  ).map(([name, method, path, body]) => ({
    name,
    route: `${method} /api/orgs/:orgId/invoices/:invoiceId/${path}`,
    url: (f: Fixture) =>
      `${O(f)}/invoices/inv_missing/${path.replace(":action", "confirm").replace(":document", "pdf")}`,
    body: body === undefined ? undefined : () => body,
    reached: { status: 404, code: "not_found" },
  })),
  { name: "list invoice titles", route: "GET /api/orgs/:orgId/invoice-titles", url: (f) => `${O(f)}/invoice-titles` },
  {
    name: "save an invoice title",
    route: "POST /api/orgs/:orgId/invoice-titles",
    url: (f) => `${O(f)}/invoice-titles`,
    body: () => ({ titleType: "personal", title: "Matrix" }),
  },
  {
    name: "mark an invoice title invalid",
    route: "POST /api/orgs/:orgId/invoice-titles/:titleId/invalidate",
    url: (f) => `${O(f)}/invoice-titles/ivt_missing/invalidate`,
    reached: { status: 404, code: "not_found" },
  },
  // International invoice info and order invoices exist on the global edition only: cn answers 404.
  {
    name: "read international invoice info",
    route: "GET /api/orgs/:orgId/invoice-info",
    url: (f) => `${O(f)}/invoice-info`,
    reached: { status: 404, code: "not_found" },
  },
  {
    name: "save international invoice info",
    route: "PUT /api/orgs/:orgId/invoice-info",
    url: (f) => `${O(f)}/invoice-info`,
    body: () => ({
      name: "M",
      email: "m@example.test",
      street: "1 St",
      city: "C",
      postal_code: "1",
      country_code: "US",
    }),
    reached: { status: 404, code: "not_found" },
  },
  {
    name: "list order invoices",
    route: "GET /api/orgs/:orgId/order-invoices",
    url: (f) => `${O(f)}/order-invoices`,
    reached: { status: 404, code: "not_found" },
  },
  {
    name: "download an order invoice",
    route: "GET /api/orgs/:orgId/order-invoices/:paymentId/pdf",
    url: (f) => `${O(f)}/order-invoices/pay_missing/pdf`,
    reached: { status: 404, code: "not_found" },
  },
  {
    name: "download a card order's credit note",
    route: "GET /api/orgs/:orgId/order-invoices/:paymentId/credit-notes/:creditNo/pdf",
    url: (f) => `${O(f)}/order-invoices/pay_missing/credit-notes/CN-missing/pdf`,
    reached: { status: 404, code: "not_found" },
  },
  {
    name: "seed development bills in a past month",
    route: "POST /api/dev/orgs/:orgId/bills/seed-month",
    url: (f) => `/api/dev/orgs/${f.orgId}/bills/seed-month`,
    body: () => ({ month: MONTHS_AGO(2) }),
  },
  { name: "development mail outbox", route: "GET /api/dev/mail-outbox", url: () => "/api/dev/mail-outbox" },
  {
    name: "grant development balance",
    route: "POST /api/dev/orgs/:orgId/grant",
    url: (f) => `/api/dev/orgs/${f.orgId}/grant`,
    body: () => ({ amount: "1" }),
  },
  {
    name: "development voucher code",
    route: "POST /api/dev/orgs/:orgId/voucher-code",
    url: (f) => `/api/dev/orgs/${f.orgId}/voucher-code`,
    body: () => ({ amount: "1" }),
  },

  // Members and invitations.
  { name: "list members", route: "GET /api/orgs/:orgId/members", url: (f) => `${O(f)}/members` },
  {
    name: "invite a member",
    route: "POST /api/orgs/:orgId/invitations",
    url: (f) => `${O(f)}/invitations`,
    body: () => ({ phone: "13800002222", nickname: "newbie", role: "member" }),
  },
  {
    name: "revoke an invitation",
    route: "DELETE /api/orgs/:orgId/invitations/:invitationId",
    url: (f) => `${O(f)}/invitations/${f.invitationId}`,
  },
  {
    name: "resend an invitation",
    route: "POST /api/orgs/:orgId/invitations/:invitationId/resend",
    url: (f) => `${O(f)}/invitations/${f.invitationId}/resend`,
  },
  {
    name: "edit a member",
    route: "PATCH /api/orgs/:orgId/members/:userId",
    url: (f) => `${O(f)}/members/${f.target.userId}`,
    body: () => ({ nickname: "edited", role: "admin" }),
  },
  {
    name: "remove a member",
    route: "DELETE /api/orgs/:orgId/members/:userId",
    url: (f) => `${O(f)}/members/${f.target.userId}`,
  },

  // Projects.
  { name: "list projects", route: "GET /api/orgs/:orgId/projects", url: (f) => `${O(f)}/projects` },
  {
    name: "create a project",
    route: "POST /api/orgs/:orgId/projects",
    url: (f) => `${O(f)}/projects`,
    body: () => ({ name: "another" }),
  },
  { name: "project overview", route: "GET /api/orgs/:orgId/projects/:projectId", url: P },
  {
    name: "project settings",
    route: "PATCH /api/orgs/:orgId/projects/:projectId",
    url: P,
    body: () => ({ description: "changed", monthlyBudget: 100 }),
  },
  {
    name: "archive a project",
    route: "POST /api/orgs/:orgId/projects/:projectId/archive",
    url: (f) => `${P(f)}/archive`,
    body: () => ({ confirmName: "matrix" }),
  },
  {
    name: "list project members",
    route: "GET /api/orgs/:orgId/projects/:projectId/members",
    url: (f) => `${P(f)}/members`,
  },
  {
    name: "list project member candidates",
    route: "GET /api/orgs/:orgId/projects/:projectId/member-candidates",
    url: (f) => `${P(f)}/member-candidates`,
  },
  {
    name: "add a project member",
    route: "POST /api/orgs/:orgId/projects/:projectId/members",
    url: (f) => `${P(f)}/members`,
    body: (f) => ({ userId: f.target.userId, role: "member" }),
  },
  {
    name: "change a project member's role",
    route: "PATCH /api/orgs/:orgId/projects/:projectId/members/:userId",
    url: (f) => `${P(f)}/members/${f.users.projectMember.userId}`,
    body: () => ({ role: "admin" }),
  },
  {
    name: "remove a project member",
    route: "DELETE /api/orgs/:orgId/projects/:projectId/members/:userId",
    url: (f) => `${P(f)}/members/${f.users.projectMember.userId}`,
  },
  {
    name: "project billing",
    route: "GET /api/orgs/:orgId/projects/:projectId/billing",
    url: (f) => `${P(f)}/billing?month=2026-11`,
  },

  // Playground (sessions are private to their author; runs meet the gateway's limits and bills).
  {
    name: "playground run in an organization without balance",
    route: "POST /api/orgs/:orgId/projects/:projectId/playground/chat",
    url: (f) => `${PG(f)}/chat`,
    body: () => ({
      model: "moonshot-v1-8k",
      messages: [{ role: "user", content: "hi" }],
      stop: ["1"],
    }),
    reached: { status: 429, code: "playground_insufficient_balance" },
  },
  {
    name: "playground run bill of an unknown request",
    route: "GET /api/orgs/:orgId/projects/:projectId/playground/bills/:requestId",
    url: (f) => `${PG(f)}/bills/req_unknown`,
    reached: { status: 404, code: "not_found" },
  },
  {
    name: "list playground sessions",
    route: "GET /api/orgs/:orgId/projects/:projectId/playground/sessions",
    url: (f) => `${PG(f)}/sessions`,
  },
  {
    name: "save a playground session",
    route: "POST /api/orgs/:orgId/projects/:projectId/playground/sessions",
    url: (f) => `${PG(f)}/sessions`,
    body: () => ({ title: "mine", state: PLAYGROUND_STATE }),
  },
  {
    name: "read someone's playground session",
    route: "GET /api/orgs/:orgId/projects/:projectId/playground/sessions/:sessionId",
    url: (f) => `${PG(f)}/sessions/${f.sessionId}`,
    object: someoneElsesSession,
  },
  {
    name: "rename someone's playground session",
    route: "PATCH /api/orgs/:orgId/projects/:projectId/playground/sessions/:sessionId",
    url: (f) => `${PG(f)}/sessions/${f.sessionId}`,
    body: () => ({ title: "renamed" }),
    object: someoneElsesSession,
  },
  {
    name: "delete someone's playground session",
    route: "DELETE /api/orgs/:orgId/projects/:projectId/playground/sessions/:sessionId",
    url: (f) => `${PG(f)}/sessions/${f.sessionId}`,
    object: someoneElsesSession,
  },

  // Riddles (progress, attempts and rewards are the caller's own; the project pays beyond the free quota).
  { name: "riddle board", route: "GET /api/orgs/:orgId/riddles", url: (f) => `${O(f)}/riddles` },
  {
    name: "riddle attempts",
    route: "GET /api/orgs/:orgId/riddles/:riddleId/attempts",
    url: (f) => `${O(f)}/riddles/first-word/attempts`,
  },
  {
    name: "claim an unsolved riddle's reward",
    route: "POST /api/orgs/:orgId/riddles/:riddleId/claim",
    url: (f) => `${O(f)}/riddles/first-word/claim`,
    reached: { status: 409, code: "riddle_not_solved" },
  },
  {
    name: "submit a riddle prompt that breaks its length rule",
    route: "POST /api/orgs/:orgId/projects/:projectId/riddles/:riddleId/attempts",
    url: (f) => `${P(f)}/riddles/first-word/attempts`,
    body: () => ({ prompt: "Hello! ".repeat(10) }),
    reached: { status: 400, code: "riddle_prompt_rejected" },
  },
  // Custom function tools (private to their author, like sessions).
  {
    name: "list function tools",
    route: "GET /api/orgs/:orgId/projects/:projectId/playground/function-tools",
    url: (f) => `${PG(f)}/function-tools`,
  },
  {
    name: "save a function tool",
    route: "POST /api/orgs/:orgId/projects/:projectId/playground/function-tools",
    url: (f) => `${PG(f)}/function-tools`,
    // Each caller saves its own tool under a fresh name (names are unique per author and project).
    body: () => ({ ...FUNCTION_TOOL, name: `t_${newId("n")}` }),
  },
  {
    name: "test-run a function tool",
    route: "POST /api/orgs/:orgId/projects/:projectId/playground/function-tools/test-run",
    url: (f) => `${PG(f)}/function-tools/test-run`,
    body: () => FUNCTION_TOOL,
  },
  {
    name: "edit someone's function tool",
    route: "PATCH /api/orgs/:orgId/projects/:projectId/playground/function-tools/:toolId",
    url: (f) => `${PG(f)}/function-tools/${f.functionToolId}`,
    body: () => ({ description: "changed" }),
    object: someoneElsesSession,
  },
  {
    name: "delete someone's function tool",
    route: "DELETE /api/orgs/:orgId/projects/:projectId/playground/function-tools/:toolId",
    url: (f) => `${PG(f)}/function-tools/${f.functionToolId}`,
    object: someoneElsesSession,
  },

  // MCP servers (private to their author). Syncs reach no server: the URL is refused by the SSRF guard.
  {
    name: "list MCP servers",
    route: "GET /api/orgs/:orgId/projects/:projectId/playground/mcp-servers",
    url: (f) => `${PG(f)}/mcp-servers`,
  },
  {
    name: "add an MCP server",
    route: "POST /api/orgs/:orgId/projects/:projectId/playground/mcp-servers",
    url: (f) => `${PG(f)}/mcp-servers`,
    body: () => ({ name: "mine", url: "http://127.0.0.1:9/mcp", authType: "bearer", token: "t" }),
  },
  {
    name: "edit someone's MCP server",
    route: "PATCH /api/orgs/:orgId/projects/:projectId/playground/mcp-servers/:serverId",
    url: (f) => `${PG(f)}/mcp-servers/${f.mcpServerId}`,
    body: () => ({ description: "changed" }),
    object: someoneElsesSession,
  },
  {
    name: "sync someone's MCP server",
    route: "POST /api/orgs/:orgId/projects/:projectId/playground/mcp-servers/:serverId/sync",
    url: (f) => `${PG(f)}/mcp-servers/${f.mcpServerId}/sync`,
    body: () => ({}),
    object: someoneElsesSession,
    reached: { status: 502, code: "mcp_sync_network_error" },
  },
  {
    name: "delete someone's MCP server",
    route: "DELETE /api/orgs/:orgId/projects/:projectId/playground/mcp-servers/:serverId",
    url: (f) => `${PG(f)}/mcp-servers/${f.mcpServerId}`,
    object: someoneElsesSession,
  },

  {
    name: "list the official tools of the picker",
    route: "GET /api/orgs/:orgId/projects/:projectId/playground/official-tools",
    url: (f) => `${PG(f)}/official-tools`,
  },
  {
    name: "run someone's function tool in the playground loop",
    route: "POST /api/orgs/:orgId/projects/:projectId/playground/tool-calls",
    url: (f) => `${PG(f)}/tool-calls`,
    body: (f) => ({ kind: "function", target: f.functionToolId, name: "matrix_tool", arguments: '{"q":"x"}' }),
    object: someoneElsesSession,
  },

  // API keys.
  { name: "list API keys", route: "GET /api/orgs/:orgId/api-keys", url: (f) => `${O(f)}/api-keys` },
  {
    name: "create an API key",
    route: "POST /api/orgs/:orgId/api-keys",
    url: (f) => `${O(f)}/api-keys`,
    body: (f) => ({ name: "fresh", projectId: f.projectId }),
  },
  {
    name: "rename another user's API key",
    route: "PATCH /api/orgs/:orgId/api-keys/:keyId",
    url: (f) => `${O(f)}/api-keys/${f.adminKeyId}`,
    body: () => ({ name: "renamed" }),
    object: someoneElsesKey,
  },
  {
    name: "disable another user's API key",
    route: "PATCH /api/orgs/:orgId/api-keys/:keyId",
    url: (f) => `${O(f)}/api-keys/${f.adminKeyId}`,
    body: () => ({ status: "disabled" }),
    object: someoneElsesKey,
  },
  {
    name: "delete another user's API key",
    route: "DELETE /api/orgs/:orgId/api-keys/:keyId",
    url: (f) => `${O(f)}/api-keys/${f.adminKeyId}`,
    object: someoneElsesKey,
  },
  {
    name: "rename a project member's own API key",
    route: "PATCH /api/orgs/:orgId/api-keys/:keyId",
    url: (f) => `${O(f)}/api-keys/${f.memberKeyId}`,
    body: () => ({ name: "mine" }),
    object: ownKeyOfProjectMember,
  },
  {
    name: "delete a project member's own API key",
    route: "DELETE /api/orgs/:orgId/api-keys/:keyId",
    url: (f) => `${O(f)}/api-keys/${f.memberKeyId}`,
    object: ownKeyOfProjectMember,
  },

  // Billing: recharge, cards, vouchers, account overview (organization admins only).
  { name: "billing overview", route: "GET /api/orgs/:orgId/billing/overview", url: (f) => `${O(f)}/billing/overview` },
  { name: "recharge options", route: "GET /api/orgs/:orgId/recharge/options", url: (f) => `${O(f)}/recharge/options` },
  { name: "list payments", route: "GET /api/orgs/:orgId/payments", url: (f) => `${O(f)}/payments?status=waiting` },
  {
    name: "create a payment",
    route: "POST /api/orgs/:orgId/payments",
    url: (f) => `${O(f)}/payments`,
    body: () => ({ amount: "10", payType: "alipay", agreement: true }),
  },
  {
    name: "view a payment",
    route: "GET /api/orgs/:orgId/payments/:paymentId",
    url: (f) => `${O(f)}/payments/pay_missing`,
    reached: { status: 404, code: "not_found" },
  },
  {
    name: "cancel a payment",
    route: "POST /api/orgs/:orgId/payments/:paymentId/cancel",
    url: (f) => `${O(f)}/payments/pay_missing/cancel`,
    reached: { status: 404, code: "not_found" },
  },
  {
    name: "continue a payment",
    route: "POST /api/orgs/:orgId/payments/:paymentId/continue",
    url: (f) => `${O(f)}/payments/pay_missing/continue`,
    reached: { status: 404, code: "not_found" },
  },
  { name: "list cards", route: "GET /api/orgs/:orgId/cards", url: (f) => `${O(f)}/cards` },
  {
    name: "bind a card",
    route: "POST /api/orgs/:orgId/cards",
    url: (f) => `${O(f)}/cards`,
    body: () => ({
      token: "tok_x.y",
      customer: {
        email: "a@b.co",
        firstName: "A",
        lastName: "B",
        phone: "+1 555 0100",
        street: "1 Main",
        city: "SF",
        state: "CA",
        postcode: "94000",
        countryCode: "US",
      },
    }),
    // The fixture organization is a cn one: cards are a global pay type.
    reached: { status: 400, code: "pay_type_unavailable" },
  },
  {
    name: "delete a card",
    route: "DELETE /api/orgs/:orgId/cards/:cardId",
    url: (f) => `${O(f)}/cards/card_missing`,
    reached: { status: 404, code: "not_found" },
  },
  { name: "list vouchers", route: "GET /api/orgs/:orgId/vouchers", url: (f) => `${O(f)}/vouchers` },
  {
    name: "redeem a voucher code",
    route: "POST /api/orgs/:orgId/vouchers/redeem",
    url: (f) => `${O(f)}/vouchers/redeem`,
    body: () => ({ code: "NO-SUCH-CODE" }),
    reached: { status: 404, code: "voucher_code_invalid" },
  },
  // Files: members list, read and upload (for a project only when they belong to it); the uploader or an
  // organization admin deletes.
  { name: "list context caches", route: "GET /api/orgs/:orgId/context-caches", url: (f) => `${O(f)}/context-caches` },
  // Contact sales is public (limited per IP address); feedback is for every organization member, and the list
  // shows members their own and admins everyone's.
  {
    name: "contact sales",
    route: "POST /api/contact-sales",
    url: () => "/api/contact-sales",
    body: () => ({
      topic: "pricing",
      name: "Matrix",
      phone: "+8613800000000",
      email: "matrix@example.test",
      company: "Matrix Ltd",
      industry: "internet",
      stage: "testing",
      enterpriseCertified: false,
      background: "b",
      problem: "p",
    }),
  },
  {
    name: "send feedback",
    route: "POST /api/orgs/:orgId/feedback",
    url: (f) => `${O(f)}/feedback`,
    body: () => FEEDBACK.body,
    headers: () => ({ "content-type": FEEDBACK.contentType }),
  },
  { name: "list feedback", route: "GET /api/orgs/:orgId/feedback", url: (f) => `${O(f)}/feedback` },
  { name: "list files", route: "GET /api/orgs/:orgId/files", url: (f) => `${O(f)}/files?q=matrix` },
  {
    name: "upload a file for no project",
    route: "POST /api/orgs/:orgId/files",
    url: (f) => `${O(f)}/files`,
    body: () => UPLOAD.body,
    headers: () => ({ "content-type": UPLOAD.contentType }),
  },
  {
    name: "upload a file for the project",
    route: "POST /api/orgs/:orgId/files",
    url: (f) => `${O(f)}/files`,
    body: (f) => projectUpload(f).body,
    headers: () => ({ "content-type": PROJECT_UPLOAD_TYPE }),
    object: { orgMember: NOT_FOUND },
  },
  { name: "get a file", route: "GET /api/orgs/:orgId/files/:fileId", url: (f) => `${O(f)}/files/${f.adminFileId}` },
  {
    name: "read a file's text",
    route: "GET /api/orgs/:orgId/files/:fileId/content",
    url: (f) => `${O(f)}/files/${f.memberFileId}/content`,
  },
  {
    name: "delete another user's file",
    route: "DELETE /api/orgs/:orgId/files/:fileId",
    url: (f) => `${O(f)}/files/${f.adminFileId}`,
    object: { orgMember: FORBIDDEN, projectAdmin: FORBIDDEN, projectMember: FORBIDDEN },
  },
  {
    name: "delete a project member's own file",
    route: "DELETE /api/orgs/:orgId/files/:fileId",
    url: (f) => `${O(f)}/files/${f.memberFileId}`,
    object: { orgMember: FORBIDDEN, projectAdmin: FORBIDDEN },
  },

  // The back office.
  {
    name: "confirm a payment received (back office)",
    route: "POST /api/admin/payments/:paymentId/confirm",
    url: () => "/api/admin/payments/pay_missing/confirm",
    reached: { status: 404, code: "not_found" },
  },
  { name: "refund queue (back office)", route: "GET /api/admin/refunds", url: () => "/api/admin/refunds" },
  ...(["approve", "retry"] as const).map((action) => ({
    name: `${action} a refund (back office)`,
    route: `POST /api/admin/refunds/:refundId/${action}`,
    url: () => `/api/admin/refunds/rfd_missing/${action}`,
    reached: { status: 404, code: "not_found" },
  })),
  {
    name: "reject a refund (back office)",
    route: "POST /api/admin/refunds/:refundId/reject",
    url: () => "/api/admin/refunds/rfd_missing/reject",
    body: () => ({ reason: "no" }),
    reached: { status: 404, code: "not_found" },
  },
  {
    name: "mark a refund paid back by hand (back office)",
    route: "POST /api/admin/refunds/:refundId/complete",
    url: () => "/api/admin/refunds/rfd_missing/complete",
    body: () => ({ reference: "BANK-1" }),
    reached: { status: 404, code: "not_found" },
  },
  {
    name: "list organizations (back office)",
    route: "GET /api/admin/organizations",
    url: () => "/api/admin/organizations?q=&page=1",
  },
  // The rest of the back office: operator only, everyone else the answer of a missing route. Writes aim at
  // missing objects, so reaching the handler shows as its 404 and nothing changes.
  { name: "back-office dashboard", route: "GET /api/admin/dashboard", url: () => "/api/admin/dashboard?days=7" },
  {
    name: "catalog and upstream health (back office)",
    route: "GET /api/admin/catalog",
    url: () => "/api/admin/catalog",
  },
  {
    name: "an organization (back office)",
    route: "GET /api/admin/organizations/:orgId",
    url: (f) => `/api/admin/organizations/${f.orgId}`,
  },
  ...(
    [
      ["grant credit", "POST", "grant", { amount: "1", note: "matrix" }],
      ["set limits", "PUT", "limits", { tierOverride: null, rateLimitOverride: null }],
      ["suspend", "POST", "suspend", { reason: "matrix" }],
      ["resume", "POST", "resume", undefined],
    ] as const
  ).map(([name, method, path, body]) => ({
    name: `${name} (back office)`,
    route: `${method} /api/admin/organizations/:orgId/${path}`,
    url: () => `/api/admin/organizations/org_missing/${path}`,
    body: body === undefined ? undefined : () => body,
    reached: { status: 404, code: "not_found" },
  })),
  { name: "list users (back office)", route: "GET /api/admin/users", url: () => "/api/admin/users?q=u_" },
  {
    name: "a user (back office)",
    route: "GET /api/admin/users/:userId",
    url: () => "/api/admin/users/usr_missing",
    reached: { status: 404, code: "not_found" },
  },
  ...(["disable", "enable", "revoke-sessions"] as const).map((path) => ({
    name: `${path} a user (back office)`,
    route: `POST /api/admin/users/:userId/${path}`,
    url: () => `/api/admin/users/usr_missing/${path}`,
    reached: { status: 404, code: "not_found" },
  })),
  { name: "pending transfers (back office)", route: "GET /api/admin/transfers", url: () => "/api/admin/transfers" },
  {
    name: "verification applications (back office)",
    route: "GET /api/admin/verifications",
    url: () => "/api/admin/verifications",
  },
  {
    name: "approve a verification (back office)",
    route: "POST /api/admin/verifications/:applicationId/approve",
    url: () => "/api/admin/verifications/ver_missing/approve",
    reached: { status: 404, code: "not_found" },
  },
  {
    name: "reject a verification (back office)",
    route: "POST /api/admin/verifications/:applicationId/reject",
    url: () => "/api/admin/verifications/ver_missing/reject",
    body: () => ({ reason: "blurry scan" }),
    reached: { status: 404, code: "not_found" },
  },
  {
    name: "invoice queue (back office)",
    route: "GET /api/admin/invoices",
    url: () => "/api/admin/invoices?queue=waiting",
  },
  {
    name: "import an invoice issued outside the platform (back office)",
    route: "POST /api/admin/invoices/import",
    url: () => "/api/admin/invoices/import",
    body: () => ({
      orgId: "org_missing",
      invoiceNo: "03110000000000000000",
      title: "matrix",
      issuedOn: "2026-01-15",
      items: [{ paymentId: "pay_missing", amount: "1" }],
    }),
    reached: { status: 404, code: "not_found" },
  },
  ...(
    [
      ["download an invoice's or its voiding document's PDF", "GET", ":document", undefined],
      ["issue an invoice", "POST", "issue", { invoiceNo: "26110000000000000000" }],
      ["fail an invoice", "POST", "fail", { reason: "matrix" }],
      ["start a red-letter voiding", "POST", "red-letter", { reason: "matrix" }],
      ["issue the red-letter invoice", "POST", "red-letter/complete", { invoiceNo: "R26110000000000000" }],
      ["answer or withdraw a red-letter voiding", "POST", "red-letter/:action", undefined],
    ] as const
  ).map(([name, method, path, body]) => ({
    name: `${name} (back office)`,
    route: `${method} /api/admin/invoices/:invoiceId/${path}`,
    url: () => `/api/admin/invoices/inv_missing/${path.replace(":action", "deny").replace(":document", "void-pdf")}`,
    body: body === undefined ? undefined : () => body,
    reached: { status: 404, code: "not_found" },
  })),
  { name: "sales leads (back office)", route: "GET /api/admin/leads", url: () => "/api/admin/leads?status=new" },
  { name: "all feedback (back office)", route: "GET /api/admin/feedback", url: () => "/api/admin/feedback" },
  {
    name: "a feedback image (back office)",
    route: "GET /api/admin/feedback/:id/images/:n",
    url: () => "/api/admin/feedback/fb_missing/images/1",
    reached: { status: 404, code: "not_found" },
  },
  {
    name: "set a ticket's status (back office)",
    route: "PUT /api/admin/:kind/:id/status",
    url: () => "/api/admin/leads/lead_missing/status",
    body: () => ({ status: "resolved" }),
    reached: { status: 404, code: "not_found" },
  },
  {
    name: "reply to a ticket (back office)",
    route: "POST /api/admin/:kind/:id/reply",
    url: () => "/api/admin/feedback/fb_missing/reply",
    body: () => ({ message: "Thanks" }),
    reached: { status: 404, code: "not_found" },
  },
  { name: "code batches (back office)", route: "GET /api/admin/code-batches", url: () => "/api/admin/code-batches" },
  {
    name: "generate a code batch (back office)",
    route: "POST /api/admin/code-batches",
    url: () => "/api/admin/code-batches",
    body: () => ({
      edition: "cn",
      count: 0,
      amount: "1",
      voucherType: "other",
      voucherDays: 30,
      validDays: 30,
      minTier: null,
    }),
    reached: { status: 400, code: "validation_failed" },
  },
  {
    name: "revoke a code batch (back office)",
    route: "POST /api/admin/code-batches/:batchId/revoke",
    url: () => "/api/admin/code-batches/batch_missing/revoke",
    reached: { status: 404, code: "not_found" },
  },
  { name: "audit log (back office)", route: "GET /api/admin/audit", url: () => "/api/admin/audit?q=org" },
  { name: "riddles (back office)", route: "GET /api/admin/riddles", url: () => "/api/admin/riddles" },
  {
    name: "a riddle's definition (back office)",
    route: "GET /api/admin/riddles/:riddleId",
    url: () => "/api/admin/riddles/no-such-riddle",
    reached: { status: 404, code: "not_found" },
  },
  {
    name: "add a riddle (back office)",
    route: "POST /api/admin/riddles",
    url: () => "/api/admin/riddles",
    body: () => ({ definition: { id: "x" } }),
    reached: { status: 400, code: "validation_failed" },
  },
  {
    name: "edit a riddle (back office)",
    route: "PUT /api/admin/riddles/:riddleId",
    url: () => "/api/admin/riddles/no-such-riddle",
    body: () => ({ definition: {} }),
    reached: { status: 404, code: "not_found" },
  },
  ...(["move", "retire", "restore"] as const).map((path) => ({
    name: `${path} a riddle (back office)`,
    route: `POST /api/admin/riddles/:riddleId/${path}`,
    url: () => `/api/admin/riddles/no-such-riddle/${path}`,
    body: path === "move" ? () => ({ position: 1 }) : undefined,
    reached: { status: 404, code: "not_found" },
  })),
];

function declaration(c: Case): DeclaredRoute {
  const decl = t.app.declaredRoutes.find((r) => `${r.method} ${r.url}` === c.route);
  if (!decl) throw new Error(`${c.name}: no registered route ${c.route}`);
  return decl;
}

function label(a: Answer): string {
  return a === "ok" ? "allowed" : `refused with ${a.status} ${a.code}`;
}

describe("console permission matrix", () => {
  for (const c of CASES) {
    const method = c.route.split(" ")[0] as Method;
    for (const role of ROLES) {
      it(`${c.name}: ${role}`, async () => {
        const decl = declaration(c);
        const byRoute = expected(decl, role);
        const want = byRoute === "ok" ? (c.object?.[role] ?? "ok") : byRoute;
        // A write that should succeed changes state: give it its own organization or account.
        const f =
          method === "GET" || want !== "ok"
            ? shared
            : decl.access === "public" || decl.access === "user"
              ? await withFreshAccount(role)
              : await fixture();
        const client = role === "signedOut" ? new TestClient(t.app) : f.users[role].client;
        const res = await client.request(method, c.url(f, role), c.body?.(f, role), c.headers?.());
        const context = `${decl.access} route, ${role} ${label(want)}: ${res.status} ${JSON.stringify(res.body)}`;
        if (want === "ok" && c.reached) {
          expect(res.status, context).toBe(c.reached.status);
          expect(ApiErrorBody.parse(res.body).error.code, context).toBe(c.reached.code);
        } else if (want === "ok") {
          expect(res.status, context).toBeGreaterThanOrEqual(200);
          expect(res.status, context).toBeLessThan(300);
        } else {
          expect(res.status, context).toBe(want.status);
          expect(ApiErrorBody.parse(res.body).error.code, context).toBe(want.code);
        }
      });
    }
  }

  it("has a request for every declared route, and object-level exceptions only where the route declares a rule", () => {
    const routes = t.app.declaredRoutes.filter((r) => r.method !== "HEAD");
    const covered = new Set(CASES.map((c) => c.route));
    expect(routes.map((r) => `${r.method} ${r.url}`).filter((r) => !covered.has(r))).toEqual([]);
    for (const c of CASES) {
      if (c.object) expect(declaration(c).objectRule, `${c.name} has object-level exceptions`).toBeTruthy();
    }
  });

  it("has a declaration for every /api route Fastify registered", () => {
    const declared = new Set(t.app.declaredRoutes.map((r) => `${r.method} ${r.url}`));
    expect(registeredApiRoutes().filter((r) => !declared.has(r))).toEqual([]);
    expect(registeredApiRoutes().length).toBeGreaterThan(40);
  });

  it("refuses to register an /api route without a declaration, and a non-operator route under /api/admin", async () => {
    const bare = Fastify({ logger: false });
    installAccessControl(bare, t.ctx);
    expect(() => bare.get("/api/undeclared", async () => ({}))).toThrow(/declares no access/);
    expect(() => bare.get("/api/admin/x", { config: { access: "user" } }, async () => ({}))).toThrow(/operator/);
    expect(() => bare.get("/api/declared", { config: { access: "public" } }, async () => ({}))).not.toThrow();
    await bare.close();
  });

  it("answers every non-public route with 401 without a session, and operator routes with 404", async () => {
    const anon = new TestClient(t.app);
    for (const c of CASES) {
      const decl = declaration(c);
      if (decl.access === "public") continue;
      const res = await anon.request(
        c.route.split(" ")[0] as Method,
        c.url(shared, "signedOut"),
        c.body?.(shared, "signedOut"),
        c.headers?.(),
      );
      expect(res.status, c.name).toBe(decl.access === "operator" || decl.loopbackOnly ? 404 : 401);
    }
  });

  it("gives an outsider the same answer for an existing object as for a missing one", async () => {
    const f = shared;
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
});

/** "METHOD /full/path" for every /api route, read from Fastify's route tree (independent of the declarations). */
function registeredApiRoutes(): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of t.app.printRoutes({ commonPrefix: false }).split("\n")) {
    const m = /^([│├└─\s]*)(\/\S*) \(([^)]+)\)/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack.push(m[2]!);
    const path = stack.join("");
    if (!path.startsWith("/api/")) continue;
    for (const method of m[3]!.split(", ")) if (method !== "HEAD") out.push(`${method} ${path}`);
  }
  return out;
}
