/**
 * The real payment provider adapters (Stripe, Alipay, WeChat Pay) driven end to end against loopback fakes of the
 * providers' HTTP APIs: the fakes check our request signatures / API keys and send signed notifications over HTTP
 * to our webhook, so each test runs order → notification → credited exactly once, and the refusals.
 */
import { parseMoney } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveInvoiceInfo, signUp } from "./console-helpers.ts";
import { orgMoney } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp } from "./helpers.ts";
import { startFakeAlipay } from "./support/fake-alipay.ts";
import { rsaKeys } from "./support/fake-http.ts";
import { startFakeStripe } from "./support/fake-stripe.ts";
import { startFakeWechatPay } from "./support/fake-wechatpay.ts";
import { CARD_CUSTOMER } from "./support/fixtures.ts";
import { readBalance } from "./support/money.ts";

// The app listens here so the fakes can call its webhook (a port of this worktree's range, see COMMON.md).
const APP_PORT = Number(process.env.PAYMENT_TEST_PORT ?? 4205);
const BASE = `http://127.0.0.1:${APP_PORT}`;

const stripeKeys = {
  secretKey: "sk_test_moonport_fake_secret_0123456789",
  publishableKey: "pk_test_moonport_fake_publishable",
  webhookSecret: "whsec_moonport_fake_webhook_secret",
};
const APIV3_KEY = "0123456789abcdef0123456789abcdef";
const customer = CARD_CUSTOMER;

let t: TestApp;
let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
let alipay: Awaited<ReturnType<typeof startFakeAlipay>>;
let wechat: Awaited<ReturnType<typeof startFakeWechatPay>>;
let env: Record<string, string>;
let stranger: { privateKey: string };

beforeAll(async () => {
  const [alipayApp, alipayPlatform, wxMerchant, wxPlatform, other] = await Promise.all([
    rsaKeys(),
    rsaKeys(),
    rsaKeys(),
    rsaKeys(),
    rsaKeys(),
  ]);
  stranger = other;
  stripe = await startFakeStripe(stripeKeys);
  alipay = await startFakeAlipay({
    appId: "2021000000000001",
    appPublicKey: alipayApp.publicKey,
    alipayPrivateKey: alipayPlatform.privateKey,
  });
  wechat = await startFakeWechatPay({
    appId: "wx0000000000000001",
    mchId: "1900000001",
    mchSerial: "5157F09EFDC096DE15EBE81A47057A7232F1B8E1",
    merchantPublicKey: wxMerchant.publicKey,
    apiV3Key: APIV3_KEY,
    platformPrivateKey: wxPlatform.privateKey,
    platformKeyId: "PUB_KEY_ID_0000000000000001",
  });
  env = {
    PAYMENT_NOTIFY_BASE_URL: BASE,
    PAYMENT_CARD_PROVIDER: "stripe",
    STRIPE_SECRET_KEY: stripeKeys.secretKey,
    STRIPE_PUBLISHABLE_KEY: stripeKeys.publishableKey,
    STRIPE_WEBHOOK_SECRET: stripeKeys.webhookSecret,
    STRIPE_API_URL: stripe.url,
    PAYMENT_ALIPAY_PROVIDER: "alipay",
    ALIPAY_APP_ID: "2021000000000001",
    // As an operator would paste it into an env file: one line with \n escapes.
    ALIPAY_PRIVATE_KEY: alipayApp.privateKey.replace(/\n/g, "\\n"),
    ALIPAY_PUBLIC_KEY: alipayPlatform.publicKey,
    ALIPAY_GATEWAY: alipay.gateway,
    PAYMENT_WXPAY_PROVIDER: "wechatpay",
    WECHATPAY_APP_ID: "wx0000000000000001",
    WECHATPAY_MCH_ID: "1900000001",
    WECHATPAY_MCH_SERIAL: "5157F09EFDC096DE15EBE81A47057A7232F1B8E1",
    WECHATPAY_PRIVATE_KEY: wxMerchant.privateKey,
    WECHATPAY_API_V3_KEY: APIV3_KEY,
    WECHATPAY_PUBLIC_KEY: wxPlatform.publicKey,
    WECHATPAY_PUBLIC_KEY_ID: "PUB_KEY_ID_0000000000000001",
    WECHATPAY_API_URL: wechat.url,
  };
  t = await createTestApp(env);
  await t.app.listen({ port: APP_PORT, host: "127.0.0.1" });
  stripe.setWebhook(`${BASE}/webhooks/payments/stripe`);
}, 60_000);

