/**
 * Two app instances (two buildApp + job runners) on one PostgreSQL database: context cache storage is billed once
 * per started minute, whichever instance claims each run, even when both run their due jobs at the same moment.
 */
import { CONTEXT_CACHING_PRICES, perTokenNanos } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listLedgerEntries } from "../src/modules/billing/index.ts";
import { billStorage } from "../src/modules/caches/cache-jobs.ts";
import { createCache } from "../src/modules/caches/create-cache.ts";
import { testEnv } from "./env.ts";
import { seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

describe.skipIf(!testEnv.databaseUrl)("context cache storage on two instances (PostgreSQL)", () => {
  let now = Date.parse("2027-03-01T10:00:30Z");
  const clock = { now: () => new Date(now) };
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await createTestApp({}, { clock });
    b = await createTestApp({}, { clock, database: a.ctx.database });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it("bills each started minute once", async () => {
    const acct = await seedAccount(a.ctx, { cash: "100", tierOverride: 5 });
    const cache = await createCache({
      ctx: a.ctx,
      key: { keyId: acct.keyId, orgId: acct.orgId, projectId: acct.projectId, currency: "CNY" },
      body: {
        model: "moonshot-v1",
        messages: [{ role: "system", content: "A handbook. ".repeat(200) }],
        ttl: 3600,
      },
    });
    const both = () => Promise.all([a.ctx.jobs.runDue(), b.ctx.jobs.runDue()]);
    await both(); // prepare: ready at 10:00:30
    for (let i = 0; i < 6; i++) {
      now += 60_000;
      await both();
      await both();
    }
    await a.ctx.meter.flush();
    await b.ctx.meter.flush();
    const rows = await a.ctx.db
      .select()
      .from(schema.requestBills)
      .where(eq(schema.requestBills.contextCacheId, cache.id));
    const storage = rows.filter((r) => r.productName === "context_cache_storage");
    // Ready at 10:00:30, last run at 10:06:30: the minutes starting 10:00:30 … 10:05:30 have started, 6 in all
    // (the seventh starts at the very instant of the last run and has lasted nothing yet).
    expect(storage).toHaveLength(6);
    expect(new Set(storage.map((r) => r.id)).size).toBe(6);
    const perMinute = BigInt(cache.tokens) * perTokenNanos(CONTEXT_CACHING_PRICES.CNY.storagePerMinute);
    expect(storage.every((r) => r.consumption === perMinute)).toBe(true);
    expect(rows.filter((r) => r.productName === "context_cache_creation")).toHaveLength(1);
    // The ledger agrees with the bills: Σ charges = Σ consumption of this organization's lines.
    // Both instances billing the same cache at once from a stale row (as two overlapping runs would): the line ids
    // of each minute are the same, so nothing is billed twice.
    const [stale] = await a.ctx.db.select().from(schema.contextCaches).where(eq(schema.contextCaches.id, cache.id));
    await Promise.all([
      billStorage(a.ctx, { ...stale!, storageMinutesBilled: 2 }, new Date(now)),
      billStorage(b.ctx, { ...stale!, storageMinutesBilled: 0 }, new Date(now)),
    ]);
    await Promise.all([a.ctx.meter.flush(), b.ctx.meter.flush()]);
    const again = await a.ctx.db
      .select()
      .from(schema.requestBills)
      .where(eq(schema.requestBills.contextCacheId, cache.id));
    expect(again).toHaveLength(rows.length);
    const ledger = await listLedgerEntries({ db: a.ctx.db, orgId: acct.orgId });
    const charged = ledger.filter((l) => l.kind === "charge").reduce((s, l) => s - l.cashDelta - l.voucherDelta, 0n);
    expect(charged).toBe(rows.reduce((s, r) => s + r.consumption, 0n));
  });
});
