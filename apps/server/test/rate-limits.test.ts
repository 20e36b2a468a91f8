import { ApiErrorBody } from "@moonport/contracts";
import { randomString, schema } from "@moonport/db";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLimiter } from "../src/lib/limiter.ts";
import { AUTH_LIMITS, signInDelayMs } from "../src/modules/auth/limits.ts";
import { PASSWORD, signUpUser, uniquePhone, uniqueUsername } from "./auth-helpers.ts";
import { redisUnderTest } from "./env.ts";
import { createTestApp, type TestApp, TestClient, testClock } from "./helpers.ts";

const backends: [string, Record<string, string>][] = [["in memory", {}]];
// The Redis backend is left out only in runs without Redis on purpose (the PGlite pass); under
// TEST_REQUIRE_REDIS a missing URL fails the file instead.
const redisUrl = redisUnderTest();
if (redisUrl) {
  backends.push([
    "in Redis",
    { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `mptest_${randomString(10, "abcdefghijklmnopqrstuvwxyz")}` },
  ]);
}

describe.each(backends)("rate limits %s", (_name, env) => {
  const clock = testClock();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(env, { clock });
  });
  afterAll(() => t.close());

  it("uses Redis exactly when REDIS_URL is set", () => {
    expect(Boolean(t.ctx.redis)).toBe(Boolean(env.REDIS_URL));
  });

  it("refuses an attacker's address after 10 failures on an account, while the owner elsewhere signs in", async () => {
    const { username } = await signUpUser(t.app);
    const attacker = new TestClient(t.app);
    for (let i = 0; i < AUTH_LIMITS.signInFailuresPerAccountIp.points + 2; i++) {
      const res = await attacker.post("/api/auth/signin", { username, password: "Wrong#123" });
      if (i < AUTH_LIMITS.signInFailuresPerAccountIp.points) {
        expect(ApiErrorBody.parse(res.body).error.code).toBe("invalid_credentials");
      } else {
        expect(res.status).toBe(429);
      }
    }
    // The attacker's address is held back for this account, even with the right password …
    const res = await attacker.post("/api/auth/signin", { username, password: PASSWORD });
    expect(res.status).toBe(429);
    const e = ApiErrorBody.parse(res.body).error;
    expect(e.code).toBe("rate_limited");
    const seconds = Number(res.headers["retry-after"]);
    expect(seconds).toBeGreaterThan(800);
    expect(seconds).toBeLessThanOrEqual(900);
    expect(e.message).toBe(`Too many attempts. Try again in ${seconds} seconds.`);
    // … but the owner, from their own machine, is not locked out.
    const owner = new TestClient(t.app);
    expect((await owner.post("/api/auth/signin", { username, password: PASSWORD })).status).toBe(200);
    // Nor is the attacker's address for other accounts (that is the per-IP limit's job).
    const other = await signUpUser(t.app);
    expect((await attacker.post("/api/auth/signin", { username: other.username, password: PASSWORD })).status).toBe(
      200,
    );
  });

  it("slows, never refuses, an account attacked from many addresses", async () => {
    const { username } = await signUpUser(t.app);
    const { slowAfter } = AUTH_LIMITS.signInFailuresPerAccount;
    for (let i = 0; i < slowAfter + 2; i++) {
      const res = await new TestClient(t.app).post("/api/auth/signin", { username, password: "Wrong#123" });
      expect(res.status).toBe(401);
    }
    expect(signInDelayMs(slowAfter)).toBe(0);
    expect(signInDelayMs(slowAfter + 2)).toBe(500);
    expect(signInDelayMs(10_000)).toBe(5000);
    const started = performance.now();
    const owner = await new TestClient(t.app).post("/api/auth/signin", { username, password: PASSWORD });
    expect(owner.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(450);
  });

  it("allows 5 sign-ups per address per hour, then answers rate_limited in the user's language", async () => {
    const c = new TestClient(t.app);
    for (let i = 0; i < 5; i++) {
      c.cookies.clear();
      await signUpUser(t.app, { client: c });
    }
    c.cookies.clear();
    const users = (await t.ctx.db.select().from(schema.users)).length;
    const body = { username: uniqueUsername(), password: PASSWORD, confirmPassword: PASSWORD };
    const en = await c.post("/api/auth/signup/password", body);
    expect(en.status).toBe(429);
    const seconds = Number(en.headers["retry-after"]);
    expect(seconds).toBeGreaterThan(3500);
    expect(seconds).toBeLessThanOrEqual(3600);
    // Numbers in messages are grouped the way the console writes them ("3,600").
    expect(ApiErrorBody.parse(en.body).error.message).toBe(
      `Too many attempts. Try again in ${seconds.toLocaleString("en-US")} seconds.`,
    );
    c.locale = "zh-CN";
    const zh = await c.post("/api/auth/signup/password", body);
    expect(zh.status).toBe(429);
    expect(ApiErrorBody.parse(zh.body).error.message).toMatch(/^尝试次数过多，请 [\d,]+ 秒后再试。$/);
    // Phone sign-up shares the allowance; nothing was created; another address still signs up.
    const phone = uniquePhone();
    const viaPhone = await c.post("/api/auth/signup/phone", { ...body, phone: phone.local, code: "123456" });
    expect(viaPhone.status).toBe(429);
    expect((await t.ctx.db.select().from(schema.users)).length).toBe(users);
    await signUpUser(t.app);
  });

  it("does not count a refused sign-up (taken name) against the address", async () => {
    const c = new TestClient(t.app);
    const { username } = await signUpUser(t.app);
    for (let i = 0; i < 8; i++) {
      const res = await c.post("/api/auth/signup/password", {
        username,
        password: PASSWORD,
        confirmPassword: PASSWORD,
      });
      expect(res.status).toBe(409);
    }
    c.cookies.clear();
    await signUpUser(t.app, { client: c });
  });

  it("caps sign-ups per address per day (SIGNUPS_PER_IP_PER_DAY)", async () => {
    const day = await createTestApp({ ...env, SIGNUPS_PER_IP_PER_HOUR: "50", SIGNUPS_PER_IP_PER_DAY: "3" });
    try {
      const c = new TestClient(day.app);
      for (let i = 0; i < 3; i++) {
        c.cookies.clear();
        await signUpUser(day.app, { client: c });
      }
      c.cookies.clear();
      const res = await c.post("/api/auth/signup/password", {
        username: uniqueUsername(),
        password: PASSWORD,
        confirmPassword: PASSWORD,
      });
      expect(res.status).toBe(429);
      expect(Number(res.headers["retry-after"])).toBeGreaterThan(80_000);
    } finally {
      await day.close();
    }
  });

  it("clears an account's failures on a successful sign-in", async () => {
    const { username } = await signUpUser(t.app);
    const c = new TestClient(t.app);
    for (let i = 0; i < AUTH_LIMITS.signInFailuresPerAccountIp.points - 1; i++) {
      await c.post("/api/auth/signin", { username, password: "Wrong#123" });
    }
    expect((await c.post("/api/auth/signin", { username, password: PASSWORD })).status).toBe(200);
    for (let i = 0; i < AUTH_LIMITS.signInFailuresPerAccountIp.points - 1; i++) {
      await c.post("/api/auth/signin", { username, password: "Wrong#123" });
    }
    expect((await c.post("/api/auth/signin", { username, password: PASSWORD })).status).toBe(200);
  });

  it("limits failed sign-ins per IP across accounts, not successful ones", async () => {
    const { username } = await signUpUser(t.app);
    const c = new TestClient(t.app);
    for (let i = 0; i < AUTH_LIMITS.signInFailuresPerIp.points - 1; i++) {
      const res = await c.post("/api/auth/signin", { username: `nobody_${i}`, password: "Wrong#123" });
      expect(res.status).toBe(401);
    }
    expect((await c.post("/api/auth/signin", { username, password: PASSWORD })).status).toBe(200);
    const last = await c.post("/api/auth/signin/sms", { phone: uniquePhone().local, code: "123456" });
    expect(ApiErrorBody.parse(last.body).error.code).toBe("phone_not_registered");
    const res = await c.post("/api/auth/signin", { username, password: PASSWORD });
    expect(res.status).toBe(429);
    expect((await c.post("/api/auth/signin/sms", { phone: uniquePhone().local, code: "123456" })).status).toBe(429);
    // Another machine is unaffected.
    expect((await new TestClient(t.app).post("/api/auth/signin", { username, password: PASSWORD })).status).toBe(200);
  });

  it("sends at most 10 SMS per phone per hour", async () => {
    const phone = uniquePhone();
    for (let i = 0; i < AUTH_LIMITS.smsPerPhone.points; i++) {
      const res = await new TestClient(t.app).post("/api/auth/sms", { phone: phone.local, purpose: "signup" });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      clock.advance(61_000);
    }
    const res = await new TestClient(t.app).post("/api/auth/sms", { phone: phone.local, purpose: "signup" });
    expect(res.status).toBe(429);
    expect(ApiErrorBody.parse(res.body).error.code).toBe("rate_limited");
  });

  it("sends at most 30 SMS per IP per hour", async () => {
    const c = new TestClient(t.app);
    for (let i = 0; i < AUTH_LIMITS.smsPerIp.points; i++) {
      const res = await c.post("/api/auth/sms", { phone: uniquePhone().local, purpose: "signup" });
      expect(res.status).toBe(200);
    }
    const res = await c.post("/api/auth/sms", { phone: uniquePhone().local, purpose: "signup" });
    expect(res.status).toBe(429);
  });

  it("gives each limiter its own key space and budget", async () => {
    const a = createLimiter({ ctx: t.ctx, keyPrefix: `test:a:${Math.random()}`, points: 2, durationSeconds: 60 });
    const b = createLimiter({ ctx: t.ctx, keyPrefix: `test:b:${Math.random()}`, points: 1, durationSeconds: 60 });
    expect((await a.hit("k")).allowed).toBe(true);
    expect((await b.hit("k")).allowed).toBe(true);
    expect(await b.hit("k")).toMatchObject({ allowed: false, remaining: 0 });
    expect(await a.peek("k")).toMatchObject({ allowed: true, remaining: 1 });
    expect(await a.hit("k")).toMatchObject({ allowed: true, remaining: 0 });
    const refused = await a.hit("k");
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    await a.reset("k");
    expect((await a.hit("k")).allowed).toBe(true);
  });
});

describe("rate limits without a reachable Redis", () => {
  it("keep counting in memory instead of failing requests", async () => {
    const t = await createTestApp({ REDIS_URL: "redis://127.0.0.1:1" });
    try {
      expect(t.ctx.redis).toBeDefined();
      const limiter = createLimiter({ ctx: t.ctx, keyPrefix: "down", points: 1, durationSeconds: 60 });
      expect((await limiter.hit("k")).allowed).toBe(true);
      expect((await limiter.hit("k")).allowed).toBe(false);
      const { username } = await signUpUser(t.app);
      expect((await new TestClient(t.app).post("/api/auth/signin", { username, password: PASSWORD })).status).toBe(200);
    } finally {
      await t.close();
    }
  }, 60_000);
});