afterAll(async () => {
  await t?.close();
  await Promise.all([stripe?.close(), alipay?.close(), wechat?.close()]);
});

function org(orgId: string) {
  return readBalance(t.ctx.db, orgId);
}
async function payment(id: string) {
  const [row] = await t.ctx.db.select().from(schema.payments).where(eq(schema.payments.id, id));
  return row!;
}
async function expectInvariants(orgId: string) {
  const m = await orgMoney(t.ctx.db, orgId);
  expect(BigInt(m.ledgerCash)).toBe(m.cash);
}
function noSecrets(body: unknown) {
  const text = JSON.stringify(body);
  for (const secret of [stripeKeys.secretKey, stripeKeys.webhookSecret, APIV3_KEY, "PRIVATE KEY"]) {
    expect(text).not.toContain(secret);
  }
}

describe("Stripe (global cards)", () => {
  it("saves a card through Customer + PaymentMethod + SetupIntent, charges it, credits once from the signed webhook", async () => {
    const u = await signUp(t, { edition: "global" });
    await saveInvoiceInfo(u);
    const options = await u.client.get(`/api/orgs/${u.orgId}/recharge/options`);
    expect(options.body.cardProvider).toEqual({
      name: "stripe",
      tokenizeUrl: `${stripe.url}/v1/payment_methods`,
      publishableKey: stripeKeys.publishableKey,
    });
    noSecrets(options.body);

    const pm = await stripe.tokenize("4242424242424242");
    const bound = await u.client.post(`/api/orgs/${u.orgId}/cards`, { token: pm, customer });
    expect(bound.status, JSON.stringify(bound.body)).toBe(201);
    expect(bound.body).toMatchObject({ brand: "visa", last4: "4242", expMonth: 12, expYear: 2034 });
    noSecrets(bound.body);
    const [card] = await t.ctx.db.select().from(schema.paymentCards).where(eq(schema.paymentCards.orgId, u.orgId));
    expect(card).toMatchObject({ provider: "stripe", token: pm });
    expect(card!.providerCustomer).toMatch(/^cus_/);

    const res = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "120.50",
      payType: "credit_card",
      cardId: bound.body.id,
      agreement: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.status).toBe("waiting");
    const intent = stripe.seen.intents.at(-1)!;
    expect(intent).toMatchObject({
      amount: "12050",
      currency: "usd",
      customer: card!.providerCustomer,
      off_session: "true",
    });
    expect(intent["metadata[paymentId]"]).toBe(res.body.id);
    expect((await org(u.orgId)).cashBalance).toBe(0n); // nothing before the notification

    const sent = await stripe.deliverAll();
    expect(sent.map((s) => [s.status, JSON.parse(s.body).outcome])).toEqual([[200, "credited"]]);
    expect((await payment(res.body.id)).status).toBe("success");
    expect((await org(u.orgId)).cashBalance).toBe(parseMoney("120.50"));
    expect((await org(u.orgId)).cumulativeRecharge).toBe(parseMoney("120.50"));

    // Stripe retries the same event (and 50 deliveries at once): credited once.
    const again = await Promise.all(Array.from({ length: 50 }, () => stripe.deliver(sent[0]!.event)));
    expect(again.every((r) => r.status === 200)).toBe(true);
    expect(again.map((r) => JSON.parse(r.body).outcome)).toEqual(Array(50).fill("duplicate"));
    expect((await org(u.orgId)).cashBalance).toBe(parseMoney("120.50"));
    await expectInvariants(u.orgId);
  });

  it("a bad webhook signature changes nothing; the correctly signed retry credits", async () => {
    const u = await signUp(t, { edition: "global" });
    await saveInvoiceInfo(u);
    const bound = await u.client.post(`/api/orgs/${u.orgId}/cards`, {
      token: await stripe.tokenize("5555555555554444"),
      customer,
    });
    expect(bound.body).toMatchObject({ brand: "mastercard", last4: "4444" });
    const res = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "10",
      payType: "credit_card",
      cardId: bound.body.id,
      agreement: true,
    });
    const [event] = stripe.events.splice(0);
    for (const signature of [
      stripe.sign(event!.body, "whsec_someone_else"),
      "t=1,v1=00",
      stripe.sign(event!.body, stripeKeys.webhookSecret, Math.floor(Date.now() / 1000) - 3600), // replayed
    ]) {
      const bad = await stripe.deliver(event!, signature);
      expect(bad.status).toBe(400);
    }
    const tampered = await stripe.deliver(
      { body: event!.body.replace('"amount_received":1000', '"amount_received":100000') },
      stripe.sign(event!.body),
    );
    expect(tampered.status).toBe(400);
    expect((await payment(res.body.id)).status).toBe("waiting");
    expect((await org(u.orgId)).cashBalance).toBe(0n);
    const good = await stripe.deliver(event!);
    expect(JSON.parse(good.body).outcome).toBe("credited");
    expect((await org(u.orgId)).cashBalance).toBe(parseMoney("10"));
    await expectInvariants(u.orgId);
  });

  it("declined cards: at binding (SetupIntent) and at charging are 'card information is wrong'; nothing is credited", async () => {
    const u = await signUp(t, { edition: "global" });
    await saveInvoiceInfo(u);
    const refused = await u.client.post(`/api/orgs/${u.orgId}/cards`, {
      token: await stripe.tokenize("4000000000000002"),
      customer,
    });
    expect(refused.status).toBe(402);
    expect(refused.body.error.message).toBe("The card information is wrong.");
    const unknown = await u.client.post(`/api/orgs/${u.orgId}/cards`, { token: "pm_doesnotexist", customer });
    expect(unknown.body.error.code).toBe("card_invalid");
    const notAToken = await u.client.post(`/api/orgs/${u.orgId}/cards`, { token: "4242424242424242", customer });
    expect(notAToken.body.error.code).toBe("card_invalid");
    expect(
      await t.ctx.db.select().from(schema.paymentCards).where(eq(schema.paymentCards.orgId, u.orgId)),
    ).toHaveLength(0);

    const bound = await u.client.post(`/api/orgs/${u.orgId}/cards`, {
      token: await stripe.tokenize("4000000000000341"),
      customer,
    });
    expect(bound.status).toBe(201);
    u.client.locale = "zh-CN";
    const declined = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "10",
      payType: "credit_card",
      cardId: bound.body.id,
      agreement: true,
    });
    expect(declined.status).toBe(402);
    expect(declined.body.error.message).toBe("卡信息有误。");
    const [failed] = await t.ctx.db.select().from(schema.payments).where(eq(schema.payments.orgId, u.orgId));
    expect(failed).toMatchObject({ status: "failed", failureReason: "card_declined" });
    // Stripe's payment_failed event arrives too: authentic, changes nothing more.
    const sent = await stripe.deliverAll();
    expect(sent.map((s) => s.status)).toEqual([200]);
    expect((await org(u.orgId)).cashBalance).toBe(0n);
    // The card can be removed (and is detached at Stripe).
    const del = await u.client.delete(`/api/orgs/${u.orgId}/cards/${bound.body.id}`);
    expect(del.status).toBe(200);
  });
});

