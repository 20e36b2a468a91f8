/** Recharge through the sandbox PSP, exactly-once crediting, cards, vouchers and codes. */
import { parseMoney } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoKeyCommand } from "../src/cli/demo-key.ts";
import { confirmPaymentCommand, voucherCodesCommand } from "../src/cli/payments.ts";
import { listLedgerEntries } from "../src/modules/billing/index.ts";
import { generateRedemptionCodes } from "../src/modules/billing/redeem-code.ts";
import { confirmPayment } from "../src/modules/billing/settle-payment.ts";
import { signNotification, TEST_CARDS, tokenizeCard } from "../src/modules/payments/sandbox-psp.ts";
import { saveInvoiceInfo, signUp } from "./console-helpers.ts";
import { orgMoney } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp, testClock } from "./helpers.ts";
import { CARD_CUSTOMER } from "./support/fixtures.ts";
import { readBalance } from "./support/money.ts";

let t: TestApp;
const clock = testClock();
beforeAll(async () => {
  t = await createTestApp({}, { clock });
});
afterAll(async () => {
  await t?.close();
});

/** Corporate transfer needs a verified company (verification.test.ts covers how an organization gets there). */
async function companyVerified(orgId: string) {
  await t.ctx.db
    .update(schema.organizations)
    .set({ verification: "company" })
    .where(eq(schema.organizations.id, orgId));
}

function org(orgId: string) {
  return readBalance(t.ctx.db, orgId);
}
async function tierOverrideOf(orgId: string) {
  const [row] = await t.ctx.db
    .select({ tierOverride: schema.organizations.tierOverride })
    .from(schema.organizations)
    .where(eq(schema.organizations.id, orgId));
  return row!.tierOverride;
}

function notify(body: object, secret = t.config.payments.sandboxSecret) {
  const raw = JSON.stringify(body);
  return t.app.inject({
    method: "POST",
    url: "/webhooks/payments/sandbox",
    headers: { "content-type": "application/json", "x-sandbox-signature": signNotification(secret, raw, 1700000000) },
    payload: raw,
  });
}

async function expectInvariants(orgId: string) {
  const m = await orgMoney(t.ctx.db, orgId);
  expect(BigInt(m.ledgerCash)).toBe(m.cash);
}

