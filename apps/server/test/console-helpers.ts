/**
 * Console test fixtures: users with sessions and organizations. Until the auth module's sign-up endpoint is in
 * main, a user is inserted directly and given a real session row (the same hashing the session guard checks),
 * and their personal organization comes from the shared createOrganization seam, as sign-up does.
 */
import { newId, randomString, schema, sha256Hex } from "@moonport/db";
import { eq } from "drizzle-orm";
import { createOrganization } from "../src/modules/orgs/create-organization.ts";
import { type TestApp, TestClient } from "./helpers.ts";

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
export function uniquePhone(): string {
  phoneSeq += 1;
  return `+86139${String(Date.now() % 10_000).padStart(4, "0")}${String(phoneSeq).padStart(4, "0")}`;
}

export async function signUp(
  t: TestApp,
  opts: { username?: string; phone?: string; edition?: "cn" | "global" } = {},
): Promise<TestUser> {
  const db = t.ctx.db;
  const userId = newId("usr");
  const username = opts.username ?? `u_${randomString(8, "abcdefghijklmnopqrstuvwxyz")}`;
  const phone = opts.phone ?? uniquePhone();
  await db.insert(schema.users).values({ id: userId, username, phone });
  const { orgId, projectId } = await createOrganization({
    db,
    name: `${username}'s organization`,
    edition: opts.edition ?? "cn",
    creatorUserId: userId,
    creatorNickname: username,
    personal: true,
  });
  await db.update(schema.users).set({ currentOrgId: orgId }).where(eq(schema.users.id, userId));
  const token = randomString(43);
  const csrf = randomString(43);
  await db.insert(schema.sessions).values({
    id: newId("ses"),
    userId,
    tokenHash: sha256Hex(token),
    csrfHash: sha256Hex(csrf),
    expiresAt: new Date(Date.now() + 3600_000),
  });
  const client = new TestClient(t.app);
  client.cookies.set("mp_session", token);
  client.cookies.set("mp_csrf", csrf);
  return { client, userId, username, phone, orgId, defaultProjectId: projectId };
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

/** A bill row as the gateway writes it. */
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
  await t.ctx.db.insert(schema.requestBills).values({
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
    createdAt: row.createdAt ?? new Date(),
  });
}
