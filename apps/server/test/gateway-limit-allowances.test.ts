/**
 * Rate-limit allowances (metering/limit-allowances.ts): with Redis, a busy organization is admitted from headroom
 * its instance took ahead, and the instances together still never admit more than the limits; what is held
 * unused goes back when the scope idles, its limits change, or the instance shuts down.
 */
import { TIERS, type Tier } from "@moonport/contracts";
import { newId } from "@moonport/db";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GatewayError } from "../src/chat/errors.ts";
import { type LimitGrant, type LimitRequest, RateLimits } from "../src/metering/limits.ts";
import { redisUnderTest } from "./env.ts";
import type { TestApp } from "./helpers.ts";
import { type RedisInstances, startRedisInstances } from "./support/redis-instances.ts";
import { waitFor } from "./support/wait.ts";

const redisUrl = redisUnderTest();
const SYNC_MS = 10;

const tierOf = (limits: Partial<Tier>): Tier => ({
  ...TIERS.global[0]!,
  concurrency: 10_000,
  rpm: 1_000_000,
  tpm: 1_000_000_000,
  tpd: null,
  ...limits,
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The grant, or the 429 that refused it. */
async function attempt(limits: RateLimits, req: LimitRequest): Promise<LimitGrant | GatewayError> {
  try {
    return await limits.admit(req);
  } catch (e) {
    if (e instanceof GatewayError) return e;
    throw e;
  }
}

describe.skipIf(!redisUrl)("rate-limit allowances on one Redis", () => {
  let a: TestApp;
  let b: TestApp;
  let redis: Redis;
  let prefix: string;
  let instances: RedisInstances | undefined;
  beforeAll(async () => {
    instances = await startRedisInstances(redisUrl!, { GATEWAY_LIMIT_SYNC_MS: String(SYNC_MS) });
    ({ a, b, redis, prefix } = instances);
  });
  afterAll(async () => {
    await instances?.close();
  });

  const request = (orgId: string, tier: Tier, tokens = 10): LimitRequest => ({
    orgId,
    keyId: "key_x",
    projectId: "proj_x",
    tier,
    projectTpm: null,
    tokens,
    timeZone: "UTC",
  });
  const rpmCount = async (orgId: string) => Number(await redis.get(`${prefix}:rl:gw-rpm:${orgId}`));
  const leases = (orgId: string) => redis.zcard(`${prefix}:conc:${orgId}`);

  it("admits a busy organization from its allowance, and two instances never admit past the limit together", async () => {
    const [la, lb] = [new RateLimits(a.ctx), new RateLimits(b.ctx)];
    const orgId = newId("org");
    const req = request(orgId, tierOf({ rpm: 400 }));
    let admitted = 0;
    let refused = 0;
    // Bursts on both instances, with pauses for their top-ups, until far more than the limit was asked for.
    for (let round = 0; round < 30; round++) {
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => attempt(i % 2 ? lb : la, req)));
      for (const r of results) {
        if (r instanceof GatewayError) {
          expect(r.status).toBe(429);
          expect(r.message).toContain("max request");
          refused++;
        } else {
          r.release();
          admitted++;
        }
      }
      await sleep(SYNC_MS + 5);
    }
    expect(admitted + refused).toBe(600);
    expect(admitted).toBeLessThanOrEqual(400);
    // Most of them never waited for Redis.
    const local = la.allowances!.admittedLocally + lb.allowances!.admittedLocally;
    expect(local).toBeGreaterThan(admitted / 4);
    // Every admission went one way or the other (what the metric reports).
    expect(local + la.allowances!.admittedByScript + lb.allowances!.admittedByScript).toBe(admitted);
    // Idle, both give back what they held unused: the rest of the limit is there to take, and no more.
    await waitFor("the rest of the limit", async () => {
      if (admitted === 400) return true;
      const r = await attempt(la, req);
      if (!(r instanceof GatewayError)) {
        r.release();
        admitted++;
      }
      return false;
    });
    expect(await attempt(lb, req)).toBeInstanceOf(GatewayError);
    expect(await rpmCount(orgId)).toBe(400);
    await Promise.all([la.close(), lb.close()]);
  });

  it("shares the concurrency limit: slots an allowance holds count for the other instance", async () => {
    const [la, lb] = [new RateLimits(a.ctx), new RateLimits(b.ctx)];
    const orgId = newId("org");
    const req = request(orgId, tierOf({ concurrency: 60 }));
    const held: LimitGrant[] = [];
    // Instance a holds requests open, a few at a time, long enough for its allowance to take slots.
    for (let round = 0; round < 8; round++) {
      for (let i = 0; i < 3; i++) held.push(await la.admit(req));
      await sleep(SYNC_MS + 5);
    }
    expect(la.allowances!.admittedLocally).toBeGreaterThan(0);
    // Instance b fills what is left: never more than 60 in flight between them.
    for (;;) {
      const r = await attempt(lb, req);
      if (r instanceof GatewayError) {
        expect(r.message).toContain("max concurrency");
        break;
      }
      held.push(r);
      expect(held.length).toBeLessThanOrEqual(60);
    }
    expect(await leases(orgId)).toBeLessThanOrEqual(60);
    for (const g of held) g.release();
    await Promise.all([la.close(), lb.close()]);
    // Every slot given back: the requests' own and those the allowance held free.
    await waitFor("every slot back", async () => (await leases(orgId)) === 0);
  });

  it("gives its allowance back when the organization's limits change, so the new limit is exact", async () => {
    const limits = new RateLimits(a.ctx);
    const orgId = newId("org");
    let admitted = 0;
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 4; i++) {
        (await limits.admit(request(orgId, tierOf({ rpm: 10_000 })))).release();
        admitted++;
      }
      await sleep(SYNC_MS + 5);
    }
    expect(limits.allowances!.admittedLocally).toBeGreaterThan(0);
    // The counter holds the allowance's unused part too…
    expect(await rpmCount(orgId)).toBeGreaterThan(admitted);
    // …until a request under other limits (a lower tier) sends it back, ahead of its own exact check.
    const lowered = await attempt(limits, request(orgId, tierOf({ rpm: admitted })));
    expect(lowered).toBeInstanceOf(GatewayError);
    expect((lowered as GatewayError).message).toContain("max request");
    expect(await rpmCount(orgId)).toBe(admitted);
    await limits.close();
  });

  it("gives everything back on a clean shutdown, requests still in flight keeping their slots until they end", async () => {
    const limits = new RateLimits(a.ctx);
    const orgId = newId("org");
    const req = request(orgId, tierOf({}), 25);
    const open: LimitGrant[] = [];
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 4; i++) open.push(await limits.admit(req));
      await sleep(SYNC_MS + 5);
    }
    expect(limits.allowances!.admittedLocally).toBeGreaterThan(0);
    await limits.close();
    expect(await rpmCount(orgId)).toBe(20);
    expect(Number(await redis.get(`${prefix}:rl:gw-tpm:${orgId}`))).toBe(500);
    expect(await leases(orgId)).toBe(20);
    for (const g of open) g.release();
    await waitFor("every slot back", async () => (await leases(orgId)) === 0);
  });

  it("a quiet organization never asks for an allowance", async () => {
    const limits = new RateLimits(a.ctx);
    const orgId = newId("org");
    for (let i = 0; i < 5; i++) {
      (await limits.admit(request(orgId, tierOf({})))).release();
      await sleep(3 * SYNC_MS);
    }
    expect(limits.allowances!.syncs).toBe(0);
    expect(await rpmCount(orgId)).toBe(5);
    await limits.close();
  });
});
