/**
 * Two app instances on one database: with Redis, revocations reach the other instance within a second and rate
 * limits are enforced once for both; on PostgreSQL without Redis, revocations travel through the settings-table
 * counter and still arrive within a second.
 */

import { parseMoney } from "@moonport/contracts";
import { newId, schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GatewayError } from "../src/chat/errors.ts";
import { REFRESH_MS } from "../src/metering/accounts.ts";
import { disableApiKey } from "../src/modules/keys/disable-api-key.ts";
import { signNotification } from "../src/modules/payments/sandbox-psp.ts";
import { archiveProjectRecord } from "../src/modules/projects/archive-project.ts";
import { redisUnderTest, testEnv } from "./env.ts";
import { seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp } from "./helpers.ts";
import { FIXTURE_DOCS } from "./support/fixtures.ts";
import { type RedisInstances, startRedisInstances } from "./support/redis-instances.ts";
import { waitFor } from "./support/wait.ts";

const redisUrl = redisUnderTest();

/** Polls instance `t` until the key is refused; returns how long that took. */
async function refusedWithin(t: TestApp, key: string, limitMs: number): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < limitMs + 500) {
    try {
      await t.ctx.meter.authenticate(`Bearer ${key}`);
    } catch (e) {
      expect((e as GatewayError).message).toBe("Incorrect API key provided");
      return Date.now() - start;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return Number.POSITIVE_INFINITY;
}

// Skipped only in runs that leave Redis out on purpose (the PGlite pass); under TEST_REQUIRE_REDIS a missing URL
// fails above instead.
describe.skipIf(!redisUrl)("two gateway instances on one Redis", () => {
  let a: TestApp;
  let b: TestApp;
  let redis: Redis;
  let prefix: string;
  let instances: RedisInstances | undefined;
  beforeAll(async () => {
    instances = await startRedisInstances(redisUrl!);
    ({ a, b, redis, prefix } = instances);
  });
  afterAll(async () => {
    await instances?.close();
  });

  it("a key disabled through one instance is refused by the other within one second", async () => {
    const acct = await seedAccount(a.ctx, { cash: "1" });
    await a.ctx.meter.authenticate(`Bearer ${acct.key}`);
    await b.ctx.meter.authenticate(`Bearer ${acct.key}`); // warm: cached in b
    await disableApiKey({ db: a.ctx.db, keyEvents: a.ctx.keyEvents, orgId: acct.orgId, keyId: acct.keyId });
    expect(await refusedWithin(b, acct.key, 1000)).toBeLessThan(1000);
  });

  it("archiving a project through one instance refuses its keys on the other within one second", async () => {
    const acct = await seedAccount(a.ctx, { cash: "1" });
    const projectId = newId("proj");
    await a.ctx.db.insert(schema.projects).values({ id: projectId, orgId: acct.orgId, name: "p2" });
    await a.ctx.db.update(schema.apiKeys).set({ projectId }).where(eq(schema.apiKeys.id, acct.keyId));
    await b.ctx.meter.authenticate(`Bearer ${acct.key}`);
    await archiveProjectRecord({ db: a.ctx.db, keyEvents: a.ctx.keyEvents, orgId: acct.orgId, projectId });
    expect(await refusedWithin(b, acct.key, 1000)).toBeLessThan(1000);
  });

  it("a missed message is caught by the version check within one second", async () => {
    const acct = await seedAccount(a.ctx, { cash: "1" });
    await b.ctx.meter.authenticate(`Bearer ${acct.key}`);
    // Change the database and bump the version without publishing, as if the message were lost.
    await a.ctx.db.update(schema.apiKeys).set({ status: "disabled" }).where(eq(schema.apiKeys.id, acct.keyId));
    await redis.incr(`${prefix}:gateway:invalidation-version`);
    expect(await refusedWithin(b, acct.key, 1000)).toBeLessThan(1000);
  });

  it("a recharge crossing a tier, credited through one instance, raises the limits on the other within one second", async () => {
    const acct = await seedAccount(a.ctx, { cash: "1" }); // cn Tier0: 3 RPM, Tier1 (50 recharged): 200 RPM
    const paymentId = newId("pay");
    await a.ctx.db.insert(schema.payments).values({
      id: paymentId,
      orgId: acct.orgId,
      amount: parseMoney("60"),
      currency: "CNY",
      payType: "wxpay",
      provider: "sandbox",
      createdBy: acct.userId,
    });
    const key = await b.ctx.meter.authenticate(`Bearer ${acct.key}`);
    const admit = (n: number) =>
      b.ctx.meter.admit({ key, requestId: `tier-${n}`, model: "moonshot-v1-8k", admissionTokens: 1 });
    const loadedAt = Date.now(); // b caches the organization's view from here on
    for (let i = 0; i < 3; i++) {
      const adm = await admit(i);
      expect(adm.headers["x-ratelimit-limit-requests"]).toBe("3");
      adm.release();
    }
    await expect(admit(3)).rejects.toMatchObject({ status: 429 });

    // The PSP's signed notification reaches instance a, which credits the order.
    const body = JSON.stringify({
      id: `evt_${paymentId}`,
      type: "payment.succeeded",
      data: { paymentId, amount: parseMoney("60").toString() },
    });
    const res = await a.app.inject({
      method: "POST",
      url: "/webhooks/payments/sandbox",
      headers: {
        "content-type": "application/json",
        "x-sandbox-signature": signNotification(a.config.payments.sandboxSecret, body, Math.floor(Date.now() / 1000)),
      },
      payload: body,
    });
    expect(res.json().outcome).toBe("credited");
    const credited = Date.now();
    let raisedAt = Number.POSITIVE_INFINITY;
    for (let n = 4; Date.now() - credited < 1500; n++) {
      try {
        const adm = await admit(n);
        expect(adm.headers["x-ratelimit-limit-requests"]).toBe("200");
        adm.release();
        raisedAt = Date.now();
        break;
      } catch (e) {
        expect((e as GatewayError).status).toBe(429);
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    expect(raisedAt - credited).toBeLessThan(1000);
    // Earlier than b's own periodic refresh could have seen it: the credit's invalidation travelled through Redis.
    expect(raisedAt - loadedAt).toBeLessThan(REFRESH_MS);
  });

  it("enforces one RPM limit across both instances", async () => {
    const acct = await seedAccount(a.ctx, { cash: "10" }); // Tier0: 3 RPM, concurrency 1
    const admitOn = async (t: TestApp) => {
      const key = await t.ctx.meter.authenticate(`Bearer ${acct.key}`);
      const adm = await t.ctx.meter.admit({
        key,
        requestId: newId("req"),
        model: "moonshot-v1-8k",
        admissionTokens: 10,
      });
      adm.release();
      // A lease given back reaches Redis with the instance's next admission or at the end of its event-loop turn
      // (metering/limits.ts releaseLease): the other instance sees the slot free from then on.
      await new Promise((r) => setImmediate(r));
      return adm;
    };
    await admitOn(a);
    await admitOn(b);
    const third = await admitOn(a);
    expect(third.headers["x-ratelimit-remaining-requests"]).toBe("0");
    for (const t of [a, b]) {
      const err = await admitOn(t).then(
        () => null,
        (e: unknown) => e as GatewayError,
      );
      expect(err?.status).toBe(429);
      expect(err?.message).toMatch(/request reached max request: 3, please try again after \d+ seconds$/);
    }
  });

  it("shares the concurrency limit across both instances", async () => {
    const acct = await seedAccount(a.ctx, { cash: "10" }); // Tier0: concurrency 1
    const keyA = await a.ctx.meter.authenticate(`Bearer ${acct.key}`);
    const keyB = await b.ctx.meter.authenticate(`Bearer ${acct.key}`);
    const held = await a.ctx.meter.admit({ key: keyA, requestId: "c1", model: "moonshot-v1-8k", admissionTokens: 1 });
    const err = await b.ctx.meter
      .admit({ key: keyB, requestId: "c2", model: "moonshot-v1-8k", admissionTokens: 1 })
      .then(
        () => null,
        (e: unknown) => e as GatewayError,
      );
    expect(err?.message).toContain("request reached max concurrency: 1");
    held.release();
    // The release is a fire-and-forget ZREM: wait until the lease has left the organization's sorted set.
    await waitFor(
      "the concurrency lease to be released",
      async () => (await redis.zcard(`${prefix}:conc:${acct.orgId}`)) === 0,
    );
    const next = await b.ctx.meter.admit({ key: keyB, requestId: "c3", model: "moonshot-v1-8k", admissionTokens: 1 });
    next.release();
  });

  it("enforces one RPM limit for HTTP requests spread over both instances' /v1", async () => {
    const acct = await seedAccount(a.ctx, { cash: "10" }); // Tier0: 3 RPM
    const post = (t: TestApp) =>
      t.app.inject({
        method: "POST",
        url: "/v1/chat/completions",
        headers: { authorization: `Bearer ${acct.key}`, "content-type": "application/json" },
        payload: JSON.stringify({
          model: "moonshot-v1-8k",
          messages: [{ role: "user", content: "Hi" }],
          max_tokens: 5,
        }),
      });
    expect((await post(a)).statusCode).toBe(200);
    expect((await post(b)).statusCode).toBe(200);
    const third = await post(b);
    expect(third.statusCode).toBe(200);
    expect(third.headers["x-ratelimit-remaining-requests"]).toBe("0");
    for (const t of [a, b]) {
      const res = await post(t);
      expect(res.statusCode).toBe(429);
      expect(res.headers["retry-after"]).toMatch(/^\d+$/);
      expect(res.json().error.message).toBe(
        `Your account ${acct.orgId}<${acct.keyId}> request reached max request: 3, please try again after ${res.headers["retry-after"]} seconds`,
      );
    }
  });
});

// The counter in `settings` is what carries revocations between PostgreSQL instances without Redis. A PGlite
// database belongs to one process, where local eviction is the whole story, so this needs the PostgreSQL pass.
describe.skipIf(!testEnv.databaseUrl)("two gateway instances on PostgreSQL without Redis", () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await createTestApp({ DOCS_DIR: FIXTURE_DOCS });
    b = await createTestApp({ DOCS_DIR: FIXTURE_DOCS }, { database: a.ctx.database });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("runs without Redis on a shared PostgreSQL database", () => {
    for (const t of [a, b]) {
      expect(t.ctx.redis).toBeUndefined();
      expect(t.ctx.database.kind).toBe("postgres");
    }
  });

  it("a key disabled through one instance is refused by the other within one second", async () => {
    const acct = await seedAccount(a.ctx, { cash: "1" });
    await a.ctx.meter.authenticate(`Bearer ${acct.key}`);
    await b.ctx.meter.authenticate(`Bearer ${acct.key}`); // warm: cached in b
    await disableApiKey({ db: a.ctx.db, keyEvents: a.ctx.keyEvents, orgId: acct.orgId, keyId: acct.keyId });
    expect(await refusedWithin(b, acct.key, 1000)).toBeLessThan(1000);
  });

  it("archiving a project through one instance refuses its keys on the other within one second", async () => {
    const acct = await seedAccount(a.ctx, { cash: "1" });
    const projectId = newId("proj");
    await a.ctx.db.insert(schema.projects).values({ id: projectId, orgId: acct.orgId, name: "p2" });
    await a.ctx.db.update(schema.apiKeys).set({ projectId }).where(eq(schema.apiKeys.id, acct.keyId));
    await b.ctx.meter.authenticate(`Bearer ${acct.key}`);
    await archiveProjectRecord({ db: a.ctx.db, keyEvents: a.ctx.keyEvents, orgId: acct.orgId, projectId });
    expect(await refusedWithin(b, acct.key, 1000)).toBeLessThan(1000);
  });
});