describe("Alipay (cn)", () => {
  it("precreates a QR order (our RSA2 signature checked), verifies the notify, credits once", async () => {
    const u = await signUp(t, { edition: "cn" });
    const res = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "60",
      payType: "alipay",
      agreement: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.qrContent).toMatch(/^https:\/\/qr\.alipay\.com\//);
    expect(alipay.seen.badSignatures).toBe(0);
    expect(alipay.orders.get(res.body.id)).toMatchObject({
      totalAmount: "60.00",
      notifyUrl: `${BASE}/webhooks/payments/alipay`,
    });
    // The QR survives a reload (stored as the provider issued it).
    const view = await u.client.get(`/api/orgs/${u.orgId}/payments/${res.body.id}`);
    expect(view.body.qrContent).toBe(res.body.qrContent);

    // Forged notifies: signed by someone else, or a signed one with the amount changed afterwards.
    expect((await alipay.pay(res.body.id, alipay.notifyForm(res.body.id, {}, stranger.privateKey))).status).toBe(400);
    const tampered = alipay.notifyForm(res.body.id).replace("total_amount=60.00", "total_amount=6000.00");
    expect((await alipay.pay(res.body.id, tampered)).status).toBe(400);
    const otherApp = alipay.notifyForm(res.body.id, { app_id: "2021000000009999" });
    expect((await alipay.pay(res.body.id, otherApp)).status).toBe(400);
    expect((await payment(res.body.id)).status).toBe("waiting");
    expect((await org(u.orgId)).cashBalance).toBe(0n);

    const form = alipay.notifyForm(res.body.id);
    const paid = await alipay.pay(res.body.id, form);
    expect(paid).toEqual({ status: 200, body: "success" });
    expect((await payment(res.body.id)).status).toBe("success");
    expect((await org(u.orgId)).cashBalance).toBe(parseMoney("60"));
    const overview = await u.client.get(`/api/orgs/${u.orgId}/billing/overview`);
    expect(overview.body.tier.tier).toBe(1);

    // Alipay's retries (same form, or a new notify_id for the same trade), 20 at once: every one acknowledged, one credit.
    const retries = await Promise.all([
      ...Array.from({ length: 10 }, () => alipay.pay(res.body.id, form)),
      ...Array.from({ length: 10 }, () => alipay.pay(res.body.id)),
    ]);
    expect(retries.every((r) => r.status === 200 && r.body === "success")).toBe(true);
    expect((await org(u.orgId)).cashBalance).toBe(parseMoney("60"));
    await expectInvariants(u.orgId);
  });

  it("a request Alipay cannot verify (wrong app key) opens nothing and blocks nothing", async () => {
    const other = await createTestApp({ ...env, ALIPAY_PRIVATE_KEY: stranger.privateKey });
    try {
      const u = await signUp(other, { edition: "cn" });
      const before = alipay.seen.badSignatures;
      const res = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
        amount: "10",
        payType: "alipay",
        agreement: true,
      });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe("payment_provider_unavailable");
      expect(alipay.seen.badSignatures).toBe(before + 1);
      const options = await u.client.get(`/api/orgs/${u.orgId}/recharge/options`);
      expect(options.body.blockingPaymentId).toBeNull();
      noSecrets(res.body);
    } finally {
      await other.close();
    }
  });
});

