/**
 * The back office (operator only; the permission matrix covers who may call it): the dashboard's figures, grants,
 * limits, suspension as the gateway sees it, disabling users, the queues of leads, feedback and transfers with
 * replies by e-mail over a local SMTP server, redemption code batches, and the audit log with before and after.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../src/modules/keys/create-api-key.ts";
import { insertBill, signUp, type TestUser } from "./console-helpers.ts";
import { createTestApp, type TestApp, TestClient } from "./helpers.ts";
import { readBalance, seedGrant } from "./support/money.ts";
import { startSmtpServer, textPart } from "./support/smtp.ts";

const U = 1_000_000_000n;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestApp;
let operator: TestUser;
let customer: TestUser;

async function drain() {
  while ((await t.ctx.jobs.runDue()) > 0) {
    /* again */
  }
}

async function chat(secret: string) {
  const res = await t.app.inject({
    method: "POST",
    url: "/v1/chat/completions",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    payload: JSON.stringify({ model: "moonshot-v1-8k", messages: [{ role: "user", content: "hi" }] }),
  });
  return { status: res.statusCode, body: res.json() };
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({ MAIL_TRANSPORT: "smtp", SMTP_HOST: "127.0.0.1", SMTP_PORT: String(smtp.port) });
  operator = await signUp(t);
  await t.ctx.db.update(schema.users).set({ role: "operator" }).where(eq(schema.users.id, operator.userId));
  customer = await signUp(t);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const A = "/api/admin";
const audit = async (action: string) =>
  (await t.ctx.db.select().from(schema.operatorActions).where(eq(schema.operatorActions.action, action))).at(-1);

describe("organizations", () => {
  it("grants credit (not a recharge: the tier stays), with the note and the balance before and after", async () => {
    const res = await operator.client.post(`${A}/organizations/${customer.orgId}/grant`, {
      amount: "25.50",
      note: "compensation for INC-42",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.balance.cash).toBe(25_500_000_000n.toString());
    expect(res.body.tier.tier).toBe(0);
    expect(res.body.ledger[0]).toMatchObject({ kind: "grant", note: "operator grant: compensation for INC-42" });
    const line = await audit("org.grant");
    expect(line).toMatchObject({ actor: operator.userId, target: customer.orgId });
    expect(line!.before).toEqual({ cash: "0" });
    expect(line!.after).toEqual({ cash: "25500000000" });
  });

  it("refuses bad grants in the operator's language, changing nothing", async () => {
    for (const body of [
      { amount: "-1", note: "x" },
      { amount: "1.234", note: "x" },
      { amount: "5", note: " " },
    ]) {
      const res = await operator.client.post(`${A}/organizations/${customer.orgId}/grant`, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("validation_failed");
    }
    // An empty amount is missing, and the answer says so (not "at most 2 decimals").
    const empty = await operator.client.post(`${A}/organizations/${customer.orgId}/grant`, { amount: " ", note: "x" });
    expect(empty.status).toBe(400);
    expect(empty.body.error.details).toEqual([
      expect.objectContaining({ path: "amount", message: "This field is required." }),
    ]);
    expect((await readBalance(t.ctx.db, customer.orgId)).cashBalance).toBe(25_500_000_000n);
  });

  it("suspension stops the organization's keys at the gateway; resuming lets them through again", async () => {
    const key = await createApiKey({
      db: t.ctx.db,
      orgId: customer.orgId,
      projectId: customer.defaultProjectId,
      name: "k",
      createdBy: customer.userId,
    });
    expect((await chat(key.key)).status).toBe(200);
    const suspended = await operator.client.post(`${A}/organizations/${customer.orgId}/suspend`, {
      reason: "chargeback under review",
    });
    expect(suspended.body).toMatchObject({ suspendReason: "chargeback under review" });
    const refused = await chat(key.key);
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toContain("current state: suspended");
    expect((await operator.client.post(`${A}/organizations/${customer.orgId}/resume`)).body.suspendedAt).toBeNull();
    expect((await chat(key.key)).status).toBe(200);
    expect((await audit("org.suspend"))!.after).toMatchObject({ suspendReason: "chargeback under review" });
    expect((await audit("org.resume"))!.after).toEqual({ suspendedAt: null, suspendReason: null });
  });

  it("sets a tier override and limits above the tier, recorded before and after", async () => {
    const res = await operator.client.put(`${A}/organizations/${customer.orgId}/limits`, {
      tierOverride: 3,
      rateLimitOverride: { rpm: 9000 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ tier: { tier: 3 }, tierOverride: 3, rateLimitOverride: { rpm: 9000 } });
    const limits = await customer.client.get(`/api/orgs/${customer.orgId}/limits`);
    // The customer's usage-limits screen shows the override on top of the overridden tier.
    expect(limits.body.tier).toMatchObject({ tier: 3, rpm: 9000 });
    const line = await audit("org.set_limits");
    expect(line!.before).toEqual({ tierOverride: null, rateLimitOverride: null });
    expect(line!.after).toEqual({ tierOverride: 3, rateLimitOverride: { rpm: 9000 } });
    const bad = await operator.client.put(`${A}/organizations/${customer.orgId}/limits`, {
      tierOverride: 9,
      rateLimitOverride: null,
    });
    expect(bad.status).toBe(400);
  });
});

describe("users", () => {
  it("finds a user, disables them (sign-in refused, sessions revoked) and enables them again", async () => {
    const victim = await signUp(t);
    const found = await operator.client.get(`${A}/users?q=${victim.username}`);
    expect(found.body.items.map((u: { id: string }) => u.id)).toEqual([victim.userId]);
    expect((await victim.client.get("/api/me")).status).toBe(200);
    const disabled = await operator.client.post(`${A}/users/${victim.userId}/disable`);
    expect(disabled.body).toMatchObject({ activeSessions: 0 });
    expect(disabled.body.disabledAt).not.toBeNull();
    expect((await victim.client.get("/api/me")).status).toBe(401);
    const signIn = await new TestClient(t.app).post("/api/auth/signin", {
      username: victim.username,
      password: "Str0ng!pass",
    });
    expect(signIn.status).toBe(403);
    expect(signIn.body.error.code).toBe("account_disabled");
    // A wrong password still answers like any wrong password: the state is not revealed to guessers.
    const guess = await new TestClient(t.app).post("/api/auth/signin", {
      username: victim.username,
      password: "Wr0ng!pass",
    });
    expect(guess.body.error.code).toBe("invalid_credentials");
    await operator.client.post(`${A}/users/${victim.userId}/enable`);
    const again = await new TestClient(t.app).post("/api/auth/signin", {
      username: victim.username,
      password: "Str0ng!pass",
    });
    expect(again.status).toBe(200);
  });

  it("does not let the back office disable an operator", async () => {
    const res = await operator.client.post(`${A}/users/${operator.userId}/disable`);
    expect(res.status).toBe(409);
  });

  it("revokes every session of a user", async () => {
    const u = await signUp(t);
    const res = await operator.client.post(`${A}/users/${u.userId}/revoke-sessions`);
    expect(res.body.activeSessions).toBe(0);
    expect((await u.client.get("/api/me")).status).toBe(401);
    expect((await audit("user.revoke_sessions"))!.before).toEqual({ activeSessions: 1 });
  });
});

describe("queues", () => {
  it("leads and feedback: listed by status, moved along, answered by e-mail in the sender's language", async () => {
    const visitor = new TestClient(t.app);
    visitor.locale = "zh-CN";
    const lead = await visitor.post("/api/contact-sales", {
      topic: "pricing",
      name: "李雷",
      phone: "13800000000",
      email: "lilei@example.test",
      company: "韩梅梅科技",
      industry: "education",
      stage: "exploring",
      enterpriseCertified: false,
      background: "在线教育",
      problem: "想了解价格",
    });
    expect(lead.status).toBe(201);
    const fresh = await operator.client.get(`${A}/leads?status=new`);
    expect(fresh.body.items.map((l: { id: string }) => l.id)).toContain(lead.body.id);
    const reply = await operator.client.post(`${A}/leads/${lead.body.id}/reply`, { message: "您好，报价单见附件。" });
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    await drain();
    const answer = smtp.received.filter((m) => m.to.includes("lilei@example.test")).at(-1);
    expect(textPart(answer!.raw)).toContain("您好，报价单见附件。");
    expect(textPart(answer!.raw)).toContain("您于");
    // A reply moves a new item along.
    expect((await operator.client.get(`${A}/leads?status=in_progress`)).body.items[0].id).toBe(lead.body.id);
    expect((await operator.client.put(`${A}/leads/${lead.body.id}/status`, { status: "resolved" })).status).toBe(200);
    expect((await audit("lead.set_status"))!.after).toEqual({ status: "resolved" });

    const fb = await customer.client.upload(`/api/orgs/${customer.orgId}/feedback`, {
      type: "api_error",
      description: "429 at 3 RPM",
      contact: "dev@example.test",
    });
    const listed = await operator.client.get(`${A}/feedback?status=new`);
    expect(listed.body.items[0]).toMatchObject({ id: fb.body.id, orgId: customer.orgId, contact: "dev@example.test" });
    expect((await operator.client.post(`${A}/feedback/${fb.body.id}/reply`, { message: "Fixed." })).status).toBe(200);
    const mine = await customer.client.get(`/api/orgs/${customer.orgId}/feedback`);
    expect(mine.body.items[0]).toMatchObject({ status: "in_progress" });
    expect(mine.body.items[0].repliedAt).not.toBeNull();
    // No address to answer: a clear refusal.
    const anon = await customer.client.upload(`/api/orgs/${customer.orgId}/feedback`, {
      type: "other",
      description: "no contact",
    });
    expect((await operator.client.post(`${A}/feedback/${anon.body.id}/reply`, { message: "?" })).status).toBe(409);
  });

  it("lists corporate transfers waiting for the money, and confirming one credits it once", async () => {
    await t.ctx.db
      .update(schema.organizations)
      .set({ verification: "company" })
      .where(eq(schema.organizations.id, customer.orgId));
    const pay = await customer.client.post(`/api/orgs/${customer.orgId}/payments`, {
      amount: "100",
      payType: "b2btransfer",
      agreement: true,
    });
    expect(pay.status, JSON.stringify(pay.body)).toBe(201);
    const waiting = await operator.client.get(`${A}/transfers`);
    expect(waiting.body.items.map((p: { id: string }) => p.id)).toContain(pay.body.id);
    expect((await operator.client.post(`${A}/payments/${pay.body.id}/confirm`)).body.outcome).toBe("credited");
    expect((await operator.client.post(`${A}/payments/${pay.body.id}/confirm`)).body.outcome).toBe("already");
    expect((await operator.client.get(`${A}/transfers`)).body.items.map((p: { id: string }) => p.id)).not.toContain(
      pay.body.id,
    );
  });
});

describe("verification queue", () => {
  it("shows company applications in full and approves or rejects them; the state follows", async () => {
    const id = "11010519491231002X";
    const company = {
      companyName: "Queue Test Co., Ltd.",
      creditCode: "91350100M000100Y43",
      bankAccountName: "Queue Test Co., Ltd.",
      bankName: "Bank of Sandbox",
      bankAccountNumber: "6222020200112233445",
    };
    const apply = async (u: TestUser) => {
      const V = `/api/orgs/${u.orgId}/verification`;
      expect((await u.client.post(`${V}/personal`, { realName: "张三", idNumber: id })).status).toBe(200);
      const c = await u.client.post(`${V}/company`, company);
      expect(c.body.state, JSON.stringify(c.body)).toBe("company_changing");
    };
    const a = await signUp(t);
    const b = await signUp(t);
    await apply(a);
    await apply(b);
    const queue = await operator.client.get(`${A}/verifications`);
    const mine = queue.body.items.filter((v: { orgId: string }) => v.orgId === a.orgId || v.orgId === b.orgId);
    expect(mine).toHaveLength(2);
    expect(mine[0]).toMatchObject({ kind: "company", details: { bankAccountNumber: "6222020200112233445" } });
    const appOf = (u: TestUser) => mine.find((v: { orgId: string }) => v.orgId === u.orgId).id;
    expect((await operator.client.post(`${A}/verifications/${appOf(a)}/approve`)).status).toBe(200);
    const refused = await operator.client.post(`${A}/verifications/${appOf(b)}/reject`, { reason: " " });
    expect(refused.status).toBe(400);
    expect(
      (await operator.client.post(`${A}/verifications/${appOf(b)}/reject`, { reason: "The seal is unreadable." }))
        .status,
    ).toBe(200);
    expect((await operator.client.post(`${A}/verifications/${appOf(a)}/approve`)).status).toBe(409);
    const [orgA] = await t.ctx.db.select().from(schema.organizations).where(eq(schema.organizations.id, a.orgId));
    const [orgB] = await t.ctx.db.select().from(schema.organizations).where(eq(schema.organizations.id, b.orgId));
    expect([orgA!.verification, orgB!.verification]).toEqual(["company", "personal"]);
    expect((await audit("verification.reject"))!.target).toBe(b.orgId);
  });
});

describe("redemption code batches", () => {
  it("generates a batch shown once, lists its use, and revokes what is left", async () => {
    const res = await operator.client.post(`${A}/code-batches`, {
      edition: "cn",
      count: 3,
      amount: "8",
      voucherType: "activity",
      voucherDays: 30,
      validDays: 60,
      minTier: null,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.codes).toHaveLength(3);
    const { batchId } = res.body.batch;
    expect(
      (await customer.client.post(`/api/orgs/${customer.orgId}/vouchers/redeem`, { code: res.body.codes[0] })).status,
    ).toBe(200);
    const listed = (await operator.client.get(`${A}/code-batches`)).body.items.find(
      (b: { batchId: string }) => b.batchId === batchId,
    );
    expect(listed).toMatchObject({ count: 3, redeemed: 1, usable: 2, amount: (8n * U).toString() });
    const revoked = await operator.client.post(`${A}/code-batches/${batchId}/revoke`);
    expect(revoked.body).toMatchObject({ redeemed: 1, usable: 0 });
    const late = await customer.client.post(`/api/orgs/${customer.orgId}/vouchers/redeem`, { code: res.body.codes[1] });
    expect(late.status).toBeGreaterThanOrEqual(400);
    expect((await audit("voucher_codes.revoke"))!.before).toEqual({ usable: 2 });
  });
});

describe("dashboard and audit log", () => {
  it("counts today's sign-ups, recharges, requests and consumption; top models", async () => {
    await insertBill(t, {
      orgId: customer.orgId,
      projectId: customer.defaultProjectId,
      apiKeyId: "key_x",
      consumption: 2n * U,
      createdAt: new Date(),
    });
    await t.ctx.meter.flush();
    const res = await operator.client.get(`${A}/dashboard?days=7`);
    expect(res.status).toBe(200);
    expect(res.body.days).toHaveLength(7);
    const today = res.body.days.at(-1);
    expect(today.date).toBe(new Date().toISOString().slice(0, 10));
    expect(today.users).toBeGreaterThanOrEqual(2);
    expect(today.requests).toBeGreaterThanOrEqual(3);
    expect(BigInt(today.recharge.CNY)).toBeGreaterThanOrEqual(100n * U);
    expect(BigInt(today.consumption.CNY)).toBeGreaterThanOrEqual(2n * U);
    expect(res.body.topModels[0].model).toBe("moonshot-v1-8k");
    expect(res.body.totals.newFeedback).toBeGreaterThanOrEqual(1);
  });

  it("searches the audit log and exports it as CSV", async () => {
    const page = await operator.client.get(`${A}/audit?q=org.`);
    expect(page.body.items.length).toBeGreaterThanOrEqual(4);
    expect(page.body.items.every((e: { action: string }) => e.action.startsWith("org."))).toBe(true);
    expect(page.body.items[0].actorName).toBe(operator.username);
    const byTarget = await operator.client.get(`${A}/audit?q=${customer.orgId}`);
    expect(byTarget.body.total).toBeGreaterThanOrEqual(4);
    const csv = await operator.client.get(`${A}/audit?q=org.grant&format=csv`);
    expect(csv.headers["content-type"]).toContain("text/csv");
    const lines = csv.raw.body.trim().split("\r\n");
    expect(lines[0]).toContain("time,actor,actor_name,action,target,before,after,details");
    expect(lines[1]).toContain("org.grant");
    expect(lines[1]).toContain("compensation for INC-42");
  });
});

describe("catalog", () => {
  it("lists every model with its prices and what serves it, and each upstream's health", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "catalog-"));
    const file = path.join(dir, "upstreams.json");
    // Port 9 (discard) on loopback: nothing listens, so the upstream fails fast.
    fs.writeFileSync(
      file,
      JSON.stringify({
        "moonshot-v1-32k": { baseUrl: "http://127.0.0.1:9/v1", apiKey: "sk-upstream-secret", connectTimeoutMs: 500 },
      }),
    );
    const app = await createTestApp({ UPSTREAMS_FILE: file });
    try {
      const op = await signUp(app);
      await app.ctx.db.update(schema.users).set({ role: "operator" }).where(eq(schema.users.id, op.userId));
      const key = await createApiKey({
        db: app.ctx.db,
        orgId: op.orgId,
        projectId: op.defaultProjectId,
        name: "k",
        createdBy: op.userId,
      });
      await seedGrant(app.ctx, op.orgId, 10n * U);
      const res = await app.app.inject({
        method: "POST",
        url: "/v1/chat/completions",
        headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
        payload: JSON.stringify({ model: "moonshot-v1-32k", messages: [{ role: "user", content: "hi" }] }),
      });
      expect(res.statusCode).toBeGreaterThanOrEqual(500);
      const catalog = await op.client.get(`${A}/catalog`);
      expect(catalog.status).toBe(200);
      const v8 = catalog.body.models.find((m: { id: string }) => m.id === "moonshot-v1-8k");
      expect(v8).toMatchObject({ servedBy: "simulator", prices: { CNY: { input: expect.any(String) } } });
      expect(catalog.body.models.find((m: { id: string }) => m.id === "moonshot-v1-32k").servedBy).toBe(
        "moonshot-v1-32k",
      );
      const [up] = catalog.body.upstreams;
      expect(up).toMatchObject({ model: "moonshot-v1-32k", baseUrl: "http://127.0.0.1:9/v1", requests: 1, errors: 1 });
      expect(up.lastError).toMatch(/unreachable/);
      expect(JSON.stringify(catalog.body)).not.toContain("sk-upstream-secret");
    } finally {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("riddles", () => {
  it("lists, edits, reorders, retires, restores and adds riddles with the CLI's checks; each in the audit log", async () => {
    const list = await operator.client.get(`${A}/riddles`);
    expect(list.status).toBe(200);
    expect(list.body.items.length).toBeGreaterThanOrEqual(25);
    const beginners = list.body.items.filter((r: { difficulty: string }) => r.difficulty === "beginner");
    const second = beginners[1];
    const def = (await operator.client.get(`${A}/riddles/${second.id}`)).body;
    expect(def).toMatchObject({ id: second.id, difficulty: "beginner" });

    const edit = await operator.client.put(`${A}/riddles/${second.id}`, {
      definition: { content: { "en-US": { title: "A sharper title" } } },
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    const line = await audit("riddle.edit");
    expect((line!.before as { content: { "en-US": { title: string } } }).content["en-US"].title).toBe(
      def.content["en-US"].title,
    );
    expect((line!.after as { content: { "en-US": { title: string } } }).content["en-US"].title).toBe("A sharper title");

    const bad = await operator.client.put(`${A}/riddles/${second.id}`, { definition: { model: "gpt-9" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].message).toContain("unknown model");

    expect((await operator.client.post(`${A}/riddles/${second.id}/move`, { position: 1 })).status).toBe(200);
    const moved = (await operator.client.get(`${A}/riddles`)).body.items.filter(
      (r: { difficulty: string; retired: boolean }) => r.difficulty === "beginner" && !r.retired,
    );
    expect(moved[0].id).toBe(second.id);
    expect((await audit("riddle.move"))!.after).toEqual({ position: 1 });

    expect((await operator.client.post(`${A}/riddles/${second.id}/retire`)).status).toBe(200);
    const board = await customer.client.get(`/api/orgs/${customer.orgId}/riddles`);
    expect(JSON.stringify(board.body)).not.toContain(second.id);
    expect((await operator.client.post(`${A}/riddles/${second.id}/restore`)).status).toBe(200);
    expect((await audit("riddle.restore"))!.after).toEqual({ retired: false });

    const added = await operator.client.post(`${A}/riddles`, { definition: { ...def, id: "ops-added-riddle" } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(
      (await operator.client.post(`${A}/riddles`, { definition: { ...def, id: "ops-added-riddle" } })).status,
    ).toBe(400);
    expect((await operator.client.get(`${A}/riddles/no-such-riddle`)).status).toBe(404);
  });
});
