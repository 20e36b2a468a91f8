/**
 * Contact sales and feedback: the public form (validation in both languages, the per-IP limit, the e-mails to
 * sales and to the visitor over a local SMTP server, a signed-in visitor recorded), and console feedback (fields,
 * images by signature, type and size limits, who sees which, the support e-mail).
 */
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addOrgMember, signUp, type TestUser } from "./console-helpers.ts";
import { createTestApp, type TestApp, TestClient } from "./helpers.ts";
import { startSmtpServer, textPart } from "./support/smtp.ts";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestApp;
let admin: TestUser;
let member: TestUser;

async function drain() {
  while ((await t.ctx.jobs.runDue()) > 0) {
    /* again */
  }
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp({
    MAIL_TRANSPORT: "smtp",
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(smtp.port),
    SALES_EMAIL: "sales@example.test",
    SUPPORT_EMAIL: "support@example.test",
    CONTACT_SALES_PER_IP_PER_HOUR: "3",
    BRAND_NAME: "Acme AI",
    DEFAULT_EDITION: "global",
  });
  admin = await signUp(t);
  member = await signUp(t);
  await addOrgMember(t, admin.orgId, member, "member");
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const lead = {
  topic: "rate_limits",
  name: "Ada Lovelace",
  phone: "+1 (555) 010-0100",
  email: "ada@example.test",
  company: "Analytical Engines",
  industry: "industry",
  stage: "ready",
  enterpriseCertified: true,
  tier5: true,
  expectedTpm: "2,000,000",
  background: "We run document QA for 40 plants.",
  problem: "Tier 3 limits are too low at peak.",
};

const leadCount = async () => (await t.ctx.db.select().from(schema.salesLeads)).length;

describe("contact sales", () => {
  it("stores a lead, e-mails sales and a receipt to the visitor in the visitor's language", async () => {
    const visitor = new TestClient(t.app);
    visitor.locale = "zh-CN";
    const res = await visitor.post("/api/contact-sales", lead);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.id).toMatch(/^lead_/);
    const [row] = await t.ctx.db.select().from(schema.salesLeads).where(eq(schema.salesLeads.id, res.body.id));
    expect(row).toMatchObject({
      phone: "+15550100100",
      expectedTpm: 2_000_000,
      tier5: true,
      enterpriseCertified: true,
      locale: "zh-CN",
      userId: null,
      status: "new",
    });
    await drain();
    const toSales = smtp.received.filter((m) => m.to.includes("sales@example.test"));
    expect(toSales).toHaveLength(1);
    const salesText = textPart(toSales[0]!.raw);
    // Sales reads the deployment's language (DEFAULT_EDITION=global → English), with the labels, not the codes.
    expect(salesText).toContain(
      "Ada Lovelace of Analytical Engines (Manufacturing and industry) asked about: Higher rate limits",
    );
    expect(salesText).toContain("Expected input TPM: 2,000,000");
    expect(salesText).toContain(res.body.id);
    const receipt = smtp.received.filter((m) => m.to.includes("ada@example.test"));
    expect(receipt).toHaveLength(1);
    expect(textPart(receipt[0]!.raw)).toContain("感谢您就「提升速率限制」联系 Acme AI 销售团队");
  });

  it("records the signed-in visitor", async () => {
    const res = await admin.client.post("/api/contact-sales", { ...lead, organizationId: admin.orgId });
    expect(res.status).toBe(201);
    const [row] = await t.ctx.db.select().from(schema.salesLeads).where(eq(schema.salesLeads.id, res.body.id));
    expect(row).toMatchObject({ userId: admin.userId, organizationId: admin.orgId });
  });

  it("refuses bad input with field messages in the caller's language and stores nothing", async () => {
    const before = await leadCount();
    const cases: [Record<string, unknown>, string, string, string][] = [
      [{ ...lead, name: " " }, "name", "This field is required.", "此项为必填项。"],
      [{ ...lead, email: "ada@" }, "email", "Enter a valid e-mail address.", "请输入有效的邮箱地址。"],
      [
        { ...lead, phone: "12345" },
        "phone",
        "Enter a valid phone number (6–15 digits, an optional leading +).",
        "请输入有效的电话号码（6–15 位数字，可带 + 前缀）。",
      ],
      [{ ...lead, industry: "mining" }, "industry", "This field is required.", "此项为必填项。"],
      [{ ...lead, topic: undefined }, "topic", "This field is required.", "此项为必填项。"],
      [
        { ...lead, expectedTpm: "-5" },
        "expectedTpm",
        "Enter a whole number of tokens per minute.",
        "请输入每分钟 token 数（整数）。",
      ],
      [{ ...lead, problem: "x".repeat(2001) }, "problem", "At most 2,000 characters.", "最多 2,000 个字符。"],
    ];
    for (const [body, path, en, zh] of cases) {
      for (const [locale, message] of [
        ["en-US", en],
        ["zh-CN", zh],
      ] as const) {
        const c = new TestClient(t.app);
        c.locale = locale;
        const res = await c.post("/api/contact-sales", body);
        expect(res.status, `${path} ${locale}`).toBe(400);
        expect(res.body.error.code).toBe("validation_failed");
        expect(res.body.error.details).toContainEqual({ path, message });
      }
    }
    expect(await leadCount()).toBe(before);
  });

  it("limits submissions per IP address (429 with Retry-After), other addresses unaffected", async () => {
    const c = new TestClient(t.app);
    for (let i = 0; i < 3; i++) expect((await c.post("/api/contact-sales", lead)).status).toBe(201);
    const before = await leadCount();
    const refused = await c.post("/api/contact-sales", lead);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe("rate_limited");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(await leadCount()).toBe(before);
    expect((await new TestClient(t.app).post("/api/contact-sales", lead)).status).toBe(201);
  });
});

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from("\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0", "latin1"),
]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]);

