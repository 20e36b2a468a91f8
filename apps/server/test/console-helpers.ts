/**
 * Console test fixtures. Users sign up through the real endpoint (POST /api/auth/signup/password), which creates
 * the personal organization, its default project and the session; the phone is then bound directly in the
 * database (phone binding is the accounts module's flow and is tested there).
 */
import { MeWithOrgs, usccCheckCharacter } from "@moonport/contracts";
import { newId, randomString, schema } from "@moonport/db";
import { and, eq } from "drizzle-orm";
import pino from "pino";
import { expect } from "vitest";
import type { CliCommand } from "../src/cli/commands.ts";
import { insertBillRows } from "../src/modules/billing/project-spend.ts";
import { decideVerification } from "../src/modules/verification/decide-verification.ts";
import { type TestApp, TestClient } from "./helpers.ts";
import { INVOICE_INFO } from "./support/fixtures.ts";

export interface TestUser {
  client: TestClient;
  userId: string;
  username: string;
  phone: string;
  /** The personal organization created at sign-up. */
  orgId: string;
  defaultProjectId: string;
}

let phoneSeq = 0;
function uniquePhone(): string {
  phoneSeq += 1;
  return `+86139${String(Date.now() % 10_000).padStart(4, "0")}${String(phoneSeq).padStart(4, "0")}`;
}

export async function signUp(
  t: TestApp,
  opts: { username?: string; phone?: string; edition?: "cn" | "global" } = {},
): Promise<TestUser> {
  const username = opts.username ?? `u_${randomString(10, "abcdefghijklmnopqrstuvwxyz")}`;
  const phone = opts.phone ?? uniquePhone();
  const client = new TestClient(t.app);
  // The request's locale decides the edition of the personal organization (zh-CN → cn).
  client.locale = (opts.edition ?? "cn") === "cn" ? "zh-CN" : "en-US";
  const res = await client.post("/api/auth/signup/password", {
    username,
    password: "Str0ng!pass",
    confirmPassword: "Str0ng!pass",
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  client.locale = "en-US";
  const me = MeWithOrgs.parse(res.body);
  const orgId = me.currentOrganizationId!;
  await t.ctx.db.update(schema.users).set({ phone }).where(eq(schema.users.id, me.id));
  const [project] = await t.ctx.db
    .select({ id: schema.projects.id })
    .from(schema.projects)
    .where(and(eq(schema.projects.orgId, orgId), eq(schema.projects.isDefault, true)));
  return { client, userId: me.id, username, phone, orgId, defaultProjectId: project!.id };
}

/** Adds an existing user straight into an organization (fixture shortcut; the invitation flow has its own tests). */
export async function addOrgMember(
  t: TestApp,
  orgId: string,
  user: TestUser,
  role: "admin" | "member",
  nickname = user.username,
) {
  await t.ctx.db.insert(schema.orgMembers).values({ orgId, userId: user.userId, role, nickname });
}

export async function addProjectMember(t: TestApp, projectId: string, user: TestUser, role: "admin" | "member") {
  await t.ctx.db.insert(schema.projectMembers).values({ projectId, userId: user.userId, role });
}

/** A bill row as the gateway writes it: with its amount added to the project's spend of its local day. */
export async function insertBill(
  t: TestApp,
  row: {
    orgId: string;
    projectId: string;
    apiKeyId: string;
    model?: string;
    productType?: string;
    consumption: bigint;
    createdAt?: Date;
    inputTokens?: number;
    outputTokens?: number;
  },
) {
  const createdAt = row.createdAt ?? new Date();
  const [org] = await t.ctx.db
    .select({ edition: schema.organizations.edition })
    .from(schema.organizations)
    .where(eq(schema.organizations.id, row.orgId));
  await insertBillRows(
    t.ctx.db,
    [
      {
        id: newId("bl"),
        requestId: newId("req"),
        orgId: row.orgId,
        projectId: row.projectId,
        apiKeyId: row.apiKeyId,
        model: row.model ?? "moonshot-v1-8k",
        productName: row.model ?? "moonshot-v1-8k",
        productType: row.productType ?? "model_inference",
        inputTokens: row.inputTokens ?? 100,
        outputTokens: row.outputTokens ?? 50,
        consumption: row.consumption,
        cashDeduction: row.consumption,
        status: "ok",
        createdAt,
      },
    ],
    org?.edition,
  );
}

/** Complete international invoice information, which a global organization needs before a card payment (§6). */
export async function saveInvoiceInfo(user: TestUser) {
  const res = await user.client.put(`/api/orgs/${user.orgId}/invoice-info`, INVOICE_INFO);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** A resident ID number with a correct GB 11643 check character (computed, so no real person's). */
export function residentId(first17: string): string {
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  let s = 0;
  for (let i = 0; i < 17; i++) s += Number(first17[i]) * w[i]!;
  return first17 + "10X98765432"[s % 11];
}

/** A company verification application with a valid USCC (GB 32100 check character). */
export const COMPANY_APPLICATION = {
  companyName: "Acme Technology Co., Ltd.",
  creditCode: `91350100M000100Y4${usccCheckCharacter("91350100M000100Y4")}`,
  bankAccountName: "Acme Technology Co., Ltd.",
  bankName: "Bank of Sandbox, Beijing",
  bankAccountNumber: "6222020200112233445",
};

/** Runs an operator CLI command against the test app's database; its exit code and printed lines. */
export async function runCli(t: TestApp, cmd: CliCommand, args: string[]) {
  const lines: string[] = [];
  const code = await cmd.run({
    config: t.ctx.config,
    db: t.ctx.db,
    services: { db: t.ctx.db, keyEvents: t.ctx.keyEvents, log: pino({ level: "silent" }) },
    args,
    print: (l) => lines.push(l),
    readInput: async () => "",
  });
  return { code, out: lines.join("\n") };
}

/** Personal verification of the user's organization (cn: a resident ID with a valid check character). */
export async function verifyPersonally(u: TestUser) {
  const r = await u.client.post(`/api/orgs/${u.orgId}/verification/personal`, {
    realName: "张三",
    idNumber: residentId("11010519491231002"),
  });
  expect(r.body.state).toBe("personal");
}

/** Personal, then company verification approved by `operator` (the organization is a verified company). */
export async function verifyCompany(t: TestApp, u: TestUser, operator: string) {
  await verifyPersonally(u);
  const c = await u.client.post(`/api/orgs/${u.orgId}/verification/company`, COMPANY_APPLICATION);
  await decideVerification({ ctx: t.ctx, applicationId: c.body.applications[0].id, decision: "approve", operator });
}