describe("recharge (cn): wxpay through the sandbox checkout", () => {
  it("creates a waiting order with a QR, pays on the hosted page, credits once, raises the tier, rewards the first 5", async () => {
    const u = await signUp(t, { edition: "cn" });
    const res = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "60",
      payType: "wxpay",
      agreement: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.status).toBe("waiting");
    expect(res.body.qrContent).toMatch(/^\/sandbox-psp\/checkout\?c=/);
    const page = await t.app.inject({ method: "GET", url: res.body.qrContent });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("<svg");
    const pay = await t.app.inject({ method: "POST", url: res.body.qrContent.replace("/checkout?", "/checkout/pay?") });
    expect(pay.statusCode, pay.body).toBe(200);
    await t.ctx.jobs.runDue();
    const after = await u.client.get(`/api/orgs/${u.orgId}/payments/${res.body.id}`);
    expect(after.body.status).toBe("success");
    const o = await org(u.orgId);
    expect(o.cashBalance).toBe(parseMoney("60"));
    expect(o.cumulativeRecharge).toBe(parseMoney("60"));
    const overview = await u.client.get(`/api/orgs/${u.orgId}/billing/overview`);
    expect(overview.body.tier.tier).toBe(1);
    expect(overview.body.toNextTier).toBe(parseMoney("40").toString());
    const vouchers = await u.client.get(`/api/orgs/${u.orgId}/vouchers`);
    expect(vouchers.body.items).toHaveLength(1);
    expect(vouchers.body.items[0]).toMatchObject({ type: "recharge", amount: parseMoney("5").toString(), used: "0" });
    // Paying the same checkout again (a second click, a retried webhook) changes nothing.
    await t.app.inject({ method: "POST", url: res.body.qrContent.replace("/checkout?", "/checkout/pay?") });
    await t.ctx.jobs.runDue();
    expect((await org(u.orgId)).cashBalance).toBe(parseMoney("60"));
    await expectInvariants(u.orgId);
  });

  it("the sandbox checkout page speaks the visitor's language and lists the test cards", async () => {
    const u = await signUp(t, { edition: "cn" });
    const res = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "60",
      payType: "wxpay",
      agreement: true,
    });
    const open = (url: string, headers: Record<string, string>, method: "GET" | "POST" = "GET") =>
      t.app.inject({ method, url, headers });
    const zh = await open(res.body.qrContent, { cookie: "locale=zh-CN" });
    expect(zh.body).toContain('<html lang="zh-CN">');
    expect(zh.body).toContain("微信支付收银台");
    expect(zh.body).toContain("支付 ¥60.00");
    expect(zh.body).toContain("测试卡");
    const en = await open(res.body.qrContent, { "accept-language": "en-US,en;q=0.9" });
    expect(en.body).toContain("WeChat Pay checkout");
    expect(en.body).toContain("Pay ¥60.00");
    expect(en.body).not.toMatch(/[\u4e00-\u9fff]/);
    for (const number of Object.keys(TEST_CARDS)) {
      const shown = number.replace(/(\d{4})(?=\d)/g, "$1 ");
      expect(zh.body).toContain(shown);
      expect(en.body).toContain(shown);
    }
    expect(en.body).toContain("Declined: “The card information is wrong.”");
    const sent = await open(
      res.body.qrContent.replace("/checkout?", "/checkout/pay?"),
      { cookie: "locale=zh-CN" },
      "POST",
    );
    expect(sent.body).toContain("已付款");
    const unknown = await open("/sandbox-psp/checkout?c=chk_x.y", { cookie: "locale=zh-CN" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain("收银台链接无效");
  });

  it("refuses bad input in the user's language and changes nothing", async () => {
    const u = await signUp(t, { edition: "cn" });
    u.client.locale = "zh-CN";
    const low = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "1",
      payType: "alipay",
      agreement: true,
    });
    expect(low.status).toBe(400);
    expect(JSON.stringify(low.body)).toContain("单次充值金额须在 ¥5 到 ¥50,000 之间");
    u.client.locale = "en-US";
    const high = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "50001",
      payType: "alipay",
      agreement: true,
    });
    expect(JSON.stringify(high.body)).toContain("Recharge at least ¥5 and at most ¥50,000");
    const noAgreement = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "10",
      payType: "alipay",
      agreement: false,
    });
    expect(noAgreement.status).toBe(400);
    expect(JSON.stringify(noAgreement.body)).toContain("payment agreement");
    const card = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "10",
      payType: "credit_card",
      agreement: true,
    });
    expect(card.body.error.code).toBe("pay_type_unavailable");
    const decimals = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "10.001",
      payType: "alipay",
      agreement: true,
    });
    expect(decimals.status).toBe(400);
    const list = await u.client.get(`/api/orgs/${u.orgId}/payments`);
    expect(list.body.total).toBe(0);
  });

  it("a waiting order blocks a new one until it ends, named in the user's language; cancel; auto-close after a day", async () => {
    const u = await signUp(t, { edition: "cn" });
    const order = { amount: "10", payType: "alipay", agreement: true };
    const first = await u.client.post(`/api/orgs/${u.orgId}/payments`, order);
    expect(first.status).toBe(201);
    const blocked = await u.client.post(`/api/orgs/${u.orgId}/payments`, { ...order, amount: "20" });
    expect(blocked.status).toBe(409);
    expect(blocked.body.error.code).toBe("payment_pending");
    expect(blocked.body.error.message).toBe(
      "Your unpaid order of ¥10.00 by Alipay is still waiting for payment. Continue or cancel it (at the top of the recharge page) before starting a new one.",
    );
    // Looking at the order (the console's order panel polls it) does not let a second one start.
    expect((await u.client.get(`/api/orgs/${u.orgId}/payments/${first.body.id}`)).body.status).toBe("waiting");
    u.client.locale = "zh-CN";
    const stillBlocked = await u.client.post(`/api/orgs/${u.orgId}/payments`, order);
    expect(stillBlocked.status).toBe(409);
    expect(stillBlocked.body.error.message).toBe(
      "您有一笔 ¥10.00 的支付宝订单尚未支付。请先在充值页顶部继续支付或取消该订单，再发起新的充值。",
    );
    u.client.locale = "en-US";
    const options = await u.client.get(`/api/orgs/${u.orgId}/recharge/options`);
    expect(options.body.blockingPaymentId).toBe(first.body.id);
    expect((await u.client.get(`/api/orgs/${u.orgId}/payments`)).body.total).toBe(1);

    const cancelled = await u.client.post(`/api/orgs/${u.orgId}/payments/${first.body.id}/cancel`);
    expect(cancelled.body.status).toBe("closed");
    const again = await u.client.post(`/api/orgs/${u.orgId}/payments/${first.body.id}/cancel`);
    expect(again.body.error.code).toBe("payment_not_cancellable");
    expect((await u.client.get(`/api/orgs/${u.orgId}/recharge/options`)).body.blockingPaymentId).toBeNull();
    // A payment arriving for the cancelled order is flagged, not credited.
    const flagged = await notify({
      id: "evt_late",
      type: "payment.succeeded",
      data: { paymentId: first.body.id, amount: first.body.amount },
    });
    expect(flagged.json().outcome).toBe("flagged");
    expect((await org(u.orgId)).cashBalance).toBe(0n);
    // An operator who checked it credits it once.
    expect(await confirmPayment({ ctx: t.ctx, paymentId: first.body.id, operator: "op", now: clock.now() })).toBe(
      "credited",
    );
    expect(await confirmPayment({ ctx: t.ctx, paymentId: first.body.id, operator: "op", now: clock.now() })).toBe(
      "already",
    );
    expect((await org(u.orgId)).cashBalance).toBe(parseMoney("10"));

    const second = await u.client.post(`/api/orgs/${u.orgId}/payments`, order);
    expect(second.status).toBe(201);
    clock.advance(24 * 60 * 60 * 1000 + 120_000);
    await t.ctx.jobs.runDue();
    const closed = await u.client.get(`/api/orgs/${u.orgId}/payments/${second.body.id}`);
    expect(closed.body.status).toBe("closed");
    // Money the provider charged for an order only the timer closed (say the server was down when it arrived) is
    // credited once: the order ends `success`, not flagged.
    const late = { type: "payment.succeeded", data: { paymentId: second.body.id, amount: second.body.amount } };
    expect((await notify({ id: "evt_after_timeout", ...late })).json().outcome).toBe("credited");
    expect((await notify({ id: "evt_after_timeout", ...late })).json().outcome).toBe("duplicate");
    expect((await u.client.get(`/api/orgs/${u.orgId}/payments/${second.body.id}`)).body.status).toBe("success");
    expect((await org(u.orgId)).cashBalance).toBe(parseMoney("20"));
    // Fill the month to 30 orders.
    const rows = Array.from({ length: 28 }, (_, i) => ({
      id: `pay_fill_${u.orgId}_${i}`,
      orgId: u.orgId,
      amount: parseMoney("10"),
      currency: "CNY" as const,
      payType: "alipay" as const,
      provider: "sandbox",
      status: "closed" as const,
      createdBy: u.userId,
      createdAt: clock.now(),
    }));
    await t.ctx.db.insert(schema.payments).values(rows);
    const over = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "10",
      payType: "alipay",
      agreement: true,
    });
    expect(over.status).toBe(429);
    expect(over.body.error.message).toContain("30");
    await expectInvariants(u.orgId);
  });

  it("corporate transfer shows bank details and a reference; credited when an operator confirms (admin route)", async () => {
    const u = await signUp(t, { edition: "cn" });
    // The recharge screen learns before Pay that transfer needs a verified company.
    const options = () => u.client.get(`/api/orgs/${u.orgId}/recharge/options`);
    expect((await options()).body.companyVerificationNeeded).toEqual(["b2btransfer"]);
    const refused = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "100",
      payType: "b2btransfer",
      agreement: true,
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe("verification_required");
    await companyVerified(u.orgId);
    expect((await options()).body.companyVerificationNeeded).toEqual([]);
    const res = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "100",
      payType: "b2btransfer",
      agreement: true,
    });
    expect(res.body.transfer.reference).toMatch(/^MP[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect(res.body.transfer.accountNumber).toBeTruthy();
    expect((await org(u.orgId)).cashBalance).toBe(0n);
    await confirmPayment({ ctx: t.ctx, paymentId: res.body.id, operator: "op", now: clock.now() });
    expect((await org(u.orgId)).cumulativeRecharge).toBe(parseMoney("100"));
    const [action] = await t.ctx.db
      .select()
      .from(schema.operatorActions)
      .where(eq(schema.operatorActions.target, res.body.id));
    expect(action?.action).toBe("payment.confirm");
  });
});

