import { parseMoney } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GatewayError } from "../src/chat/errors.ts";
import { grantBalance } from "../src/modules/billing/grant-balance.ts";
import { listVouchers } from "../src/modules/billing/index.ts";
import { grantVoucher, orgMoney, runRequest, seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** The GatewayError `run` throws or rejects with (authenticate throws synchronously once it needs no database). */
async function refusal(run: Promise<unknown> | (() => unknown)): Promise<GatewayError> {
  const err = await (typeof run === "function" ? Promise.resolve().then(run) : run).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatewayError);
  return err as GatewayError;
}

describe("gateway authentication", () => {
  it("refuses a missing or malformed Authorization header with Invalid Authentication", async () => {
    for (const header of [
      undefined,
      "",
      "Basic abc",
      "Bearer",
      "Bearer sk-short",
      "Bearer pk-0123456789012345678901234567890123456789",
    ]) {
      const err = await refusal(() => t.ctx.meter.authenticate(header));
      expect(err.status).toBe(401);
      expect(err.toBody()).toEqual({
        error: { type: "invalid_authentication_error", message: "Invalid Authentication" },
      });
    }
  });

  it("refuses a well-formed key nobody issued with Incorrect API key provided", async () => {
    const err = await refusal(() => t.ctx.meter.authenticate(`Bearer sk-${"A".repeat(48)}`));
    expect(err.status).toBe(401);
    expect(err.toBody()).toEqual({
      error: { type: "invalid_authentication_error", message: "Incorrect API key provided" },
    });
  });

  it("resolves a valid key to its organization, project and currency", async () => {
    const a = await seedAccount(t.ctx, { edition: "global", cash: "5" });
    const identity = await t.ctx.meter.authenticate(`Bearer ${a.key}`);
    expect(identity).toEqual({ keyId: a.keyId, orgId: a.orgId, projectId: a.projectId, currency: "USD" });
  });
});

