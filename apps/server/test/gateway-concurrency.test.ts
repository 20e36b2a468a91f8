/**
 * Concurrency and money: at least 500 concurrent admit → settle flows, spread over two gateway instances sharing
 * one database, must move the balance by exactly the sum of the bill rows — no lost and no double-counted usage.
 * Run through the pipeline (the /v1 routes are built on the same three calls).
 */
import { findModel, parseMoney } from "@moonport/contracts";
import { newId } from "@moonport/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GatewayError } from "../src/chat/errors.ts";
import { inferenceCost, webSearchFee } from "../src/metering/pricing.ts";
import { grantVoucher, orgMoney, seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

const FLOWS = 600;

describe("concurrent billing", () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp();
    b = await createTestApp({}, { database: a.ctx.database });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  async function flow(t: TestApp, key: string, i: number) {
    const identity = await t.ctx.meter.authenticate(`Bearer ${key}`);
    const model = ["moonshot-v1-8k", "kimi-k2-0905-preview", "kimi-latest-32k"][i % 3]!;
    const admission = await t.ctx.meter.admit({
      key: identity,
      requestId: `req-${i}`,
      model,
      admissionTokens: 200,
    });
    await new Promise((r) => setTimeout(r, i % 7)); // the engine
    const usage = { promptTokens: 100 + (i % 50), completionTokens: 7 * (i % 30), cachedTokens: i % 4 === 0 ? 40 : 0 };
    const webSearchCalls = i % 10 === 0 ? 1 : 0;
    await t.ctx.meter.settle({ admission, usage, webSearchCalls, status: "ok" });
    return inferenceCost(findModel(model)!, identity.currency, usage) + webSearchFee(identity.currency, webSearchCalls);
  }

  it(`${FLOWS} concurrent requests on two instances move the balance by exactly the sum of their bills`, async () => {
    const acct = await seedAccount(a.ctx, { cash: "100", tierOverride: 5 });
    await grantVoucher(a.ctx, acct.orgId, "0.5", new Date(Date.now() + 3600_000));
    await grantVoucher(a.ctx, acct.orgId, "0.25", new Date(Date.now() + 60_000));
    const start = await orgMoney(a.ctx.db, acct.orgId);
    const costs = await Promise.all(Array.from({ length: FLOWS }, (_, i) => flow(i % 2 ? b : a, acct.key, i)));
    await Promise.all([a.ctx.meter.flush(), b.ctx.meter.flush()]);
    const end = await orgMoney(a.ctx.db, acct.orgId);
    const expected = costs.reduce((s, c) => s + c, 0n);
    expect(end.bills.requests).toBe(FLOWS);
    expect(end.bills.count).toBe(FLOWS + FLOWS / 10); // web-search lines
    expect(end.bills.consumption).toBe(expected);
    expect(end.bills.cash + end.bills.voucher).toBe(expected);
    // Vouchers (0.75 in all) are spent before cash.
    expect(end.bills.voucher).toBe(parseMoney("0.75"));
    expect(start.cash - end.cash).toBe(end.bills.cash);
    expect(start.voucherRemaining - end.voucherRemaining).toBe(end.bills.voucher);
    expect(end.ledgerCash).toBe(end.cash);
    expect(end.ledgerVoucher).toBe(end.voucherRemaining);
  });

  it("when the money runs out mid-burst, every admitted request is billed once and the rest are refused", async () => {
    const acct = await seedAccount(a.ctx, { cash: "0.05", tierOverride: 5 });
    const start = await orgMoney(a.ctx.db, acct.orgId);
    const results = await Promise.all(
      Array.from({ length: FLOWS }, async (_, i) => {
        // Waves, so that later requests see the balance earlier ones spent.
        await new Promise((r) => setTimeout(r, Math.floor(i / 50) * 15));
        try {
          return { ok: true as const, cost: await flow(i % 2 ? b : a, acct.key, i) };
        } catch (e) {
          expect(e).toBeInstanceOf(GatewayError);
          expect((e as GatewayError).type).toBe("exceeded_current_quota_error");
          return { ok: false as const, cost: 0n };
        }
      }),
    );
    await Promise.all([a.ctx.meter.flush(), b.ctx.meter.flush()]);
    const end = await orgMoney(a.ctx.db, acct.orgId);
    const admitted = results.filter((r) => r.ok);
    expect(admitted.length).toBeGreaterThan(0);
    expect(admitted.length).toBeLessThan(FLOWS);
    expect(end.bills.requests).toBe(admitted.length);
    expect(end.bills.consumption).toBe(admitted.reduce((s, r) => s + r.cost, 0n));
    expect(start.cash - end.cash).toBe(end.bills.consumption);
    expect(end.ledgerCash).toBe(end.cash);
    // Once below zero, the next admission is refused.
    expect(end.cash).toBeLessThanOrEqual(0n);
    const identity = await a.ctx.meter.authenticate(`Bearer ${acct.key}`);
    await a.ctx.meter.accounts.fresh(acct.orgId, acct.projectId);
    await expect(
      a.ctx.meter.admit({ key: identity, requestId: newId("req"), model: "moonshot-v1-8k", admissionTokens: 1 }),
    ).rejects.toMatchObject({ status: 429, type: "exceeded_current_quota_error" });
  });
});