describe("exactly-once notifications", () => {
  it("a bad signature changes nothing; the same notification 50× concurrently credits once", async () => {
    const u = await signUp(t, { edition: "cn" });
    const res = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "20",
      payType: "alipay",
      agreement: true,
    });
    const body = {
      id: "evt_same_50",
      type: "payment.succeeded",
      data: { paymentId: res.body.id, amount: res.body.amount },
    };
    const bad = await notify(body, "x".repeat(64));
    expect(bad.statusCode).toBe(400);
    expect((await org(u.orgId)).cashBalance).toBe(0n);
    const results = await Promise.all(Array.from({ length: 50 }, () => notify(body)));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect(results.filter((r) => r.json().outcome === "credited")).toHaveLength(1);
    // A different event id for the same payment (a PSP's second event) credits nothing either.
    await notify({ ...body, id: "evt_other" });
    expect((await org(u.orgId)).cashBalance).toBe(parseMoney("20"));
    const ledger = await listLedgerEntries({ db: t.ctx.db, orgId: u.orgId });
    expect(ledger.filter((l) => l.kind === "recharge")).toHaveLength(1);
    await expectInvariants(u.orgId);
  });

  it("a crash before the commit leaves nothing and the provider's retry credits", async () => {
    const u = await signUp(t, { edition: "cn" });
    const res = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "20",
      payType: "alipay",
      agreement: true,
    });
    const { settlePayment } = await import("../src/modules/billing/settle-payment.ts");
    const { withTransaction } = await import("../src/lib/transaction.ts");
    await expect(
      withTransaction(t.ctx, async (tx) => {
        await settlePayment({
          ctx: t.ctx,
          tx,
          provider: "sandbox",
          eventId: "evt_crash",
          paymentId: res.body.id,
          verdict: "paid",
          now: clock.now(),
        });
        throw new Error("crash before commit");
      }),
    ).rejects.toThrow("crash");
    expect((await org(u.orgId)).cashBalance).toBe(0n);
    const retry = await notify({
      id: "evt_crash",
      type: "payment.succeeded",
      data: { paymentId: res.body.id, amount: res.body.amount },
    });
    expect(retry.json().outcome).toBe("credited");
    expect((await org(u.orgId)).cashBalance).toBe(parseMoney("20"));
  });
});

