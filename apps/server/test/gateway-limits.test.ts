import { TIERS } from "@moonport/contracts";
import { newId, schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GatewayError } from "../src/chat/errors.ts";
import { setOrgLimitsCommand } from "../src/cli/set-org-limits.ts";
import { RateLimits } from "../src/metering/limits.ts";
import type { KeyIdentity } from "../src/metering/pipeline.ts";
import { seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function refusal(p: Promise<unknown>): Promise<GatewayError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatewayError);
  return err as GatewayError;
}

const admit = (key: KeyIdentity, admissionTokens = 100) =>
  t.ctx.meter.admit({ key, requestId: newId("req"), model: "moonshot-v1-8k", admissionTokens });

describe("gateway rate limits", () => {
  it("limits concurrency per organization by tier and frees the slot on release", async () => {
    const a = await seedAccount(t.ctx, { cash: "10" }); // Tier0 (cn): concurrency 1
    const key = await t.ctx.meter.authenticate(`Bearer ${a.key}`);
    const first = await admit(key);
    const err = await refusal(admit(key));
    expect(err.status).toBe(429);
    expect(err.toBody()).toEqual({
      error: {
        type: "rate_limit_reached_error",
        message: `Your account ${a.orgId}<${a.keyId}> request reached max concurrency: 1, please try again after 1 seconds`,
      },
    });
    expect(err.headers["retry-after"]).toBe("1");
    first.release();
    first.release(); // idempotent: must not free a second slot
    const second = await admit(key);
    await refusal(admit(key));
    second.release();
  });

  it("limits requests per minute with Retry-After and x-ratelimit headers", async () => {
    const a = await seedAccount(t.ctx, { cash: "10" }); // Tier0: 3 RPM
    const key = await t.ctx.meter.authenticate(`Bearer ${a.key}`);
    for (let i = 1; i <= 3; i++) {
      const adm = await admit(key);
      expect(adm.headers["x-ratelimit-limit-requests"]).toBe("3");
      expect(adm.headers["x-ratelimit-remaining-requests"]).toBe(String(3 - i));
      expect(adm.headers["x-ratelimit-limit-tokens"]).toBe("500000");
      expect(adm.headers["x-ratelimit-remaining-tokens"]).toBe(String(500_000 - 100 * i));
      expect(adm.headers["x-ratelimit-reset-requests"]).toMatch(/^\d+s$/);
      expect(adm.headers["x-ratelimit-reset-tokens"]).toMatch(/^\d+s$/);
      adm.release();
    }
    const err = await refusal(admit(key));
    expect(err.status).toBe(429);
    const wait = Number(err.headers["retry-after"]);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(err.message).toBe(
      `Your account ${a.orgId}<${a.keyId}> request reached max request: 3, please try again after ${wait} seconds`,
    );
    expect(err.headers["x-ratelimit-remaining-requests"]).toBe("0");
    // The refusal gave back its concurrency slot (a Tier0 organization has only one).
    const err2 = await refusal(admit(key));
    expect(err2.message).toContain("reached max request: 3");
  });

  it("keeps limiting in memory when Redis is unreachable (the admission script cannot run)", async () => {
    const down = await createTestApp({ REDIS_URL: "redis://127.0.0.1:1" });
    try {
      const a = await seedAccount(down.ctx, { cash: "10" }); // Tier0: 3 RPM, concurrency 1
      const key = await down.ctx.meter.authenticate(`Bearer ${a.key}`);
      const adm = (n = 100) =>
        down.ctx.meter.admit({ key, requestId: newId("req"), model: "moonshot-v1-8k", admissionTokens: n });
      const first = await adm();
      expect((await refusal(adm())).message).toContain("reached max concurrency: 1");
      first.release();
      for (let i = 2; i <= 3; i++) {
        const next = await adm();
        expect(next.headers["x-ratelimit-remaining-requests"]).toBe(String(3 - i));
        next.release();
      }
      expect((await refusal(adm())).message).toContain("reached max request: 3");
      // Counted by the fallback, not the script: no rate-limit allowance is asked of a Redis that is down.
      expect(down.ctx.meter.stats.limitAdmissions()).toEqual({ allowance: 0, script: 0 });
    } finally {
      await down.close();
    }
  }, 60_000);

  it("counts prompt plus max_tokens against TPM and a project's own cap, and refused requests count nothing", async () => {
    const a = await seedAccount(t.ctx, { cash: "10", tierOverride: 1 }); // cn Tier1: 2,000,000 TPM
    const key = await t.ctx.meter.authenticate(`Bearer ${a.key}`);
    const err = await refusal(admit(key, 2_000_001));
    expect(err.toBody()).toEqual({
      error: {
        type: "rate_limit_reached_error",
        message: `Your account ${a.orgId}<${a.keyId}> request reached TPM rate limit, current:2000001, limit:2000000`,
      },
    });
    expect(Number(err.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    const ok = await admit(key, 2_000_000);
    expect(ok.headers["x-ratelimit-remaining-tokens"]).toBe("0");
    ok.release();

    const b = await seedAccount(t.ctx, { cash: "10", tierOverride: 1 });
    await t.ctx.db.update(schema.projects).set({ tpmLimit: 1000 }).where(eq(schema.projects.id, b.projectId));
    const keyB = await t.ctx.meter.authenticate(`Bearer ${b.key}`);
    const first = await admit(keyB, 600);
    expect(first.headers["x-ratelimit-limit-tokens"]).toBe("1000");
    expect(first.headers["x-ratelimit-remaining-tokens"]).toBe("400");
    first.release();
    const capped = await refusal(admit(keyB, 600));
    expect(capped.message).toBe(
      `Your account ${b.orgId}<${b.keyId}> request reached TPM rate limit, current:1200, limit:1000`,
    );
    const fits = await admit(keyB, 400);
    fits.release();
  });

  it("a project's TPM cap above the organization's tier is held to the tier", async () => {
    const a = await seedAccount(t.ctx, { cash: "10" }); // Tier0 cn: 500,000 TPM
    await t.ctx.db.update(schema.projects).set({ tpmLimit: 9_000_000 }).where(eq(schema.projects.id, a.projectId));
    const key = await t.ctx.meter.authenticate(`Bearer ${a.key}`);
    const err = await refusal(admit(key, 500_001));
    expect(err.message).toContain("limit:500000");
  });

  it("limits tokens per day with the TPD message", async () => {
    const limits = new RateLimits(t.ctx);
    const tier = { ...TIERS.global[0]!, tpm: 10_000_000, rpm: 1000, concurrency: 10, tpd: 1000 };
    const req = { orgId: newId("org"), keyId: "key_x", projectId: "proj_x", tier, projectTpm: null, timeZone: "UTC" };
    (await limits.admit({ ...req, tokens: 700 })).release();
    const err = await refusal(limits.admit({ ...req, tokens: 400 }));
    expect(err.toBody()).toEqual({
      error: {
        type: "rate_limit_reached_error",
        message: `Your account ${req.orgId}<key_x> request reached TPD rate limit,current:1100, limit:1000`,
      },
    });
    (await limits.admit({ ...req, tokens: 300 })).release();
    // The day is a calendar day in the edition's zone: Retry-After points at the next local midnight.
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    const err2 = await refusal(limits.admit({ ...req, tokens: 1 }));
    const wait = Number(err2.headers["retry-after"]);
    expect(Math.abs(wait - (midnight.getTime() - Date.now()) / 1000)).toBeLessThan(5);
  });

  it("raises limits with the tier that cumulative recharge reaches", async () => {
    const a = await seedAccount(t.ctx, { cash: "10", recharge: "50" }); // cn Tier1: 200 RPM
    const key = await t.ctx.meter.authenticate(`Bearer ${a.key}`);
    const adm = await admit(key);
    expect(adm.headers["x-ratelimit-limit-requests"]).toBe("200");
    expect(adm.headers["x-ratelimit-limit-tokens"]).toBe("2000000");
    adm.release();
  });

  it("applies limits an operator granted above the tier, and returns to the tier when cleared", async () => {
    const a = await seedAccount(t.ctx, { cash: "10" }); // Tier0 cn: 3 RPM, 500,000 TPM, concurrency 1
    const run = (args: string[]) => {
      const lines: string[] = [];
      return setOrgLimitsCommand
        .run({
          config: t.config,
          db: t.ctx.db,
          services: t.ctx,
          args,
          print: (l) => lines.push(l),
          readInput: async () => "",
        })
        .then((code) => ({ code, out: lines.join("\n") }));
    };
    expect((await run([a.orgId, "--rpm", "0"])).code).toBe(2);
    expect((await run([a.orgId, "--bogus", "1"])).code).toBe(2);
    expect((await run(["org_missing", "--rpm", "5"])).code).toBe(1);
    expect(
      (await run([a.orgId, "--rpm", "100000", "--tpm=9000000", "--concurrency", "50", "--tpd", "unlimited"])).code,
    ).toBe(0);
    await t.ctx.keyEvents.invalidate({ orgId: a.orgId });
    const key = await t.ctx.meter.authenticate(`Bearer ${a.key}`);
    const held = await admit(key, 600_000);
    expect(held.headers["x-ratelimit-limit-requests"]).toBe("100000");
    expect(held.headers["x-ratelimit-limit-tokens"]).toBe("9000000");
    const second = await admit(key); // a second slot: concurrency 50
    second.release();
    held.release();
    expect((await run([a.orgId, "--clear"])).code).toBe(0);
    await t.ctx.keyEvents.invalidate({ orgId: a.orgId });
    // Back to Tier0: the 600,100 tokens counted this minute are over its 500,000 TPM.
    const back = await refusal(admit(key));
    expect(back.message).toContain("request reached TPM rate limit, current:600200, limit:500000");
  });
});
