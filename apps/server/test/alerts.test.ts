/**
 * Alert settings and alert e-mails: the balance alert (once below the threshold, re-armed above it), project
 * consumption alerts (once per period), delivered through a local SMTP server on loopback; the mail job's retries;
 * the development outbox.
 */
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderMail } from "../src/mail/templates.ts";
import { debitCash } from "../src/modules/billing/credit.ts";
import { grantBalance } from "../src/modules/billing/grant-balance.ts";
import { createApiKey } from "../src/modules/keys/create-api-key.ts";
import { insertBill, signUp, type TestUser } from "./console-helpers.ts";
import { createTestApp, type TestApp } from "./helpers.ts";
import { startSmtpServer, textPart } from "./support/smtp.ts";

const U = 1_000_000_000n;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let rejecting = false;
let t: TestApp;
let admin: TestUser;

const DAY_MS = 86_400_000;
/**
 * The day after tomorrow, 04:00 UTC: noon in Asia/Shanghai (the cn edition's day) and early morning in UTC (the
 * global edition's), so the minutes the tests advance never cross a day or a month in either zone. In the future,
 * so jobs scheduled on the real clock are due. (It was now + 24 h: run at about 15:50–16:00 UTC, the daily alert's
 * two spends fell on two Shanghai days.)
 */
const base = (Math.floor(Date.now() / DAY_MS) + 2) * DAY_MS + 4 * 3_600_000;
let offset = 0;
const clock = {
  now: () => new Date(base + offset),
  advance: (ms: number) => {
    offset += ms;
  },
};

/** Runs due jobs until none is left (alerts enqueue mail jobs that run in the next batch). */
async function drain() {
  while ((await t.ctx.jobs.runDue()) > 0) {
    /* again */
  }
}

beforeAll(async () => {
  smtp = await startSmtpServer({ reject: () => rejecting });
  t = await createTestApp(
    {
      MAIL_TRANSPORT: "smtp",
      SMTP_HOST: "127.0.0.1",
      SMTP_PORT: String(smtp.port),
      MAIL_FROM: "Moonport Alerts <alerts@example.test>",
      BRAND_NAME: "Acme AI",
    },
    { clock },
  );
  admin = await signUp(t);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const A = () => `/api/orgs/${admin.orgId}/alerts`;
const valid = { balanceEnabled: true, balanceThreshold: 200, recipients: ["ops@example.test", "cfo@example.test"] };

describe("alert settings", () => {
  it("start off, and save a valid setting", async () => {
    const first = await admin.client.get(A());
    expect(first.body).toMatchObject({ balanceEnabled: false, recipients: [], currency: "CNY" });
    const saved = await admin.client.put(A(), valid);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ ...valid, armed: true });
  });

  it("refuse bad thresholds and recipients with field messages in the caller's language, changing nothing", async () => {
    const bad: [unknown, string, string, string][] = [
      [{ ...valid, balanceThreshold: 1.5 }, "balanceThreshold", "Enter a whole number.", "请输入整数。"],
      [
        { ...valid, balanceThreshold: -1 },
        "balanceThreshold",
        "Enter a whole number from 0 to 1,000,000.",
        "请输入 0 到 1,000,000 之间的整数。",
      ],
      [
        { ...valid, balanceThreshold: 1_000_001 },
        "balanceThreshold",
        "Enter a whole number from 0 to 1,000,000.",
        "请输入 0 到 1,000,000 之间的整数。",
      ],
      [{ ...valid, recipients: [] }, "recipients", "Enter 1 to 5 e-mail addresses.", "请填写 1 到 5 个邮箱地址。"],
      [
        { ...valid, recipients: ["a@x.io", "b@x.io", "c@x.io", "d@x.io", "e@x.io", "f@x.io"] },
        "recipients",
        "Enter 1 to 5 e-mail addresses.",
        "请填写 1 到 5 个邮箱地址。",
      ],
      [
        { ...valid, recipients: ["not-an-address"] },
        "recipients.0",
        "Enter a valid e-mail address.",
        "请输入有效的邮箱地址。",
      ],
      [
        { ...valid, recipients: ["a@x.io", "A@X.io"] },
        "recipients.1",
        "This address is listed twice.",
        "该邮箱地址重复。",
      ],
    ];
    const before = await t.ctx.db
      .select()
      .from(schema.alertSettings)
      .where(eq(schema.alertSettings.orgId, admin.orgId));
    for (const [body, field, en, zh] of bad) {
      admin.client.locale = "en-US";
      const a = await admin.client.put(A(), body);
      expect(a.status, JSON.stringify(body)).toBe(400);
      expect(a.body.error.details).toContainEqual({ path: field, message: en });
      admin.client.locale = "zh-CN";
      const z = await admin.client.put(A(), body);
      expect(z.body.error.details).toContainEqual({ path: field, message: zh });
    }
    admin.client.locale = "en-US";
    const after = await t.ctx.db.select().from(schema.alertSettings).where(eq(schema.alertSettings.orgId, admin.orgId));
    expect(after).toEqual(before);
  });
});