describe("cards (global)", () => {
  it("tokenizes at the PSP, binds token/brand/last4, pays; a declined card is 'card information is wrong'", async () => {
    const u = await signUp(t, { edition: "global" });
    await saveInvoiceInfo(u);
    const badNumber = await t.app.inject({
      method: "POST",
      url: "/sandbox-psp/v1/tokens",
      payload: { number: "4242424242424241", cvc: "123", expMonth: 12, expYear: 2099 },
    });
    expect(badNumber.statusCode).toBe(402);
    const customer = {
      email: "a@b.co",
      firstName: "Ada",
      lastName: "L",
      phone: "+1 555 0100",
      street: "1 Main",
      city: "SF",
      state: "CA",
      postcode: "94000",
      countryCode: "us",
    };
    const noCustomer = await u.client.post(`/api/orgs/${u.orgId}/cards`, { token: "tok_x" });
    expect(noCustomer.status).toBe(400);
    const forged = await u.client.post(`/api/orgs/${u.orgId}/cards`, { token: "tok_abc.def", customer });
    expect(forged.body.error.message).toBe("The card information is wrong.");
    const good = tokenizeCard(
      t.config.payments.sandboxSecret,
      { number: "4242 4242 4242 4242", cvc: "123", expMonth: 12, expYear: 2099 },
      clock.now(),
    );
    if (!good.ok) throw new Error("tokenize");
    const bound = await u.client.post(`/api/orgs/${u.orgId}/cards`, { token: good.token, customer });
    expect(bound.status).toBe(201);
    expect(bound.body).toMatchObject({ brand: "visa", last4: "4242" });
    const [stored] = await t.ctx.db.select().from(schema.paymentCards).where(eq(schema.paymentCards.id, bound.body.id));
    expect(JSON.stringify({ ...stored, expMonth: 0 })).not.toContain("4242424242424242");
    // The same card typed again is a new token (as a real PSP's payment method), so it binds again: a company
    // card can serve several organizations.
    const again = tokenizeCard(
      t.config.payments.sandboxSecret,
      { number: "4242 4242 4242 4242", cvc: "123", expMonth: 12, expYear: 2099 },
      clock.now(),
    );
    if (!again.ok) throw new Error("tokenize");
    expect(again.token).not.toBe(good.token);
    const boundAgain = await u.client.post(`/api/orgs/${u.orgId}/cards`, { token: again.token, customer });
    expect(boundAgain.status).toBe(201);
    expect((await u.client.post(`/api/orgs/${u.orgId}/cards`, { token: again.token, customer })).status).toBe(409);
    const noCard = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "25",
      payType: "credit_card",
      agreement: true,
    });
    expect(noCard.body.error.code).toBe("card_required");
    const paid = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "25",
      payType: "credit_card",
      cardId: bound.body.id,
      agreement: true,
    });
    expect(paid.status).toBe(201);
    await t.ctx.jobs.runDue();
    expect((await org(u.orgId)).cashBalance).toBe(parseMoney("25"));
    expect((await u.client.get(`/api/orgs/${u.orgId}/billing/overview`)).body.tier.tier).toBe(2);
    const declinedToken = tokenizeCard(
      t.config.payments.sandboxSecret,
      { number: "4000000000000002", cvc: "123", expMonth: 1, expYear: 2099 },
      clock.now(),
    );
    if (!declinedToken.ok) throw new Error("tokenize");
    const declinedCard = await u.client.post(`/api/orgs/${u.orgId}/cards`, { token: declinedToken.token, customer });
    const declined = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "25",
      payType: "credit_card",
      cardId: declinedCard.body.id,
      agreement: true,
    });
    expect(declined.status).toBe(402);
    expect(declined.body.error.message).toBe("The card information is wrong.");
    expect((await org(u.orgId)).cashBalance).toBe(parseMoney("25"));
    const del = await u.client.delete(`/api/orgs/${u.orgId}/cards/${declinedCard.body.id}`);
    expect(del.status).toBe(200);
    await expectInvariants(u.orgId);
  });
});

