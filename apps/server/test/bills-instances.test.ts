/**
 * Two app instances (two buildApp + job runners) on one PostgreSQL database: every job of a schedule occurrence
 * (daily-bill finalization, alert evaluation), every export and every e-mail runs exactly once, whichever instance
 * claims it. PGlite has one process (its runs are covered by bills.test.ts and alerts.test.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantBalance } from "../src/modules/billing/grant-balance.ts";
import { createApiKey } from "../src/modules/keys/create-api-key.ts";
import { insertBill, signUp, type TestUser } from "./console-helpers.ts";
import { testEnv } from "./env.ts";
import { createTestApp, type TestApp } from "./helpers.ts";
import { startSmtpServer } from "./support/smtp.ts";

const SH = (local: string) => new Date(`${local}+08:00`).getTime();

describe.skipIf(!testEnv.databaseUrl)("jobs on two instances (PostgreSQL)", () => {
  let now = SH("2027-05-06T06:59:30");
  const clock = { now: () => new Date(now) };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-bills2-"));
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let a: TestApp;
  let b: TestApp;
  const users: TestUser[] = [];
  let puts = 0;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    const env = {
      DATA_DIR: dataDir,
      SESSION_TTL_HOURS: "2160",
      MAIL_TRANSPORT: "smtp",
      SMTP_HOST: "127.0.0.1",
      SMTP_PORT: String(smtp.port),
    };
    a = await createTestApp(env, { clock });
    b = await createTestApp(env, { clock, database: a.ctx.database });
    for (const t of [a, b]) {
      const put = t.ctx.exportFiles.put;
      t.ctx.exportFiles.put = (key, p) => {
        puts++;
        return put(key, p);
      };
    }
    for (let i = 0; i < 5; i++) {
      const u = await signUp(a);
      users.push(u);
      const key = await createApiKey({
        db: a.ctx.db,
        orgId: u.orgId,
        projectId: u.defaultProjectId,
        name: "k",
        createdBy: u.userId,
      });
      await insertBill(a, {
        orgId: u.orgId,
        projectId: u.defaultProjectId,
        apiKeyId: key.id,
        consumption: 1000n,
        createdAt: new Date(SH("2027-04-20T10:00:00")),
      });
      await insertBill(a, {
        orgId: u.orgId,
        projectId: u.defaultProjectId,
        apiKeyId: key.id,
        consumption: 7n,
        createdAt: new Date(SH("2027-05-05T10:00:00")),
      });
      await grantBalance({ ctx: a.ctx, orgId: u.orgId, amount: 1_000_000_000n, note: "t", createdBy: u.userId });
      const put = await u.client.put(`/api/orgs/${u.orgId}/alerts`, {
        balanceEnabled: true,
        balanceThreshold: 100,
        recipients: [`owner${i}@example.test`],
      });
      expect(put.status).toBe(200);
    }
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await smtp?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("each scheduled run, export and e-mail runs once", async () => {
    // Periodic rows are laid down by both instances at their first run (an upsert: one row per schedule).
    await Promise.all([a.ctx.jobs.runDue(), b.ctx.jobs.runDue()]);
    for (const u of users.slice(0, 3)) {
      const res = await u.client.post(`/api/orgs/${u.orgId}/bill-exports`, { month: "2027-04", format: "xlsx" });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    now = SH("2027-05-06T07:00:00");
    let ran = 0;
    for (;;) {
      const [x, y] = await Promise.all([a.ctx.jobs.runDue({ batch: 1 }), b.ctx.jobs.runDue({ batch: 1 })]);
      ran += x + y;
      if (x + y === 0) break;
    }
    // The every-minute jobs (expire-vouchers, alerts.evaluate, payments.close-unpaid, caching.storage,
    // invoices.red-letter-timeout), finalize (cn, 07:00 Shanghai; the global edition's 07:00 is hours away),
    // 3 exports, 5 e-mails.
    expect(ran).toBe(5 + 1 + 3 + 5);
    expect(puts).toBe(3);
    expect(smtp.received.map((m) => m.to[0]).sort()).toEqual(users.map((_, i) => `owner${i}@example.test`).sort());
    const states = await a.ctx.db.select().from(schema.billStates);
    for (const u of users) expect(states.find((s) => s.orgId === u.orgId)?.closedThrough).toBe("2027-05-05");
    const exports = await a.ctx.db.select().from(schema.billExports);
    expect(exports.map((e) => e.status)).toEqual(["success", "success", "success"]);
    const rows = await a.ctx.db.select().from(schema.dailyBills).where(eq(schema.dailyBills.orgId, users[0]!.orgId));
    expect(rows.map((r) => [r.day, r.consumption])).toEqual(
      expect.arrayContaining([
        ["2027-04-20", 1000n],
        ["2027-05-05", 7n],
      ]),
    );
  });
});