describe("balance alert e-mails", () => {
  it("sends exactly one e-mail below the threshold, re-arms above it, and sends again on the next fall", async () => {
    await grantBalance({ ctx: t.ctx, orgId: admin.orgId, amount: 100n * U, note: "test", createdBy: admin.userId });
    await admin.client.put(A(), valid);
    const n0 = smtp.received.length;
    await drain(); // the first run schedules the minute job at the next minute boundary
    clock.advance(60_000);
    await drain();
    expect(smtp.received.length).toBe(n0 + 1);
    const mail = smtp.received.at(-1)!;
    expect(mail.to.sort()).toEqual(["cfo@example.test", "ops@example.test"]);
    expect(mail.raw).toContain("Subject: =?UTF-8?Q?Acme_AI=3A_available_balance_below_");
    expect(mail.raw).toMatch(/From: Moonport Alerts <alerts@example\.test>/);
    expect(mail.raw).toContain("text/html");
    const text = textPart(mail.raw);
    expect(text).toContain("is ¥100.00, below your alert threshold of ¥200.00");

    // Still below: no second e-mail, however often it runs.
    for (let i = 0; i < 3; i++) {
      clock.advance(60_000);
      await drain();
    }
    expect(smtp.received.length).toBe(n0 + 1);
    expect((await admin.client.get(A())).body.armed).toBe(false);

    // Rises to the threshold: re-armed, no e-mail.
    await grantBalance({ ctx: t.ctx, orgId: admin.orgId, amount: 150n * U, note: "test", createdBy: admin.userId });
    clock.advance(60_000);
    await drain();
    expect((await admin.client.get(A())).body.armed).toBe(true);
    expect(smtp.received.length).toBe(n0 + 1);

    // Falls again: one more.
    await debitCash({
      ctx: t.ctx,
      orgId: admin.orgId,
      amount: 100n * U,
      kind: "refund",
      reference: "r-1",
      note: "test",
    });
    clock.advance(60_000);
    await drain();
    expect(smtp.received.length).toBe(n0 + 2);
  });

  it("retries an e-mail the SMTP server refuses, with backoff, until it is accepted", async () => {
    await t.ctx.db.update(schema.alertSettings).set({ armed: true }).where(eq(schema.alertSettings.orgId, admin.orgId));
    const n0 = smtp.received.length;
    rejecting = true;
    clock.advance(60_000);
    await drain();
    const [job] = await t.ctx.db.select().from(schema.jobs).where(eq(schema.jobs.name, "mail.send"));
    expect(job).toMatchObject({ status: "pending", attempts: 1 });
    expect(job!.lastError).toContain("mailbox unavailable");
    expect(job!.runAt.getTime() - clock.now().getTime()).toBe(1000);
    expect(smtp.received.length).toBe(n0);
    rejecting = false;
    clock.advance(1000);
    await drain();
    expect(smtp.received.length).toBe(n0 + 1);
    expect(await t.ctx.db.select().from(schema.jobs).where(eq(schema.jobs.name, "mail.send"))).toEqual([]);
  });
});