describe("redemption codes", () => {
  it("single use, expiring, edition-bound, may raise the tier; failures carry the reason", async () => {
    const u = await signUp(t, { edition: "cn" });
    const { codes } = await generateRedemptionCodes(
      { ctx: t.ctx },
      {
        count: 2,
        edition: "cn",
        amount: parseMoney("8"),
        voucherType: "activity",
        voucherDays: 30,
        expiresAt: new Date(clock.now().getTime() + 86_400_000),
        minTier: 2,
        operator: "op",
      },
    );
    const stored = await t.ctx.db.select().from(schema.redemptionCodes);
    expect(stored.map((r) => r.codeHash).join()).not.toContain(codes[0]!);
    const empty = await u.client.post(`/api/orgs/${u.orgId}/vouchers/redeem`, { code: " " });
    expect(empty.status).toBe(400);
    const unknown = await u.client.post(`/api/orgs/${u.orgId}/vouchers/redeem`, { code: "NOPE-NOPE" });
    expect(unknown.body.error.message).toContain("Voucher redemption failed");
    const ok = await u.client.post(`/api/orgs/${u.orgId}/vouchers/redeem`, { code: codes[0]!.toLowerCase() });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.tier).toBe(2);
    expect((await org(u.orgId)).cumulativeRecharge).toBe(0n);
    const used = await u.client.post(`/api/orgs/${u.orgId}/vouchers/redeem`, { code: codes[0] });
    expect(used.body.error.code).toBe("voucher_code_used");
    const g = await signUp(t, { edition: "global" });
    await saveInvoiceInfo(g);
    const wrong = await g.client.post(`/api/orgs/${g.orgId}/vouchers/redeem`, { code: codes[1] });
    expect(wrong.body.error.code).toBe("voucher_code_wrong_edition");
    clock.advance(2 * 86_400_000);
    const expired = await u.client.post(`/api/orgs/${u.orgId}/vouchers/redeem`, { code: codes[1] });
    expect(expired.body.error.code).toBe("voucher_code_expired");
    await expectInvariants(u.orgId);
  });
});