describe("WeChat Pay (cn)", () => {
  it("opens a Native order (our v3 signature checked), verifies and decrypts the notification, credits once", async () => {
    const u = await signUp(t, { edition: "cn" });
    const res = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "100",
      payType: "wxpay",
      agreement: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.qrContent).toMatch(/^weixin:\/\/wxpay\/bizpayurl\?pr=/);
    expect(wechat.seen.badSignatures).toBe(0);
    expect(wechat.orders.get(res.body.id)).toMatchObject({
      total: 10000,
      notifyUrl: `${BASE}/webhooks/payments/wechatpay`,
    });

    const forged = [
      wechat.notification(res.body.id, { key: stranger.privateKey }), // not WeChat's key
      wechat.notification(res.body.id, { serial: "PUB_KEY_ID_9999" }), // unknown key id
      wechat.notification(res.body.id, { timestamp: Math.floor(Date.now() / 1000) - 3600 }), // replayed
      wechat.notification(res.body.id, { apiV3Key: "ffffffffffffffffffffffffffffffff" }), // signed, undecryptable
    ];
    for (const n of forged) expect((await wechat.pay(res.body.id, n)).status).toBe(400);
    const n = wechat.notification(res.body.id);
    const tampered = { ...n, body: n.body.replace('"summary":"支付成功"', '"summary":"x"') };
    expect((await wechat.pay(res.body.id, tampered)).status).toBe(400);
    expect((await payment(res.body.id)).status).toBe("waiting");
    expect((await org(u.orgId)).cashBalance).toBe(0n);

    const paid = await wechat.pay(res.body.id, n);
    expect(paid.status).toBe(200);
    expect(JSON.parse(paid.body)).toMatchObject({ code: "SUCCESS", outcome: "credited" });
    expect((await org(u.orgId)).cashBalance).toBe(parseMoney("100"));
    expect((await org(u.orgId)).cumulativeRecharge).toBe(parseMoney("100"));

    const retries = await Promise.all(
      Array.from({ length: 20 }, (_, i) => wechat.pay(res.body.id, i % 2 ? n : undefined)),
    );
    expect(retries.every((r) => r.status === 200)).toBe(true);
    expect((await org(u.orgId)).cashBalance).toBe(parseMoney("100"));
    await expectInvariants(u.orgId);
  });

  it("a paid amount that differs from the order is flagged, never credited", async () => {
    const u = await signUp(t, { edition: "cn" });
    const res = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "10",
      payType: "wxpay",
      agreement: true,
    });
    const paid = await wechat.pay(res.body.id, wechat.notification(res.body.id, { total: 1 }));
    expect(JSON.parse(paid.body).outcome).toBe("flagged");
    expect((await payment(res.body.id)).flag).toBe("amount_mismatch");
    expect((await org(u.orgId)).cashBalance).toBe(0n);
  });
});

it("a webhook for a provider that is not configured is 404", async () => {
  const res = await fetch(`${BASE}/webhooks/payments/paypal`, {
    method: "POST",
    body: "{}",
    headers: { "content-type": "application/json" },
  });
  expect(res.status).toBe(404);
});