describe("gateway metering and billing", () => {
  it("writes one bill row with exact token costs and takes them from cash", async () => {
    const a = await seedAccount(t.ctx, { cash: "10" });
    const { admission } = await runRequest(t.ctx, a.key, {
      requestId: "req-bill-1",
      model: "moonshot-v1-8k",
      usage: { promptTokens: 1000, completionTokens: 500, cachedTokens: 0 },
    });
    expect(admission.headers["x-ratelimit-limit-requests"]).toBe("3");
    await t.ctx.meter.flush();
    const bills = await t.ctx.db.select().from(schema.requestBills).where(eq(schema.requestBills.orgId, a.orgId));
    expect(bills).toHaveLength(1);
    // ¥2 per 1M input, ¥10 per 1M output: 1000 × 2000 + 500 × 10000 nano-yuan.
    expect(bills[0]).toMatchObject({
      requestId: "req-bill-1",
      apiKeyId: a.keyId,
      projectId: a.projectId,
      model: "moonshot-v1-8k",
      productName: "moonshot-v1-8k",
      productType: "model_inference",
      inputTokens: 1000,
      outputTokens: 500,
      cachedTokens: 0,
      consumption: 7_000_000n,
      cashDeduction: 7_000_000n,
      voucherDeduction: 0n,
      status: "ok",
    });
    const money = await orgMoney(t.ctx.db, a.orgId);
    expect(money.cash).toBe(parseMoney("10") - 7_000_000n);
    expect(money.ledgerCash).toBe(money.cash);
    const [key] = await t.ctx.db.select().from(schema.apiKeys).where(eq(schema.apiKeys.id, a.keyId));
    expect(key!.lastUsedAt).not.toBeNull();
  });

  it("bills cached tokens at the model's cache-hit price and in the organization's currency", async () => {
    const cn = await seedAccount(t.ctx, { cash: "10" });
    await runRequest(t.ctx, cn.key, {
      model: "kimi-k2-0905-preview",
      usage: { promptTokens: 1000, completionTokens: 100, cachedTokens: 600 },
    });
    const global = await seedAccount(t.ctx, { edition: "global", cash: "10" });
    await runRequest(t.ctx, global.key, {
      model: "kimi-k2-0905-preview",
      usage: { promptTokens: 1000, completionTokens: 100, cachedTokens: 600 },
    });
    // A model without a cache price bills cached tokens as ordinary input.
    await runRequest(t.ctx, global.key, {
      model: "moonshot-v1-8k",
      usage: { promptTokens: 1000, completionTokens: 0, cachedTokens: 1000 },
    });
    await t.ctx.meter.flush();
    // CNY: 400 × ¥4/M + 600 × ¥1/M + 100 × ¥16/M
    expect((await orgMoney(t.ctx.db, cn.orgId)).bills.consumption).toBe(400n * 4000n + 600n * 1000n + 100n * 16000n);
    // USD: 400 × $0.6/M + 600 × $0.15/M + 100 × $2.5/M, then 1000 × $0.2/M
    expect((await orgMoney(t.ctx.db, global.orgId)).bills.consumption).toBe(
      400n * 600n + 600n * 150n + 100n * 2500n + 1000n * 200n,
    );
  });

  it("bills $web_search calls as their own product line of the same request", async () => {
    const a = await seedAccount(t.ctx, { cash: "10" });
    await runRequest(t.ctx, a.key, {
      requestId: "req-search-1",
      usage: { promptTokens: 100, completionTokens: 10, cachedTokens: 0 },
      webSearchCalls: 2,
    });
    await t.ctx.meter.flush();
    const bills = await t.ctx.db
      .select()
      .from(schema.requestBills)
      .where(eq(schema.requestBills.requestId, "req-search-1"))
      .orderBy(asc(schema.requestBills.productType));
    expect(bills.map((b) => [b.productType, b.productName, b.toolCalls, b.consumption])).toEqual([
      ["$web_search", "$web_search", 2, 2n * parseMoney("0.03")],
      ["model_inference", "moonshot-v1-8k", 0, 100n * 2000n + 10n * 10000n],
    ]);
  });

  it("spends vouchers first, soonest-expiring first, skips expired ones, then cash, which may go below zero once", async () => {
    const a = await seedAccount(t.ctx, { cash: "0.01" });
    const soon = await grantVoucher(t.ctx, a.orgId, "0.002", new Date(Date.now() + 3600_000));
    const later = await grantVoucher(t.ctx, a.orgId, "0.005", new Date(Date.now() + 86_400_000));
    const expired = await grantVoucher(t.ctx, a.orgId, "1", new Date(Date.now() - 1000));
    // 1000 output tokens of moonshot-v1-8k = ¥0.01 each request.
    const usage = { promptTokens: 0, completionTokens: 1000, cachedTokens: 0 };
    await runRequest(t.ctx, a.key, { requestId: "v1", usage });
    await t.ctx.meter.flush();
    const vouchers = async () =>
      Object.fromEntries(
        (await listVouchers({ db: t.ctx.db, orgId: a.orgId, now: new Date(), page: 1, pageSize: 10 })).items.map(
          (v) => [v.id, BigInt(v.amount) - BigInt(v.used)],
        ),
      );
    expect(await vouchers()).toEqual({ [soon]: 0n, [later]: 0n, [expired]: parseMoney("1") });
    let money = await orgMoney(t.ctx.db, a.orgId);
    expect(money.cash).toBe(parseMoney("0.007"));
    // Next request: 0.007 cash left, costs 0.01 → cash ends at −0.003, allowed within settlement.
    await runRequest(t.ctx, a.key, { requestId: "v2", usage });
    await t.ctx.meter.flush();
    money = await orgMoney(t.ctx.db, a.orgId);
    expect(money.cash).toBe(-parseMoney("0.003"));
    // Now the available balance is ≤ 0: refused before the engine, with the recorded 429.
    const identity = await t.ctx.meter.authenticate(`Bearer ${a.key}`);
    const err = await refusal(
      t.ctx.meter.admit({ key: identity, requestId: "v3", model: "moonshot-v1-8k", admissionTokens: 10 }),
    );
    expect(err.status).toBe(429);
    expect(err.toBody()).toEqual({
      error: {
        type: "exceeded_current_quota_error",
        message:
          "Your account is suspended due to insufficient balance, please recharge your account or check your plan and billing details",
      },
    });
    const bills = await t.ctx.db
      .select()
      .from(schema.requestBills)
      .where(eq(schema.requestBills.orgId, a.orgId))
      .orderBy(asc(schema.requestBills.requestId));
    expect(bills.map((b) => [b.requestId, b.voucherDeduction, b.cashDeduction])).toEqual([
      ["v1", parseMoney("0.007"), parseMoney("0.003")],
      ["v2", 0n, parseMoney("0.01")],
    ]);
    // Every balance change is in the ledger; the bills add up to the balance change.
    expect(money.ledgerCash).toBe(money.cash);
    expect(money.ledgerVoucher).toBe(money.voucherRemaining);
    expect(money.bills.cash).toBe(parseMoney("0.01") - money.cash);
    expect(money.bills.voucher).toBe(parseMoney("0.007"));

    // A recharge (here a grant) made in the console unblocks the account at once.
    await grantBalance({ ctx: t.ctx, orgId: a.orgId, amount: parseMoney("1"), note: "top-up", createdBy: a.userId });
    const admission = await t.ctx.meter.admit({
      key: identity,
      requestId: "v4",
      model: "moonshot-v1-8k",
      admissionTokens: 10,
    });
    admission.release();
  });

  it("refuses a project whose daily or monthly budget is spent with a 403", async () => {
    const a = await seedAccount(t.ctx, { cash: "100" });
    await t.ctx.db.update(schema.projects).set({ dailyBudget: 1 }).where(eq(schema.projects.id, a.projectId));
    await t.ctx.keyEvents.invalidate({ projectId: a.projectId });
    // ¥1 exactly: 100,000 output tokens at ¥10/M.
    await runRequest(t.ctx, a.key, { usage: { promptTokens: 0, completionTokens: 100_000, cachedTokens: 0 } });
    const identity = await t.ctx.meter.authenticate(`Bearer ${a.key}`);
    const err = await refusal(
      t.ctx.meter.admit({ key: identity, requestId: "b2", model: "moonshot-v1-8k", admissionTokens: 10 }),
    );
    expect(err.status).toBe(403);
    expect(err.toBody()).toEqual({
      error: {
        type: "exceeded_current_quota_error",
        message: `Your account ${a.orgId}<${a.keyId}> is not active, current state: daily_budget_exceeded, the daily budget of this key's project is spent; raise the project budget in the console or try again tomorrow`,
      },
    });
    // Raising the daily budget but setting a spent monthly one refuses for the month.
    await t.ctx.meter.flush();
    await t.ctx.db
      .update(schema.projects)
      .set({ dailyBudget: 5, monthlyBudget: 1 })
      .where(eq(schema.projects.id, a.projectId));
    await t.ctx.keyEvents.invalidate({ projectId: a.projectId });
    await t.ctx.meter.accounts.fresh(a.orgId, a.projectId);
    const monthly = await refusal(
      t.ctx.meter.admit({ key: identity, requestId: "b3", model: "moonshot-v1-8k", admissionTokens: 10 }),
    );
    expect(monthly.message).toContain("current state: monthly_budget_exceeded");
    // A spent budget is the project's, not the account balance: the message must not send users to recharge.
    expect(monthly.message).toContain("monthly budget of this key's project is spent");
    expect(monthly.message).not.toContain("balance");
  });

  it("refuses an unknown model before counting anything", async () => {
    const a = await seedAccount(t.ctx, { cash: "1" });
    const identity = await t.ctx.meter.authenticate(`Bearer ${a.key}`);
    const err = await refusal(
      t.ctx.meter.admit({ key: identity, requestId: "m1", model: "gpt-nope", admissionTokens: 10 }),
    );
    expect(err.status).toBe(404);
    expect(err.message).toBe("Not found the model gpt-nope or Permission denied");
  });

  it("admits a warm key without a database round trip", async () => {
    const a = await seedAccount(t.ctx, { cash: "1", tierOverride: 3 });
    const identity = await t.ctx.meter.authenticate(`Bearer ${a.key}`);
    (
      await t.ctx.meter.admit({ key: identity, requestId: "w0", model: "moonshot-v1-8k", admissionTokens: 1 })
    ).release();
    const db = t.ctx.db as unknown as Record<string, unknown>;
    const saved = { select: db.select, execute: db.execute, transaction: db.transaction };
    for (const name of Object.keys(saved)) {
      db[name] = () => {
        throw new Error("database touched on the hot path");
      };
    }
    try {
      for (let i = 0; i < 50; i++) {
        const key = await t.ctx.meter.authenticate(`Bearer ${a.key}`);
        const adm = await t.ctx.meter.admit({
          key,
          requestId: `w${i + 1}`,
          model: "moonshot-v1-8k",
          admissionTokens: 1,
        });
        adm.release();
      }
    } finally {
      Object.assign(db, saved);
    }
  });

  it("reports the balance as cash plus unexpired vouchers, including what was just settled", async () => {
    const a = await seedAccount(t.ctx, { cash: "2" });
    await grantVoucher(t.ctx, a.orgId, "0.5", new Date(Date.now() + 86_400_000));
    await grantVoucher(t.ctx, a.orgId, "9", new Date(Date.now() - 1));
    await runRequest(t.ctx, a.key, { usage: { promptTokens: 0, completionTokens: 10_000, cachedTokens: 0 } }); // ¥0.1
    expect(await t.ctx.meter.balance(a.orgId)).toEqual({
      currency: "CNY",
      cash: parseMoney("2"),
      voucher: parseMoney("0.4"),
      available: parseMoney("2.4"),
      cumulativeRecharge: 0n,
    });
  });
});