describe("a voucher code's tier is a floor", () => {
  it("a later recharge past the next threshold lifts the tier; the operator's override still decides", async () => {
    const operator = await signUp(t);
    await t.ctx.db.update(schema.users).set({ role: "operator" }).where(eq(schema.users.id, operator.userId));
    const g = await signUp(t, { edition: "global" });
    await saveInvoiceInfo(g);
    const { codes } = await generateRedemptionCodes(
      { ctx: t.ctx },
      {
        count: 1,
        edition: "global",
        amount: parseMoney("1"),
        voucherType: "activity",
        voucherDays: 30,
        expiresAt: new Date(clock.now().getTime() + 86_400_000),
        minTier: 2,
        operator: "op",
      },
    );
    const base = `/api/orgs/${g.orgId}`;
    const redeemed = await g.client.post(`${base}/vouchers/redeem`, { code: codes[0] });
    expect(redeemed.status, JSON.stringify(redeemed.body)).toBe(200);
    expect(redeemed.body.tier).toBe(2);
    expect((await g.client.get(`${base}/billing/overview`)).body).toMatchObject({
      tier: { tier: 2 },
      tierSource: "voucher",
      nextTier: { name: "Tier3" },
      toNextTier: parseMoney("100").toString(),
    });

    const token = tokenizeCard(
      t.config.payments.sandboxSecret,
      { number: "4242 4242 4242 4242", cvc: "123", expMonth: 12, expYear: 2099 },
      clock.now(),
    );
    if (!token.ok) throw new Error("tokenize");
    const card = await g.client.post(`${base}/cards`, { token: token.token, customer: CARD_CUSTOMER });
    const pay = await g.client.post(`${base}/payments`, {
      amount: "115",
      payType: "credit_card",
      cardId: card.body.id,
      agreement: true,
    });
    expect(pay.status, JSON.stringify(pay.body)).toBe(201);
    await t.ctx.jobs.runDue();
    expect((await org(g.orgId)).cumulativeRecharge).toBe(parseMoney("115"));

    // Console: the tier earned by recharge is above the floor, and the progress points at Tier4.
    expect((await g.client.get(`${base}/billing/overview`)).body).toMatchObject({
      tier: { tier: 3, name: "Tier3" },
      tierSource: "recharge",
      nextTier: { name: "Tier4" },
      toNextTier: parseMoney("885").toString(),
    });
    expect((await g.client.get(`${base}/limits`)).body).toMatchObject({
      tier: { tier: 3, rpm: 5_000 },
      tierSource: "recharge",
      nextTier: { name: "Tier4" },
      toNextTier: parseMoney("885").toString(),
    });
    // Gateway: admission applies Tier3's limits.
    const key = await g.client.post(`${base}/api-keys`, { name: "k", projectId: g.defaultProjectId });
    const identity = await t.ctx.meter.authenticate(`Bearer ${key.body.secret}`);
    await t.ctx.meter.accounts.fresh(g.orgId, g.defaultProjectId);
    const admit = () =>
      t.ctx.meter.admit({
        key: identity,
        requestId: `req-${Math.random()}`,
        model: "kimi-latest-8k",
        admissionTokens: 10,
      });
    const adm = await admit();
    expect(adm.headers["x-ratelimit-limit-requests"]).toBe("5000");
    adm.release();

    // The operator's override is a separate, explicit setting: while set it is the tier, even below the floor.
    const admin = `/api/admin/organizations/${g.orgId}`;
    const set = await operator.client.put(`${admin}/limits`, { tierOverride: 1, rateLimitOverride: null });
    expect(set.body).toMatchObject({ tier: { tier: 1 }, tierOverride: 1, tierFloor: 2 });
    expect((await g.client.get(`${base}/billing/overview`)).body).toMatchObject({
      tier: { tier: 1 },
      tierSource: "operator",
      nextTier: null,
      toNextTier: null,
    });
    await t.ctx.meter.accounts.fresh(g.orgId, g.defaultProjectId);
    const limited = await admit();
    expect(limited.headers["x-ratelimit-limit-requests"]).toBe("200");
    limited.release();
    const cleared = await operator.client.put(`${admin}/limits`, { tierOverride: null, rateLimitOverride: null });
    expect(cleared.body).toMatchObject({ tier: { tier: 3 }, tierOverride: null, tierFloor: 2 });
  });
});

