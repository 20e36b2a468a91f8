/** The billing core (modules/billing): idempotent credits, vouchers, write-offs, and the gateway told after commit. */
import { parseMoney } from "@moonport/contracts";
import { Redis } from "ioredis";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoKeyCommand } from "../src/cli/demo-key.ts";
import { withTransaction } from "../src/lib/transaction.ts";
import type { InvalidationTarget } from "../src/metering/key-events.ts";
import { createKeyEvents } from "../src/metering/key-events.ts";
import { creditCash, debitCash, expireVouchers, issueVoucher } from "../src/modules/billing/credit.ts";
import { listLedgerEntries } from "../src/modules/billing/index.ts";
import { testEnv } from "./env.ts";
import { orgMoney, runRequest, seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp } from "./helpers.ts";
import { readBalance } from "./support/money.ts";

let t: TestApp;
const events: InvalidationTarget[] = [];
beforeAll(async () => {
  t = await createTestApp();
  t.ctx.keyEvents.subscribe((e) => {
    if (e !== "all") events.push(e);
  });
});
afterAll(async () => {
  await t?.close();
});

async function ledgerOf(orgId: string) {
  return listLedgerEntries({ db: t.ctx.db, orgId });
}

function org(orgId: string) {
  return readBalance(t.ctx.db, orgId);
}