describe("feedback", () => {
  const F = (u: TestUser = admin) => `/api/orgs/${u.orgId}/feedback`;
  const feedbackRows = async () => (await t.ctx.db.select().from(schema.feedback)).length;

  it("stores a member's feedback with its images and e-mails support", async () => {
    const res = await member.client.upload(
      F(admin),
      {
        type: "model_output",
        model: "moonshot-v1-8k",
        description: "回答里把 2+2 算成了 5。",
        contact: "m@example.test",
      },
      [
        { name: "a.png", data: PNG, field: "image" },
        { name: "b.bin", data: JPEG, field: "image" },
      ],
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      type: "model_output",
      model: "moonshot-v1-8k",
      images: 2,
      status: "new",
      submittedBy: member.username,
    });
    const [row] = await t.ctx.db.select().from(schema.feedback).where(eq(schema.feedback.id, res.body.id));
    expect(row!.images.map((i) => i.contentType)).toEqual(["image/png", "image/jpeg"]);
    // The stored bytes are the uploaded ones.
    const chunks: Buffer[] = [];
    for await (const c of await t.ctx.exportFiles.open(row!.images[1]!.key)) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(JPEG)).toBe(true);
    await drain();
    const mail = smtp.received.filter((m) => m.to.includes("support@example.test"));
    expect(mail).toHaveLength(1);
    expect(textPart(mail[0]!.raw)).toContain("sent feedback of type Model output (model: moonshot-v1-8k)");
  });

  it("refuses bad fields and images in the caller's language, storing nothing", async () => {
    const before = await feedbackRows();
    const cases: [Record<string, string>, { name: string; data: Buffer; field: string }[], string, string][] = [
      [{ type: "model_output", description: "" }, [], "description", "This field is required."],
      [{ description: "x" }, [], "type", "This field is required."],
      [{ type: "complaint", description: "x" }, [], "type", "This field is required."],
      [{ type: "api_error", description: "x", model: "gpt-9" }, [], "model", "Choose a model from the list."],
      [
        { type: "api_error", description: "x" },
        [{ name: "evil.png", data: Buffer.from("<svg onload=alert(1)>"), field: "image" }],
        "images",
        "Attach PNG, JPEG, WebP or GIF images only.",
      ],
      [
        { type: "api_error", description: "x" },
        [{ name: "big.png", data: Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]), field: "image" }],
        "images",
        "Each image can be at most 5 MB.",
      ],
      [
        { type: "api_error", description: "x" },
        Array.from({ length: 4 }, (_, i) => ({ name: `${i}.png`, data: PNG, field: "image" })),
        "images",
        "Attach at most 3 images.",
      ],
    ];
    for (const [fields, files, path, message] of cases) {
      const res = await admin.client.upload(F(), fields, files);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error.details).toContainEqual({ path, message });
    }
    admin.client.locale = "zh-CN";
    const zh = await admin.client.upload(F(), { type: "api_error", description: "" });
    admin.client.locale = "en-US";
    expect(zh.body.error.details).toContainEqual({ path: "description", message: "此项为必填项。" });
    expect(await feedbackRows()).toBe(before);
  });

  it("lists members their own feedback and admins everyone's; outsiders see nothing", async () => {
    const mine = await admin.client.upload(F(), { type: "platform_feature", description: "Dark mode for invoices." });
    expect(mine.status).toBe(201);
    const asAdmin = await admin.client.get(F());
    expect(asAdmin.body.items.map((i: { submittedBy: string }) => i.submittedBy).sort()).toEqual(
      [admin.username, member.username].sort(),
    );
    const asMember = await member.client.get(F(admin));
    expect(asMember.body.items.every((i: { submittedBy: string }) => i.submittedBy === member.username)).toBe(true);
    expect(asMember.body.total).toBe(1);
    const outsider = await signUp(t);
    expect((await outsider.client.get(F(admin))).status).toBe(404);
    expect((await outsider.client.upload(F(admin), { type: "other", description: "x" })).status).toBe(404);
  });

  it("limits each user to 20 submissions an hour", async () => {
    const u = await signUp(t);
    for (let i = 0; i < 20; i++) {
      expect((await u.client.upload(F(u), { type: "other", description: `n${i}` })).status).toBe(201);
    }
    const refused = await u.client.upload(F(u), { type: "other", description: "one more" });
    expect(refused.status).toBe(429);
  });
});
