/**
 * A crash between the response and the database commit must not lose the bill, and replaying must not bill twice.
 * The crash is simulated by dropping a pipeline (`abandon()`: its batch writer stops before committing, its journal
 * file is left as a killed process leaves it), then starting a new instance on the same database and journal
 * directory.
 */
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { findModel, parseMoney } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { inferenceCost } from "../src/metering/pricing.ts";
import { listLedgerEntries } from "../src/modules/billing/index.ts";
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
    first.ctx.meter.abandon();
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
      app.ctx.meter.abandon();
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

  it("a crash mid-stream bills the prompt and the chunks already sent, exactly once; a settled stream once", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-stream-crash-"));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const app = await createTestApp(
      { BILLING_JOURNAL_DIR: dir, SIMULATOR_DELAY_MS: "4" },
      { database: first.ctx.database },
    );
    onTestFinished(() => app.close());
    const acct = await seedAccount(app.ctx, { cash: "10", tierOverride: 5 });
    const { currency } = await app.ctx.meter.authenticate(`Bearer ${acct.key}`);
    await app.app.listen({ port: 0, host: "127.0.0.1" });
    const base = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}/v1`;
    const stream = (content: string, maxTokens: number, n = 1) =>
      fetch(`${base}/chat/completions`, {
        method: "POST",
        headers: { authorization: `Bearer ${acct.key}`, "content-type": "application/json" },
        body: JSON.stringify({
          model: "moonshot-v1-8k",
          stream: true,
          max_tokens: maxTokens,
          n,
          temperature: 0.8,
          messages: [{ role: "user", content }],
        }),
      });
    // One stream that ends normally before the crash: billed once, from its settled entry.
    const done = await (await stream("Say hello.", 20)).text();
    expect(done).toContain("data: [DONE]");

    // Three choices, so the stream is long enough to crash in the middle of it.
    const res = await stream("Tell me a very long story about the sea, ships, storms and the people on them.", 2000, 3);
    const requestId = res.headers.get("msh-request-id")!;
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const chunks = () => (text.match(/"delta":\{"content":/g) ?? []).length;
    while (chunks() < 125) {
      const r = await reader.read();
      if (r.done) break;
      text += decoder.decode(r.value);
    }
    expect(chunks()).toBeGreaterThanOrEqual(125);
    // Let the journal's progress interval (100 ms) record what was sent, then crash mid-stream.
    await new Promise((r) => setTimeout(r, 250));
    app.ctx.meter.abandon();
    await reader.cancel();
    const before = await orgMoney(app.ctx.db, acct.orgId);
    expect(before.bills.requests).toBeLessThanOrEqual(1);

    const saved = fs.readdirSync(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), "utf8")] as const);
    const next = await createTestApp({ BILLING_JOURNAL_DIR: dir }, { database: first.ctx.database });
    try {
      const bills = await next.ctx.db
        .select()
        .from(schema.requestBills)
        .where(eq(schema.requestBills.orgId, acct.orgId));
      expect(bills).toHaveLength(2);
      const crashed = bills.find((b) => b.requestId === requestId)!;
      expect(crashed.status).toBe("interrupted");
      expect(crashed.inputTokens).toBeGreaterThan(10);
      // What the last progress record says was produced: about what the client had read 250 ms before the
      // crash (125 chunks of about a token each), at most what the simulator could add by then (one token per
      // 4 ms per choice).
      expect(crashed.outputTokens).toBeGreaterThanOrEqual(100);
      expect(crashed.outputTokens).toBeLessThanOrEqual(125 + 3 * (250 / 4) + 60);
      // At the prices journaled at admission (the catalog's, here).
      expect(crashed.consumption).toBe(
        inferenceCost(findModel("moonshot-v1-8k")!, currency, {
          promptTokens: crashed.inputTokens,
          completionTokens: crashed.outputTokens,
          cachedTokens: crashed.cachedTokens,
        }),
      );
      expect(bills.find((b) => b.requestId !== requestId)!.status).toBe("ok");
      const money = await orgMoney(next.ctx.db, acct.orgId);
      expect(money.cash).toBe(parseMoney("10") - money.bills.consumption);
      expect(money.ledgerCash).toBe(money.cash);
    } finally {
      await next.close();
    }

    // The same journal replayed again bills nothing more.
    for (const [f, content] of saved) fs.writeFileSync(path.join(dir, f), content);
    const again = await createTestApp({ BILLING_JOURNAL_DIR: dir }, { database: first.ctx.database });
    try {
      const money = await orgMoney(again.ctx.db, acct.orgId);
      expect(money.bills.count).toBe(2);
      expect(money.cash).toBe(parseMoney("10") - money.bills.consumption);
    } finally {
      await again.close();
    }
  });

  it("a bill that cannot be committed does not hold back the others", async () => {
    // (`first` crashed in the first test; a fresh instance on the same database.)
    const app = await createTestApp({}, { database: first.ctx.database });
    onTestFinished(() => app.close());
    const doomed = await seedAccount(app.ctx, { cash: "10" });
    const fine = await seedAccount(app.ctx, { cash: "10" });
    const admit = async (key: string, requestId: string) => {
      const identity = await app.ctx.meter.authenticate(`Bearer ${key}`);
      return app.ctx.meter.admit({ key: identity, requestId, model: "moonshot-v1-8k", admissionTokens: 10 });
    };
    const a = await admit(doomed.key, "doomed-1");
    const b = await admit(fine.key, "fine-1");
    // The organization disappears while its request is in flight: its ledger entry can no longer be written.
    await app.ctx.db.delete(schema.organizations).where(eq(schema.organizations.id, doomed.orgId));
    const usage = { promptTokens: 10, completionTokens: 10, cachedTokens: 0 };
    await Promise.all([
      app.ctx.meter.settle({ admission: a, usage, webSearchCalls: 0, status: "ok" }),
      app.ctx.meter.settle({ admission: b, usage, webSearchCalls: 0, status: "ok" }),
    ]);
    await app.ctx.meter.flush();
    const money = await orgMoney(app.ctx.db, fine.orgId);
    expect(money.bills.count).toBe(1);
    expect(money.ledgerCash).toBe(money.cash);
    const orphan = await app.ctx.db
      .select()
      .from(schema.requestBills)
      .where(eq(schema.requestBills.requestId, "doomed-1"));
    expect(orphan).toEqual([]);
  });

  it("a batch whose commit went through but was reported failed (a lost acknowledgement) is charged once", async () => {
    const app = await createTestApp({}, { database: first.ctx.database });
    onTestFinished(() => app.close());
    const acct = await seedAccount(app.ctx, { cash: "10" });
    const identity = await app.ctx.meter.authenticate(`Bearer ${acct.key}`);
    // The first batch commits, then its caller hears an error: the retry must find the lines and skip them, not
    // trust that fresh lines cannot be in the database yet.
    const db = app.ctx.db as unknown as { transaction: (...a: unknown[]) => Promise<unknown> };
    const transaction = db.transaction.bind(db);
    let lost = 0;
    db.transaction = async (...a: unknown[]) => {
      const result = await transaction(...a);
      if (lost++ === 0) throw new Error("connection lost after COMMIT");
      return result;
    };
    onTestFinished(() => {
      db.transaction = transaction;
    });
    const usage = { promptTokens: 10, completionTokens: 10, cachedTokens: 0 };
    for (const requestId of ["lost-ack-1", "lost-ack-2"]) {
      const admission = await app.ctx.meter.admit({
        key: identity,
        requestId,
        model: "moonshot-v1-8k",
        admissionTokens: 10,
      });
      await app.ctx.meter.settle({ admission, usage, webSearchCalls: 0, status: "ok" });
    }
    await app.ctx.meter.flush();
    expect(lost).toBeGreaterThan(1);
    const money = await orgMoney(app.ctx.db, acct.orgId);
    expect(money.bills.count).toBe(2);
    expect(money.bills.requests).toBe(2);
    expect(money.bills.cash).toBeGreaterThan(0n);
    expect(money.cash).toBe(10_000_000_000n - money.bills.cash);
    expect(money.ledgerCash).toBe(money.cash);
  });

  it("a batch writes one charge ledger entry per organization; a restart that replays committed lines changes nothing", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-batch-"));
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
    const app = await createTestApp({ BILLING_JOURNAL_DIR: dir }, { database: first.ctx.database });
    const acct = await seedAccount(app.ctx, { cash: "10", tierOverride: 5 });
    const usage = { promptTokens: 1000, completionTokens: 1000, cachedTokens: 0 }; // ¥0.012 each
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => runRequest(app.ctx, acct.key, { requestId: `batch-${i}`, usage })),
    );
    await app.ctx.meter.flush();
    const charges = async (db = app.ctx.db) => listLedgerEntries({ db, orgId: acct.orgId, kind: "charge" });
    const committed = await charges();
    const before = await orgMoney(app.ctx.db, acct.orgId);
    expect(before.bills.count).toBe(20);
    expect(before.cash).toBe(parseMoney("10") - 20n * 12_000_000n);
    // Fewer ledger rows than bill lines (one per organization per batch), adding up to the same money.
    expect(committed.length).toBeLessThan(20);
    expect(committed.reduce((s, r) => s + r.cashDelta, 0n)).toBe(-20n * 12_000_000n);
    expect(before.ledgerCash).toBe(before.cash);
    // The writer dies after its commits, before its journal is emptied: the lines are still in the file.
    app.ctx.meter.abandon();
    await app.close().catch(() => {});
    const files = fs.readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(fs.readFileSync(path.join(dir, files[0]!), "utf8").trim().split("\n")).toHaveLength(20);
    // The next instance replays them: every line is already billed, so nothing changes.
    const second = await createTestApp({ BILLING_JOURNAL_DIR: dir }, { database: first.ctx.database });
    onTestFinished(() => second.close());
    const after = await orgMoney(second.ctx.db, acct.orgId);
    expect(after.bills.count).toBe(20);
    expect(after.cash).toBe(before.cash);
    expect(after.ledgerCash).toBe(after.cash);
    expect(await charges(second.ctx.db)).toHaveLength(committed.length);
    // The claimed file is gone (the directory now holds the second instance's own journal).
    expect(fs.readdirSync(dir)).not.toContain(files[0]);
  });
});