describe("billing core", () => {
  it("credits a recharge once per reference, raises the tier's cumulative recharge, and tells the gateway after commit", async () => {
    const a = await seedAccount(t.ctx);
    events.length = 0;
    const credit = () =>
      creditCash({
        ctx: t.ctx,
        orgId: a.orgId,
        amount: parseMoney("50"),
        kind: "recharge",
        reference: "pay_123",
        note: "recharge",
      });
    const results = await Promise.all(Array.from({ length: 10 }, credit));
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect((await org(a.orgId)).cashBalance).toBe(parseMoney("50"));
    expect((await org(a.orgId)).cumulativeRecharge).toBe(parseMoney("50"));
    expect((await ledgerOf(a.orgId)).filter((l) => l.kind === "recharge")).toHaveLength(1);
    expect(events).toContainEqual({ orgId: a.orgId });
    const money = await orgMoney(t.ctx.db, a.orgId);
    expect(money.ledgerCash).toBe(money.cash);
  });

  it("does not tell the gateway about a credit whose transaction rolled back", async () => {
    const a = await seedAccount(t.ctx);
    events.length = 0;
    await expect(
      withTransaction(t.ctx, async (tx) => {
        await creditCash({ ctx: t.ctx, tx, orgId: a.orgId, amount: 5n, kind: "grant", reference: null, note: "x" });
        expect(events).toEqual([]); // not before the commit either
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    expect(events).toEqual([]);
    expect((await org(a.orgId)).cashBalance).toBe(0n);
    expect(await ledgerOf(a.orgId)).toEqual([]);
  });

  it("refunds never below zero and lower the cumulative recharge; a repeated refund is a no-op", async () => {
    const a = await seedAccount(t.ctx);
    await creditCash({ ctx: t.ctx, orgId: a.orgId, amount: 100n, kind: "recharge", reference: "p1", note: "r" });
    await expect(
      debitCash({ ctx: t.ctx, orgId: a.orgId, amount: 101n, kind: "refund", reference: "rf0", note: "too much" }),
    ).rejects.toThrow(RangeError);
    const first = await debitCash({
      ctx: t.ctx,
      orgId: a.orgId,
      amount: 40n,
      kind: "refund",
      reference: "rf1",
      note: "",
    });
    const again = await debitCash({
      ctx: t.ctx,
      orgId: a.orgId,
      amount: 40n,
      kind: "refund",
      reference: "rf1",
      note: "",
    });
    expect([first.applied, again.applied]).toEqual([true, false]);
    expect((await org(a.orgId)).cashBalance).toBe(60n);
    expect((await org(a.orgId)).cumulativeRecharge).toBe(60n);
    const money = await orgMoney(t.ctx.db, a.orgId);
    expect(money.ledgerCash).toBe(money.cash);
  });

  it("issues a voucher once per reference, spends it first, and writes off what is left when it expires", async () => {
    const a = await seedAccount(t.ctx, { cash: "1" });
    events.length = 0;
    const expiresAt = new Date(Date.now() + 60_000);
    const issue = () =>
      issueVoucher({
        ctx: t.ctx,
        orgId: a.orgId,
        type: "activity",
        amount: parseMoney("0.5"),
        expiresAt,
        reference: "code_ABC",
        note: "redeemed",
      });
    const [one, two] = [await issue(), await issue()];
    expect(one.applied).toBe(true);
    expect(two).toEqual({ applied: false, voucherId: null });
    expect(events).toContainEqual({ orgId: a.orgId });
    expect(await t.ctx.meter.balance(a.orgId)).toMatchObject({ voucher: parseMoney("0.5") });
    await runRequest(t.ctx, a.key, { usage: { promptTokens: 1000, completionTokens: 0, cachedTokens: 0 } });
    await t.ctx.meter.flush();
    const spent = await orgMoney(t.ctx.db, a.orgId);
    expect(spent.bills.voucher).toBeGreaterThan(0n);
    expect(spent.cash).toBe(parseMoney("1"));

    expect(await expireVouchers({ ctx: t.ctx, now: new Date(Date.now() + 30_000) })).toBe(0);
    expect(await expireVouchers({ ctx: t.ctx, now: new Date(expiresAt.getTime() + 1) })).toBeGreaterThanOrEqual(1);
    const after = await orgMoney(t.ctx.db, a.orgId);
    expect(after.voucherRemaining).toBe(0n);
    expect(after.ledgerVoucher).toBe(after.voucherRemaining);
    expect(after.ledgerCash).toBe(after.cash);
    const writeOff = (await ledgerOf(a.orgId)).filter((l) => l.kind === "voucher_expiry");
    expect(writeOff).toHaveLength(1);
    expect(writeOff[0]!.voucherDelta).toBe(-(parseMoney("0.5") - spent.bills.voucher));
  });

  it("demo-key credits through the core, so a running gateway admits the organization without a restart", async () => {
    const lines: string[] = [];
    const run = (args: string[]) =>
      demoKeyCommand.run({
        config: t.config,
        db: t.ctx.db,
        services: t.ctx,
        args,
        print: (l) => lines.push(l),
        readInput: async () => "",
      });
    expect(await run(["--edition", "global", "--balance", "0"])).toBe(0);
    const identity = await t.ctx.meter.authenticate(`Bearer ${lines.at(-1)}`);
    const admit = () =>
      t.ctx.meter.admit({ key: identity, requestId: "d1", model: "moonshot-v1-8k", admissionTokens: 10 });
    await expect(admit()).rejects.toMatchObject({ status: 429 });
    events.length = 0;
    expect(await run(["--edition", "global", "--balance", "3"])).toBe(0);
    expect(events).toContainEqual({ orgId: identity.orgId });
    (await admit()).release();
  });
});

// The CLI is its own process with its own bus (cli.ts): with PostgreSQL, a running gateway must learn of its credit
// through Redis, or without Redis through the polled version counter in the database.
describe.skipIf(!testEnv.databaseUrl)("demo-key from a separate process on PostgreSQL", () => {
  for (const withRedis of [true, false]) {
    it.skipIf(withRedis && !testEnv.redisUrl)(
      `reaches a running gateway ${withRedis ? "through Redis" : "through the version counter"} within a second`,
      async () => {
        const env: Record<string, string> = withRedis
          ? { REDIS_URL: testEnv.redisUrl!, REDIS_KEY_PREFIX: `mp-bc-${Date.now()}` }
          : {};
        const server = await createTestApp(env);
        const log = pino({ level: "silent" });
        const redis = withRedis ? new Redis(testEnv.redisUrl!) : undefined;
        const cliEvents = createKeyEvents({
          config: server.config,
          database: server.ctx.database,
          db: server.ctx.db,
          log,
          redis,
        });
        try {
          const lines: string[] = [];
          const run = (args: string[]) =>
            demoKeyCommand.run({
              config: server.config,
              db: server.ctx.db,
              services: { db: server.ctx.db, keyEvents: cliEvents, log },
              args,
              print: (l) => lines.push(l),
              readInput: async () => "",
            });
          expect(await run(["--balance", "0"])).toBe(0);
          const identity = await server.ctx.meter.authenticate(`Bearer ${lines.at(-1)}`);
          const admit = () =>
            server.ctx.meter.admit({ key: identity, requestId: "d", model: "moonshot-v1-8k", admissionTokens: 10 });
          await expect(admit()).rejects.toMatchObject({ status: 429 });
          expect(await run(["--balance", "3"])).toBe(0);
          const start = Date.now();
          for (;;) {
            try {
              (await admit()).release();
              break;
            } catch (e) {
              expect(e).toMatchObject({ status: 429 });
              if (Date.now() - start > 1500) throw e;
              await new Promise((r) => setTimeout(r, 25));
            }
          }
          expect(Date.now() - start).toBeLessThan(1500);
        } finally {
          await cliEvents.close();
          await redis?.quit();
          await server.close();
        }
      },
    );
  }
});
