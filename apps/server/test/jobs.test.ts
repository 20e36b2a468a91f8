/**
 * The durable job runner (src/jobs): retries with backoff, periodic schedules under a moved clock, exactly-once
 * claims with two instances on one database (PostgreSQL: SKIP LOCKED across connections; PGlite: one process),
 * and the in-process polling loop with a graceful stop.
 */
import { parseMoney } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backoffMs } from "../src/jobs/runner.ts";
import { nextDailyAt } from "../src/lib/edition-time.ts";
import { listLedgerEntries } from "../src/modules/billing/index.ts";
import { grantVoucher, orgMoney, seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp, testClock } from "./helpers.ts";

const clock = testClock();
let t: TestApp;
let b: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { clock });
  b = await createTestApp({}, { clock, database: t.ctx.database });
});
afterAll(async () => {
  await b?.close();
  await t?.close();
});

async function jobRow(id: string) {
  const [row] = await t.ctx.db.select().from(schema.jobs).where(eq(schema.jobs.id, id));
  return row;
}

describe("job runner", () => {
  it("retries a failing job with exponential backoff, then deletes it once it succeeds", async () => {
    let calls = 0;
    t.ctx.jobs.define<{ n: number }>({
      name: "test.flaky",
      async handler(payload) {
        calls++;
        expect(payload).toEqual({ n: 7 });
        if (calls < 3) throw new Error(`failure ${calls}`);
      },
    });
    // Counted by the handler's calls: the app's own periodic jobs may run in the same runDue.
    const id = (await t.ctx.jobs.enqueue({ name: "test.flaky", payload: { n: 7 } }))!;
    await t.ctx.jobs.runDue();
    expect(calls).toBe(1);
    const afterFirst = (await jobRow(id))!;
    expect(afterFirst).toMatchObject({ status: "pending", attempts: 1, lockedBy: null });
    expect(afterFirst.lastError).toContain("failure 1");
    expect(afterFirst.runAt.getTime() - clock.now().getTime()).toBeGreaterThan(backoffMs(1) - 1000);
    // Not due yet: nothing runs until the clock passes the backoff.
    await t.ctx.jobs.runDue();
    expect(calls).toBe(1);
    clock.advance(backoffMs(1));
    await t.ctx.jobs.runDue();
    expect(calls).toBe(2);
    const afterSecond = (await jobRow(id))!;
    expect(afterSecond.attempts).toBe(2);
    expect(afterSecond.runAt.getTime() - afterFirst.runAt.getTime()).toBeGreaterThanOrEqual(backoffMs(2) - 1000);
    clock.advance(backoffMs(1));
    await t.ctx.jobs.runDue(); // 2 s backoff now
    expect(calls).toBe(2);
    clock.advance(backoffMs(2));
    await t.ctx.jobs.runDue();
    expect(calls).toBe(3);
    expect(await jobRow(id)).toBeUndefined();
  });

  it("parks a job that keeps failing as failed, with its last error, after maxAttempts", async () => {
    t.ctx.jobs.define({
      name: "test.broken",
      async handler() {
        throw new TypeError("always");
      },
    });
    const id = (await t.ctx.jobs.enqueue({ name: "test.broken", maxAttempts: 2 }))!;
    await t.ctx.jobs.runDue();
    clock.advance(backoffMs(1));
    await t.ctx.jobs.runDue();
    expect(await jobRow(id)).toMatchObject({ status: "failed", attempts: 2, lastError: "TypeError: always" });
    clock.advance(3_600_000);
    await t.ctx.jobs.runDue();
    expect(await jobRow(id)).toMatchObject({ status: "failed", attempts: 2 });
  });

  it("keeps a singleton key unique: enqueueing it again is a no-op", async () => {
    let ran = 0;
    t.ctx.jobs.define({
      name: "test.single",
      async handler() {
        ran++;
      },
    });
    const first = await t.ctx.jobs.enqueue({ name: "test.single", key: "export:org1:2026-11" });
    const second = await t.ctx.jobs.enqueue({ name: "test.single", key: "export:org1:2026-11" });
    expect(first).not.toBeNull();
    expect(second).toBeNull();
    await t.ctx.jobs.runDue();
    expect(ran).toBe(1);
  });

  it("runs 200 jobs exactly once when two instances claim them concurrently", async () => {
    const runs = new Map<number, string[]>();
    for (const [app, name] of [
      [t, "a"],
      [b, "b"],
    ] as const) {
      app.ctx.jobs.define<{ i: number }>({
        name: "test.many",
        async handler({ i }) {
          runs.set(i, [...(runs.get(i) ?? []), name]);
          await new Promise((r) => setTimeout(r, 1));
        },
      });
    }
    for (let i = 0; i < 200; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, k) => t.ctx.jobs.enqueue({ name: "test.many", payload: { i: i + k } })),
      );
    }
    const [ranA, ranB] = await Promise.all([t.ctx.jobs.runDue({ batch: 5 }), b.ctx.jobs.runDue({ batch: 5 })]);
    expect(ranA + ranB).toBeGreaterThanOrEqual(200);
    expect(runs.size).toBe(200);
    expect([...runs.values()].filter((who) => who.length !== 1)).toEqual([]);
    if (t.ctx.database.kind === "postgres") {
      // Both instances took part (SKIP LOCKED let them claim different rows side by side).
      expect(ranA).toBeGreaterThan(0);
      expect(ranB).toBeGreaterThan(0);
    }
    const left = await t.ctx.db.select().from(schema.jobs).where(eq(schema.jobs.name, "test.many"));
    expect(left).toEqual([]);
  });

  it("runs periodic jobs once per occurrence as the clock moves: every minute, and daily at 07:00 in the zone", async () => {
    const minutely: string[] = [];
    const daily: string[] = [];
    // Start at the next 04:00 UTC (noon in Shanghai), whatever the real time: the minute steps below must not
    // cross 07:00 in Shanghai before the test jumps there (it did when the suite ran shortly before it).
    const now = clock.now().getTime();
    clock.advance((((4 * 3_600_000 - (now % 86_400_000)) % 86_400_000) + 86_400_000) % 86_400_000);
    for (const app of [t, b]) {
      app.ctx.jobs.periodic({
        name: "test.minutely",
        schedule: { everyMinutes: 1 },
        async handler({ scheduledAt }) {
          minutely.push(scheduledAt);
        },
      });
      app.ctx.jobs.periodic({
        name: "test.daily",
        schedule: { dailyAt: "07:00", timeZone: "Asia/Shanghai" },
        async handler({ scheduledAt }) {
          daily.push(scheduledAt);
        },
      });
    }
    // 5 s past a minute boundary, so the real time that passes during the test cannot reach the next one.
    clock.advance((65_000 - (clock.now().getTime() % 60_000)) % 60_000);
    const start = clock.now().getTime();
    await Promise.all([t.ctx.jobs.runDue(), b.ctx.jobs.runDue()]);
    expect(minutely).toEqual([]);
    const firstMinute = Math.floor(start / 60_000) * 60_000 + 60_000;
    clock.advance(firstMinute - start);
    await Promise.all([t.ctx.jobs.runDue(), b.ctx.jobs.runDue()]);
    await Promise.all([t.ctx.jobs.runDue(), b.ctx.jobs.runDue()]);
    expect(minutely).toEqual([new Date(firstMinute).toISOString()]);
    clock.advance(60_000);
    await Promise.all([t.ctx.jobs.runDue(), b.ctx.jobs.runDue()]);
    expect(minutely).toHaveLength(2);

    // Jump to the next 07:00 in Shanghai, then past it: the daily job runs once for that morning.
    const seven = nextDailyAt(clock.now().getTime(), "Asia/Shanghai", "07:00");
    expect(daily).toEqual([]);
    clock.advance(seven - clock.now().getTime() - 5000);
    await t.ctx.jobs.runDue();
    expect(daily).toEqual([]);
    clock.advance(5000);
    await Promise.all([t.ctx.jobs.runDue(), b.ctx.jobs.runDue()]);
    const minutelyBefore = minutely.length;
    clock.advance(3_600_000);
    await Promise.all([t.ctx.jobs.runDue(), b.ctx.jobs.runDue()]);
    await Promise.all([t.ctx.jobs.runDue(), b.ctx.jobs.runDue()]);
    expect(daily).toEqual([new Date(seven).toISOString()]);
    const [row] = await t.ctx.db.select().from(schema.jobs).where(eq(schema.jobs.key, "periodic:test.daily"));
    expect(row!.runAt.toISOString()).toBe(new Date(seven + 86_400_000).toISOString());
    // The 60 minutes the clock jumped over collapse into one run, not a catch-up storm; no occurrence ran twice.
    expect(minutely.length - minutelyBefore).toBe(1);
    expect(new Set(minutely).size).toBe(minutely.length);
  });

  it("writes off expired vouchers from the periodic billing job, with ledger entries", async () => {
    const a = await seedAccount(t.ctx);
    await grantVoucher(t.ctx, a.orgId, "2", new Date(clock.now().getTime() + 30_000));
    clock.advance(120_000);
    await t.ctx.jobs.runDue();
    const money = await orgMoney(t.ctx.db, a.orgId);
    expect(money.voucherRemaining).toBe(0n);
    expect(money.ledgerVoucher).toBe(0n);
    const [writeOff] = await listLedgerEntries({ db: t.ctx.db, kind: "voucher_expiry" });
    expect(writeOff).toMatchObject({ orgId: a.orgId, voucherDelta: -parseMoney("2") });
  });

  it("polls by itself once started, and stop() waits for the job that is running", async () => {
    let release!: () => void;
    let started!: () => void;
    const running = new Promise<void>((r) => {
      started = r;
    });
    let finished = false;
    b.ctx.jobs.define({
      name: "test.slow",
      async handler() {
        started();
        await new Promise<void>((r) => {
          release = r;
        });
        finished = true;
      },
    });
    b.ctx.jobs.start({ pollMs: 10 });
    await t.ctx.jobs.enqueue({ name: "test.slow" });
    await running;
    const stopping = b.ctx.jobs.stop();
    let stopped = false;
    void stopping.then(() => {
      stopped = true;
    });
    await new Promise((r) => setImmediate(r));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(finished).toBe(true);
    const left = await t.ctx.db.select().from(schema.jobs).where(eq(schema.jobs.name, "test.slow"));
    expect(left).toEqual([]);
  });
});
