/**
 * A crash between the response and the database commit must not lose the bill, and replaying must not bill twice.
 * The crash is simulated by dropping a pipeline (`abandon()`: its batch writer stops before committing, its journal
 * file is left as a killed process leaves it), then starting a new instance on the same database and journal
 * directory.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseMoney } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { orgMoney, runRequest, seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

describe("bill durability across a crash", () => {
  let first: TestApp;
  let journalDir: string;
  beforeAll(async () => {
    journalDir = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-crash-"));
    first = await createTestApp({ BILLING_JOURNAL_DIR: journalDir });
  });
  afterAll(async () => {
    await first?.close();
    fs.rmSync(journalDir, { recursive: true, force: true });
  });

  it("settles journaled bills of a crashed instance exactly once when the next instance starts", async () => {
    const acct = await seedAccount(first.ctx, { cash: "10" });
    const usage = { promptTokens: 1000, completionTokens: 1000, cachedTokens: 0 }; // ¥0.012 each
    // A Tier0 organization has one concurrency slot and 3 RPM: three requests, each settled in turn.
    for (const requestId of ["crash-1", "crash-2", "crash-3"]) {
      await runRequest(first.ctx, acct.key, { requestId, usage });
    }
    // settle() has resolved for all three, so they are on disk. The batch writer may have committed the first ones
    // (it runs every 100 ms), but not the last: it was enqueued in this very tick. Crash now.
    first.ctx.gateway.abandon();
    const before = await orgMoney(first.ctx.db, acct.orgId);
    expect(before.bills.count).toBeLessThan(3);
    expect(before.cash).toBe(parseMoney("10") - BigInt(before.bills.count) * 12_000_000n);
    const files = fs.readdirSync(journalDir);
    expect(files).toHaveLength(1);
    const saved = fs.readFileSync(path.join(journalDir, files[0]!), "utf8");
    expect(saved.trim().split("\n")).toHaveLength(3);

    // The next instance replays the orphaned journal at start.
    const second = await createTestApp({ BILLING_JOURNAL_DIR: journalDir }, { database: first.ctx.database });
    try {
      const after = await orgMoney(second.ctx.db, acct.orgId);
      expect(after.bills.requests).toBe(3);
      expect(after.bills.count).toBe(3);
      expect(after.bills.consumption).toBe(3n * 12_000_000n);
      expect(after.cash).toBe(parseMoney("10") - 3n * 12_000_000n);
      expect(after.ledgerCash).toBe(after.cash);
      // The claimed file is gone once committed.
      expect(fs.readdirSync(journalDir)).not.toContain(files[0]);
    } finally {
      await second.close();
    }

    // A journal replayed again (say, a copy restored from backup) changes nothing.
    fs.writeFileSync(path.join(journalDir, files[0]!), saved);
    const third = await createTestApp({ BILLING_JOURNAL_DIR: journalDir }, { database: first.ctx.database });
    try {
      const again = await orgMoney(third.ctx.db, acct.orgId);
      expect(again.bills.count).toBe(3);
      expect(again.cash).toBe(parseMoney("10") - 3n * 12_000_000n);
      const rows = await third.ctx.db
        .select({ requestId: schema.requestBills.requestId })
        .from(schema.requestBills)
        .where(eq(schema.requestBills.orgId, acct.orgId));
      expect(rows.map((r) => r.requestId).sort()).toEqual(["crash-1", "crash-2", "crash-3"]);
    } finally {
      await third.close();
    }
  });

  it("a torn last line (a crash mid-write) is skipped and the complete lines are billed", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-torn-"));
    try {
      const app = await createTestApp({ BILLING_JOURNAL_DIR: dir }, { database: first.ctx.database });
      const acct = await seedAccount(app.ctx, { cash: "10" });
      await runRequest(app.ctx, acct.key, { requestId: "torn-1" });
      app.ctx.gateway.abandon();
      await app.close();
      const [file] = fs.readdirSync(dir);
      fs.appendFileSync(path.join(dir, file!), '{"requestId":"torn-2","orgId":');
      const next = await createTestApp({ BILLING_JOURNAL_DIR: dir }, { database: first.ctx.database });
      try {
        const money = await orgMoney(next.ctx.db, acct.orgId);
        expect(money.bills.count).toBe(1);
        expect(money.ledgerCash).toBe(money.cash);
      } finally {
        await next.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("with BILLING_JOURNAL_FSYNC=always a bill is on disk when settle resolves, and a clean close removes the journal", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-always-"));
    try {
      const app = await createTestApp(
        { BILLING_JOURNAL_DIR: dir, BILLING_JOURNAL_FSYNC: "always" },
        { database: first.ctx.database },
      );
      expect(app.config.billingJournalSync.mode).toBe("always");
      const acct = await seedAccount(app.ctx, { cash: "10" });
      await runRequest(app.ctx, acct.key, { requestId: "always-1" });
      const [file] = fs.readdirSync(dir);
      expect(fs.readFileSync(path.join(dir, file!), "utf8")).toContain('"requestId":"always-1"');
      await app.close();
      expect(fs.readdirSync(dir)).toEqual([]);
      expect((await orgMoney(first.ctx.db, acct.orgId)).bills.count).toBe(1);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a bill that cannot be committed does not hold back the others", async () => {
    // (`first` crashed in the first test; a fresh instance on the same database.)
    const app = await createTestApp({}, { database: first.ctx.database });
    onTestFinished(() => app.close());
    const doomed = await seedAccount(app.ctx, { cash: "10" });
    const fine = await seedAccount(app.ctx, { cash: "10" });
    const admit = async (key: string, requestId: string) => {
      const identity = await app.ctx.gateway.authenticate(`Bearer ${key}`);
      return app.ctx.gateway.admit({ key: identity, requestId, model: "moonshot-v1-8k", admissionTokens: 10 });
    };
    const a = await admit(doomed.key, "doomed-1");
    const b = await admit(fine.key, "fine-1");
    // The organization disappears while its request is in flight: its ledger entry can no longer be written.
    await app.ctx.db.delete(schema.organizations).where(eq(schema.organizations.id, doomed.orgId));
    const usage = { promptTokens: 10, completionTokens: 10, cachedTokens: 0 };
    await Promise.all([
      app.ctx.gateway.settle({ admission: a, usage, webSearchCalls: 0, status: "ok" }),
      app.ctx.gateway.settle({ admission: b, usage, webSearchCalls: 0, status: "ok" }),
    ]);
    await app.ctx.gateway.flush();
    const money = await orgMoney(app.ctx.db, fine.orgId);
    expect(money.bills.count).toBe(1);
    expect(money.ledgerCash).toBe(money.cash);
    const orphan = await app.ctx.db
      .select()
      .from(schema.requestBills)
      .where(eq(schema.requestBills.requestId, "doomed-1"));
    expect(orphan).toEqual([]);
  });
});