describe("project consumption alerts", () => {
  it("e-mail once per day and once per month when a project's consumption reaches its alert", async () => {
    const key = await createApiKey({
      db: t.ctx.db,
      orgId: admin.orgId,
      projectId: admin.defaultProjectId,
      name: "k",
      createdBy: admin.userId,
    });
    const patch = await admin.client.patch(`/api/orgs/${admin.orgId}/projects/${admin.defaultProjectId}`, {
      dailyBudget: 100,
      monthlyBudget: 1000,
      dailyAlert: 3,
      monthlyAlert: 5,
    });
    expect(patch.status, JSON.stringify(patch.body)).toBe(200);
    const n0 = smtp.received.length;
    const spend = (units: bigint) =>
      insertBill(t, {
        orgId: admin.orgId,
        projectId: admin.defaultProjectId,
        apiKeyId: key.id,
        consumption: units * U,
        createdAt: clock.now(),
      });
    await spend(2n);
    clock.advance(60_000);
    await drain();
    expect(smtp.received.length).toBe(n0);
    await spend(2n); // 4 today: the daily alert of 3
    clock.advance(60_000);
    await drain();
    expect(smtp.received.length).toBe(n0 + 1);
    expect(smtp.received.at(-1)!.raw).toContain("daily consumption reached");
    await spend(2n); // 6: the monthly alert of 5
    clock.advance(60_000);
    await drain();
    clock.advance(60_000);
    await drain();
    const sends = await t.ctx.db
      .select()
      .from(schema.projectAlertSends)
      .where(eq(schema.projectAlertSends.projectId, admin.defaultProjectId));
    expect(sends.map((s) => s.kind).sort()).toEqual(["daily", "monthly"]);
    expect(smtp.received.length).toBe(n0 + 2);
  });
});

describe("templates", () => {
  it("every e-mail is localized, carries the brand and escapes values in HTML", () => {
    for (const locale of ["en-US", "zh-CN"] as const) {
      const m = renderMail({
        template: "balance_low",
        locale,
        brand: "Acme <AI>",
        to: ["x@y.z"],
        params: { org: "<b>org</b>", available: "¥1.00", threshold: "¥2.00", consoleUrl: "https://x/console" },
      });
      expect(m.subject).toContain("Acme <AI>");
      expect(m.html).toContain("&lt;b&gt;org&lt;/b&gt;");
      expect(m.html).not.toContain("<b>org</b>");
      expect(m.text).toContain("<b>org</b>");
      expect(m.subject).toContain(locale === "zh-CN" ? "可用余额低于" : "available balance below");
    }
  });
});

describe("development outbox", () => {
  it("keeps what MAIL_TRANSPORT=dev would have sent, readable from loopback only", async () => {
    const dev = await createTestApp({}, { clock });
    try {
      const u = await signUp(dev);
      await grantBalance({ ctx: dev.ctx, orgId: u.orgId, amount: 1n * U, note: "t", createdBy: u.userId });
      await u.client.put(`/api/orgs/${u.orgId}/alerts`, { ...valid, recipients: ["dev@example.test"] });
      await dev.ctx.jobs.runDue();
      clock.advance(60_000);
      while ((await dev.ctx.jobs.runDue()) > 0) {
        /* again */
      }
      const res = await dev.app.inject({
        method: "GET",
        url: "/api/dev/mail-outbox?to=dev@example.test",
        remoteAddress: "127.0.0.1",
      });
      const mails = res.json();
      expect(mails).toHaveLength(1);
      expect(mails[0].subject).toContain("Moonport");
      const outside = await dev.app.inject({ method: "GET", url: "/api/dev/mail-outbox", remoteAddress: "10.1.2.3" });
      expect(outside.statusCode).toBe(404);
    } finally {
      await dev.close();
    }
  }, 120_000);
});
