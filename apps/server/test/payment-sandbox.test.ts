/**
 * The sandbox payment provider is a development and demo tool: in production it is off unless the operator opts in
 * (PAYMENT_SANDBOX=allow), and then everything it makes says "test payment". Its secret outlives restarts and is
 * shared by the instances of one database.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { ERROR_MESSAGES, parseMoney } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { buildConfig } from "../src/env.ts";
import { tokenizeCard } from "../src/modules/payments/sandbox-psp.ts";
import { saveInvoiceInfo, signUp } from "./console-helpers.ts";
import { createTestApp, openTestDatabase, type TestApp } from "./helpers.ts";
import { CARD_CUSTOMER } from "./support/fixtures.ts";
import { readBalance } from "./support/money.ts";

const PRODUCTION = { NODE_ENV: "production", SMS_PROVIDER: "http", SMS_HTTP_URL: "http://127.0.0.1:9/sms" };
const card = { number: "4242424242424242", cvc: "123", expMonth: 12, expYear: 2099 };

describe("production without an opt-in: no sandbox", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(PRODUCTION);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("offers only corporate transfer and names the methods that are not set up", async () => {
    const cn = await signUp(t, { edition: "cn" });
    const options = await cn.client.get(`/api/orgs/${cn.orgId}/recharge/options`);
    expect(options.status, JSON.stringify(options.body)).toBe(200);
    expect(options.body).toMatchObject({
      payTypes: ["b2btransfer"],
      testPayTypes: [],
      unavailablePayTypes: ["wxpay", "alipay", "unionpay"],
    });
    const global = await signUp(t, { edition: "global" });
    const g = await global.client.get(`/api/orgs/${global.orgId}/recharge/options`);
    expect(g.body).toMatchObject({ payTypes: ["b2btransfer"], unavailablePayTypes: ["credit_card"] });
    expect(g.body.cardProvider.tokenizeUrl).toBeNull();
  });

  it("refuses a sandbox payment with a clear error in the user's language and creates nothing", async () => {
    const u = await signUp(t, { edition: "cn" });
    for (const payType of ["wxpay", "alipay", "unionpay"]) {
      const res = await u.client.post(`/api/orgs/${u.orgId}/payments`, { amount: "10000", payType, agreement: true });
      expect(res.status, payType).toBe(400);
      expect(res.body.error.code).toBe("pay_type_not_configured");
      expect(res.body.error.message).toBe(ERROR_MESSAGES.pay_type_not_configured["en-US"]);
    }
    u.client.locale = "zh-CN";
    const zh = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "10",
      payType: "wxpay",
      agreement: true,
    });
    expect(zh.body.error.message).toBe(ERROR_MESSAGES.pay_type_not_configured["zh-CN"]);
    const rows = await t.ctx.db.select().from(schema.payments).where(eq(schema.payments.orgId, u.orgId));
    expect(rows).toHaveLength(0);
  });

  it("refuses to bind or charge a card through the sandbox", async () => {
    const u = await signUp(t, { edition: "global" });
    await saveInvoiceInfo(u);
    // A token as the sandbox would sign it, even with a secret an attacker guessed: there is no sandbox to accept it.
    const tok = tokenizeCard("a-secret-of-sixteen-chars", card, new Date());
    const bind = await u.client.post(`/api/orgs/${u.orgId}/cards`, {
      token: tok.ok ? tok.token : "",
      customer: CARD_CUSTOMER,
    });
    expect(bind.status).toBe(400);
    expect(bind.body.error.code).toBe("pay_type_not_configured");
    // A card bound while the sandbox was allowed (same database, other configuration) cannot pay either.
    await t.ctx.db.insert(schema.paymentCards).values({
      id: "card_oldsandbox",
      orgId: u.orgId,
      provider: "sandbox",
      token: tok.ok ? tok.token : "",
      brand: "visa",
      last4: "4242",
      expMonth: 12,
      expYear: 2099,
      customer: CARD_CUSTOMER,
      createdBy: u.userId,
    });
    const pay = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "10000",
      payType: "credit_card",
      cardId: "card_oldsandbox",
      agreement: true,
    });
    expect(pay.status).toBe(400);
    expect(pay.body.error.code).toBe("pay_type_not_configured");
    const rows = await t.ctx.db.select().from(schema.payments).where(eq(schema.payments.orgId, u.orgId));
    expect(rows).toHaveLength(0);
    expect((await readBalance(t.ctx.db, u.orgId)).cashBalance).toBe(0n);
  });

  it("serves none of the sandbox's endpoints and keeps no sandbox secret", async () => {
    const get = await t.app.inject({ method: "GET", url: "/sandbox-psp/checkout?c=chk_x.y" });
    expect(get.statusCode).toBe(404);
    const pay = await t.app.inject({ method: "POST", url: "/sandbox-psp/checkout/pay?c=chk_x.y" });
    expect(pay.statusCode).toBe(404);
    const tokens = await t.app.inject({
      method: "POST",
      url: "/sandbox-psp/v1/tokens",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify(card),
    });
    expect(tokens.statusCode).toBe(404);
    const webhook = await t.app.inject({
      method: "POST",
      url: "/webhooks/payments/sandbox",
      headers: { "content-type": "application/json", "x-sandbox-signature": "t=1,v1=00" },
      payload: "{}",
    });
    expect(webhook.statusCode).toBe(404);
    expect(fs.existsSync(path.join(t.config.dataDir, "secrets", "payment-sandbox.secret"))).toBe(false);
  });
});

describe("production with PAYMENT_SANDBOX=allow: test payments, labelled", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...PRODUCTION, PAYMENT_SANDBOX: "allow" });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("offers the sandbox methods as test payments; the payment and the balance it makes say so", async () => {
    const u = await signUp(t, { edition: "cn" });
    const options = await u.client.get(`/api/orgs/${u.orgId}/recharge/options`);
    expect(options.body).toMatchObject({
      payTypes: ["wxpay", "alipay", "unionpay", "b2btransfer"],
      testPayTypes: ["wxpay", "alipay", "unionpay"],
      unavailablePayTypes: [],
    });
    const res = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "60",
      payType: "wxpay",
      agreement: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.test).toBe(true);
    // The checkout speaks the payer's language: the locale cookie, else the browser's.
    const zh = await t.app.inject({ method: "GET", url: res.body.qrContent, headers: { "accept-language": "zh-CN" } });
    expect(zh.body).toContain("测试支付，不涉及真实资金");
    const en = await t.app.inject({ method: "GET", url: res.body.qrContent, headers: { cookie: "locale=en-US" } });
    expect(en.body).toContain("test payment, no real money");
    await t.app.inject({ method: "POST", url: res.body.qrContent.replace("/checkout?", "/checkout/pay?") });
    await t.ctx.jobs.runDue();
    const overview = await u.client.get(`/api/orgs/${u.orgId}/billing/overview`);
    expect(overview.body.cash).toBe(parseMoney("60").toString());
    expect(overview.body.testRecharge).toBe(parseMoney("60").toString());
    expect(overview.body.recentPayments[0]).toMatchObject({ status: "success", test: true });
    const list = await u.client.get(`/api/orgs/${u.orgId}/payments`);
    expect(list.body.items[0].test).toBe(true);
  });

  it("a corporate transfer is real money, never a test payment", async () => {
    const u = await signUp(t, { edition: "cn" });
    await t.ctx.db
      .update(schema.organizations)
      .set({ verification: "company" })
      .where(eq(schema.organizations.id, u.orgId));
    const res = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "60",
      payType: "b2btransfer",
      agreement: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.test).toBe(false);
    const overview = await u.client.get(`/api/orgs/${u.orgId}/billing/overview`);
    expect(overview.body.testRecharge).toBe("0");
  });
});

describe("configuration", () => {
  it("allows the sandbox by default only outside production", () => {
    expect(buildConfig({}).payments.sandboxAllowed).toBe(true);
    expect(buildConfig({ NODE_ENV: "test" }).payments.sandboxAllowed).toBe(true);
    expect(buildConfig(PRODUCTION).payments.sandboxAllowed).toBe(false);
    expect(buildConfig({ ...PRODUCTION, PAYMENT_SANDBOX: "allow" }).payments.sandboxAllowed).toBe(true);
    expect(buildConfig({ PAYMENT_SANDBOX: "off" }).payments.sandboxAllowed).toBe(false);
    expect(() => buildConfig({ PAYMENT_SANDBOX: "yes" })).toThrow(/PAYMENT_SANDBOX/);
  });

  it("logs at start which payment methods are offered and what would enable the others", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(...chunk.toString().split("\n").filter(Boolean));
        done();
      },
    });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-paylog-"));
    const config = buildConfig({ ...PRODUCTION, SERVE_WEB: "false", DATA_DIR: dataDir, BILLING_JOURNAL_DIR: dataDir });
    const { database, drop } = await openTestDatabase();
    try {
      const { app } = await buildApp({ config, database, logger: { level: "info", stream } });
      await app.close();
    } finally {
      await database.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    const line = lines.map((l) => JSON.parse(l)).find((l) => l.msg === "payment methods");
    expect(line).toBeDefined();
    expect(line.sandbox).toBe("off");
    expect(line.offered).toEqual(["b2btransfer (transfer)"]);
    expect(Object.keys(line.notOffered).sort()).toEqual(["alipay", "credit_card", "unionpay", "wxpay"]);
    expect(line.notOffered.credit_card).toContain("PAYMENT_CARD_PROVIDER=stripe with STRIPE_SECRET_KEY");
    expect(line.notOffered.wxpay).toContain("WECHATPAY_MCH_ID");
    expect(line.notOffered.alipay).toContain("PAYMENT_SANDBOX=allow");
    expect(line.notOffered.unionpay).toContain("PAYMENT_SANDBOX=allow");
  });
});

describe("the sandbox secret", () => {
  it("is generated once and kept: in DATA_DIR (0600) on PGlite, in the shared database on PostgreSQL", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-sbxsecret-"));
    const first = await createTestApp({ DATA_DIR: dataDir });
    try {
      const secret = first.config.payments.sandboxSecret;
      expect(secret).toMatch(/^[0-9a-f]{64}$/);
      // Another instance: same DATA_DIR on PGlite (one process at a time), its own DATA_DIR on PostgreSQL.
      const otherDir = first.ctx.database.kind === "pglite" ? dataDir : fs.mkdtempSync(path.join(os.tmpdir(), "mp-"));
      const second = await createTestApp({ DATA_DIR: otherDir }, { database: first.ctx.database });
      try {
        expect(second.config.payments.sandboxSecret).toBe(secret);
      } finally {
        await second.close();
        if (otherDir !== dataDir) fs.rmSync(otherDir, { recursive: true, force: true });
      }
      if (first.ctx.database.kind === "pglite") {
        const file = path.join(dataDir, "secrets", "payment-sandbox.secret");
        expect(fs.statSync(file).mode & 0o777).toBe(0o600);
        expect(fs.readFileSync(file, "utf8").trim()).toBe(secret);
      } else {
        const [row] = await first.ctx.db
          .select()
          .from(schema.settings)
          .where(eq(schema.settings.key, "payments.sandbox_secret"));
        expect(row?.value).toBe(secret);
      }
      // A configured secret wins.
      const configured = await createTestApp(
        { DATA_DIR: dataDir, PAYMENT_SANDBOX_SECRET: "configured-secret-0123456789" },
        { database: first.ctx.database },
      );
      expect(configured.config.payments.sandboxSecret).toBe("configured-secret-0123456789");
      await configured.close();
    } finally {
      await first.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