describe("operator CLI", () => {
  const cli = async (cmd: { run: typeof demoKeyCommand.run }, args: string[]) => {
    const lines: string[] = [];
    const code = await cmd.run({
      config: t.config,
      db: t.ctx.db,
      services: t.ctx,
      args,
      print: (l) => lines.push(l),
      readInput: async () => "",
    });
    return { code, lines };
  };

  it("demo-key gives a usable tier (default 1, --tier N), recorded as an operator action", async () => {
    const { code, lines } = await cli(demoKeyCommand, ["--edition", "cn"]);
    expect(code).toBe(0);
    const identity = await t.ctx.meter.authenticate(`Bearer ${lines.at(-1)}`);
    expect(await tierOverrideOf(identity.orgId)).toBe(1);
    await cli(demoKeyCommand, ["--edition", "cn", "--tier", "3"]);
    expect(await tierOverrideOf(identity.orgId)).toBe(3);
    const actions = await t.ctx.db
      .select()
      .from(schema.operatorActions)
      .where(eq(schema.operatorActions.target, identity.orgId));
    expect(actions.map((a) => a.action)).toEqual(["org.set_tier", "org.set_tier"]);
    expect((await cli(demoKeyCommand, ["--tier", "9"])).code).toBe(2);
  });

  it("voucher-codes prints a batch once; confirm-payment credits a transfer by its reference once", async () => {
    const bad = await cli(voucherCodesCommand, ["--count", "0", "--amount", "5", "--edition", "cn"]);
    expect(bad.code).toBe(2);
    const { code, lines } = await cli(voucherCodesCommand, ["--count", "3", "--amount", "5", "--edition", "global"]);
    expect(code).toBe(0);
    const codes = lines.slice(1);
    expect(codes).toHaveLength(3);
    const g = await signUp(t, { edition: "global" });
    await saveInvoiceInfo(g);
    const ok = await g.client.post(`/api/orgs/${g.orgId}/vouchers/redeem`, { code: codes[0] });
    expect(ok.status).toBe(200);
    const u = await signUp(t, { edition: "cn" });
    await companyVerified(u.orgId);
    const res = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "30",
      payType: "b2btransfer",
      agreement: true,
    });
    const first = await cli(confirmPaymentCommand, [res.body.transfer.reference]);
    expect(first.lines[0]).toContain("Credited");
    const second = await cli(confirmPaymentCommand, [res.body.transfer.reference]);
    expect(second.lines[0]).toContain("already");
    expect((await org(u.orgId)).cashBalance).toBe(parseMoney("30"));
  });
});

describe("sign-up voucher", () => {
  it("grants the configured register voucher to a new personal organization (off by default)", async () => {
    const off = await signUp(t, { edition: "cn" });
    expect((await off.client.get(`/api/orgs/${off.orgId}/vouchers`)).body.total).toBe(0);
    const t2 = await createTestApp({ SIGNUP_VOUCHER_AMOUNT: "3", SIGNUP_VOUCHER_DAYS: "14" });
    try {
      const u = await signUp(t2, { edition: "global" });
      await saveInvoiceInfo(u);
      const list = await u.client.get(`/api/orgs/${u.orgId}/vouchers`);
      expect(list.body.items).toMatchObject([
        { type: "register", amount: parseMoney("3").toString(), status: "effective" },
      ]);
      const m = await orgMoney(t2.ctx.db, u.orgId);
      expect(BigInt(m.ledgerVoucher)).toBe(parseMoney("3"));
    } finally {
      await t2.close();
    }
  });
});
