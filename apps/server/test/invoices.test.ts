/**
 * Invoices: the identity gate, titles, every §5 rule with bad input (nothing changes), the state
 * machine waiting → success / failed / invalid, issuing with the PDF e-mailed as an attachment and downloadable,
 * red-letter voiding through every confirmation state 01–09 (the 72-hour timeout with a moved clock), the released
 * amounts, concurrent applications never over-invoicing a payment, automatic issuing, the filing letter's gates,
 * and the global edition's international info before card payments with its GST order invoices.
 */
import { parseMoney, splitTax, VAT_RATE_BP } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failInvoiceCommand, invoiceQueueCommand, issueInvoiceCommand } from "../src/cli/invoices.ts";
import { confirmPayment } from "../src/modules/billing/settle-payment.ts";
import { tokenizeCard } from "../src/modules/payments/sandbox-psp.ts";
import { decideVerification } from "../src/modules/verification/decide-verification.ts";
import {
  COMPANY_APPLICATION,
  residentId,
  runCli,
  signUp,
  type TestUser,
  verifyCompany as verifyCompanyAs,
  verifyPersonally,
} from "./console-helpers.ts";
import { createTestApp, type TestApp } from "./helpers.ts";
import { CARD_CUSTOMER } from "./support/fixtures.ts";
import { startSmtpServer, textPart } from "./support/smtp.ts";

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestApp;
let operator: TestUser;
const base = Date.now();
let offset = 0;
let tick = 0;
// Each reading is a millisecond later, so rows made one after another are ordered by time like in real life.
const clock = {
  now: () => new Date(base + offset + tick++),
  advance: (ms: number) => {
    offset += ms;
  },
};

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestApp(
    {
      MAIL_TRANSPORT: "smtp",
      SMTP_HOST: "127.0.0.1",
      SMTP_PORT: String(smtp.port),
      MAIL_FROM: "Invoices <invoices@example.test>",
      BRAND_NAME: "Acme AI",
    },
    { clock },
  );
  operator = await signUp(t);
  await t.ctx.db.update(schema.users).set({ role: "operator" }).where(eq(schema.users.id, operator.userId));
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

async function drain() {
  while ((await t.ctx.jobs.runDue()) > 0) {
    /* again */
  }
}

const company = COMPANY_APPLICATION;
const USCC = company.creditCode;

/** The organization is a verified company, approved by the suite's operator. */
const verifyCompany = (u: TestUser) => verifyCompanyAs(t, u, operator.userId);

/** A paid recharge: an order by WeChat Pay confirmed by an operator (the payments module's own path). */
async function paid(u: TestUser, amount: string): Promise<string> {
  const r = await u.client.post(`/api/orgs/${u.orgId}/payments`, { amount, payType: "wxpay", agreement: true });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  await confirmPayment({ ctx: t.ctx, paymentId: r.body.id, operator: operator.userId, now: clock.now() });
  return r.body.id;
}

async function payment(id: string) {
  const [p] = await t.ctx.db.select().from(schema.payments).where(eq(schema.payments.id, id));
  return p!;
}
async function invoiceCount(orgId: string) {
  return (await t.ctx.db.select().from(schema.invoices).where(eq(schema.invoices.orgId, orgId))).length;
}

const personalTitle = { titleType: "personal", title: "张三" };
const companyTitle = {
  titleType: "company",
  title: "Acme Technology Co., Ltd.",
  uscc: USCC,
  bankName: "Bank of Sandbox",
  bankAccount: "6222020200112233445",
  companyAddress: "1 Sandbox Road, Beijing",
  companyPhone: "010-12345678",
};

async function title(u: TestUser, body: object): Promise<string> {
  const r = await u.client.post(`/api/orgs/${u.orgId}/invoice-titles`, body);
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id;
}

const I = (u: TestUser) => `/api/orgs/${u.orgId}/invoices`;
const A = "/api/admin/invoices";

describe("gate and §5 rules", () => {
  it("invoicing needs identity verification; nothing is recorded before it", async () => {
    const u = await signUp(t, { edition: "cn" });
    const pay = await paid(u, "100");
    const titleId = await title(u, personalTitle);
    const r = await u.client.post(I(u), {
      titleId,
      invoiceType: "general",
      email: "a@example.com",
      items: [{ paymentId: pay, amount: "10" }],
    });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe("invoice_needs_verification");
    expect((await u.client.get(`${I(u)}/overview`)).body.verified).toBe(false);
    expect(await invoiceCount(u.orgId)).toBe(0);
    expect((await payment(pay)).invoicedAmount).toBe(0n);
  });

  it("refuses every bad input with a field error and changes nothing", async () => {
    const u = await signUp(t, { edition: "cn" });
    const other = await signUp(t, { edition: "cn" });
    await verifyPersonally(u);
    const pay = await paid(u, "100");
    const otherPay = await paid(other, "50");
    const waiting = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "20",
      payType: "wxpay",
      agreement: true,
    });
    const personal = await title(u, personalTitle);
    const partial = await title(u, { titleType: "company", title: "Half Co", uscc: USCC });
    const invalid = await title(u, personalTitle);
    expect((await u.client.post(`/api/orgs/${u.orgId}/invoice-titles/${invalid}/invalidate`)).body.status).toBe(
      "invalid",
    );
    // Titles: a company title needs a valid USCC; bank accounts are digits only.
    const badTitle = await u.client.post(`/api/orgs/${u.orgId}/invoice-titles`, {
      ...companyTitle,
      uscc: "91350100M000100Y44",
      bankAccount: "6222-0202",
    });
    expect(badTitle.status).toBe(400);
    expect(badTitle.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(["bankAccount", "uscc"]);

    const ok = { titleId: personal, invoiceType: "general", email: "a@example.com" };
    const cases: [object, string, string][] = [
      [{ ...ok, items: [{ paymentId: pay, amount: "100.01" }] }, "items.0.amount", "available amount of ¥100.00"],
      [{ ...ok, items: [{ paymentId: pay, amount: "0" }] }, "items.0.amount", "above zero"],
      [{ ...ok, items: [{ paymentId: pay, amount: "1.001" }] }, "items.0.amount", "2 decimals"],
      [{ ...ok, items: [] }, "items", "at least one"],
      [{ ...ok, items: [{ paymentId: otherPay, amount: "1" }] }, "items.0.paymentId", "cannot be invoiced"],
      [{ ...ok, items: [{ paymentId: waiting.body.id, amount: "1" }] }, "items.0.paymentId", "cannot be invoiced"],
      [
        {
          ...ok,
          items: [
            { paymentId: pay, amount: "1" },
            { paymentId: pay, amount: "1" },
          ],
        },
        "items.1.paymentId",
        "listed twice",
      ],
      [{ ...ok, email: "", items: [{ paymentId: pay, amount: "1" }] }, "email", "required"],
      [{ ...ok, email: "a@", items: [{ paymentId: pay, amount: "1" }] }, "email", "valid e-mail"],
      [{ ...ok, titleId: invalid, items: [{ paymentId: pay, amount: "1" }] }, "titleId", "marked invalid"],
      [{ ...ok, invoiceType: "special", items: [{ paymentId: pay, amount: "1" }] }, "invoiceType", "company title"],
      [
        { ...ok, titleId: partial, invoiceType: "special", items: [{ paymentId: pay, amount: "1" }] },
        "titleId",
        "special VAT",
      ],
      [{ ...ok, invoiceType: "red", items: [{ paymentId: pay, amount: "1" }] }, "invoiceType", ""],
    ];
    for (const [body, path, words] of cases) {
      const r = await u.client.post(I(u), body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      const detail = r.body.error.details.find((d: { path: string }) => d.path === path);
      expect(detail, `${path} in ${JSON.stringify(r.body.error.details)}`).toBeDefined();
      expect(detail.message).toContain(words);
    }
    // zh-CN messages for the same rule.
    u.client.locale = "zh-CN";
    const zh = await u.client.post(I(u), { ...ok, items: [{ paymentId: pay, amount: "200" }] });
    expect(zh.body.error.details[0].message).toBe("不能超过可开票金额 ¥100.00。");
    u.client.locale = "en-US";
    expect(await invoiceCount(u.orgId)).toBe(0);
    expect((await payment(pay)).invoicedAmount).toBe(0n);
  });
});

describe("states", () => {
  it("apply (9 % computed once) → withdraw → invalid; the amount returns; forbidden moves refused", async () => {
    const u = await signUp(t, { edition: "cn" });
    await verifyPersonally(u);
    const p1 = await paid(u, "60");
    const p2 = await paid(u, "50");
    const personal = await title(u, personalTitle);
    const r = await u.client.post(I(u), {
      titleId: personal,
      invoiceType: "general",
      email: "me@example.com",
      items: [
        { paymentId: p1, amount: "60" },
        { paymentId: p2, amount: "40" },
      ],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ status: "waiting", amount: "100000000000", net: "91740000000", tax: "8260000000" });
    expect(r.body.taxRateBp).toBe(900);
    const overview = await u.client.get(`${I(u)}/overview`);
    const avail = Object.fromEntries(
      overview.body.payments.map((p: { id: string; available: string }) => [p.id, p.available]),
    );
    expect(avail[p1]).toBe("0");
    expect(avail[p2]).toBe(parseMoney("10").toString());
    // Nothing left on p1.
    const over = await u.client.post(I(u), {
      titleId: personal,
      invoiceType: "general",
      email: "me@example.com",
      items: [{ paymentId: p1, amount: "0.01" }],
    });
    expect(over.body.error.details[0].message).toContain("¥0.00");
    // The PDF exists only once issued.
    expect((await u.client.get(`${I(u)}/${r.body.id}/pdf`)).body.error.code).toBe("invoice_pdf_unavailable");
    // The buyer cannot start a red-letter round on an unissued invoice.
    const early = await u.client.post(`${I(u)}/${r.body.id}/red-letter`, { reason: "wrong" });
    expect(early.status).toBe(409);
    expect(early.body.error.message).toBe("Not possible while the invoice is processing.");

    const w = await u.client.post(`${I(u)}/${r.body.id}/withdraw`);
    expect(w.body.status).toBe("invalid");
    expect((await payment(p1)).invoicedAmount).toBe(0n);
    expect((await payment(p2)).invoicedAmount).toBe(0n);
    expect((await u.client.post(`${I(u)}/${r.body.id}/withdraw`)).status).toBe(409);
    // The operator can neither issue nor fail a withdrawn application.
    expect((await operator.client.post(`${A}/${r.body.id}/issue`, { invoiceNo: "12345678901" })).status).toBe(409);
    expect((await operator.client.post(`${A}/${r.body.id}/fail`, { reason: "x" })).status).toBe(409);
    // Another organization's admin sees nothing of it.
    const stranger = await signUp(t, { edition: "cn" });
    expect((await stranger.client.post(`/api/orgs/${stranger.orgId}/invoices/${r.body.id}/withdraw`)).status).toBe(404);
  });

  it("operator fails an application with a reason: failed, amount released", async () => {
    const u = await signUp(t, { edition: "cn" });
    await verifyPersonally(u);
    const p = await paid(u, "30");
    const r = await u.client.post(I(u), {
      titleId: await title(u, personalTitle),
      invoiceType: "general",
      email: "me@example.com",
      items: [{ paymentId: p, amount: "30" }],
    });
    expect((await operator.client.post(`${A}/${r.body.id}/fail`, { reason: "" })).status).toBe(400);
    const f = await operator.client.post(`${A}/${r.body.id}/fail`, { reason: "Title does not match the payer" });
    expect(f.body).toMatchObject({ status: "failed", failReason: "Title does not match the payer" });
    expect((await payment(p)).invoicedAmount).toBe(0n);
    expect((await operator.client.post(`${A}/${r.body.id}/issue`, { invoiceNo: "12345678901" })).status).toBe(409);
    const [audit] = await t.ctx.db
      .select()
      .from(schema.operatorActions)
      .where(eq(schema.operatorActions.target, r.body.id));
    expect(audit?.action).toBe("invoice.fail");
  });

  it("issue: the PDF is e-mailed as an attachment in the applicant's language and downloads; numbers are unique", async () => {
    const u = await signUp(t, { edition: "cn" });
    await verifyCompany(u);
    const p = await paid(u, "100");
    u.client.locale = "zh-CN";
    const r = await u.client.post(I(u), {
      titleId: await title(u, companyTitle),
      invoiceType: "special",
      method: "electronic",
      email: "finance@acme.example",
      items: [{ paymentId: p, amount: "100" }],
    });
    u.client.locale = "en-US";
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const queue = await operator.client.get(`${A}?queue=waiting`);
    const row = queue.body.items.find((i: { id: string }) => i.id === r.body.id);
    expect(row).toMatchObject({ orgId: u.orgId, bankAccount: "6222020200112233445", invoiceType: "special" });
    expect((await operator.client.post(`${A}/${r.body.id}/issue`, { invoiceNo: "12" })).status).toBe(400);
    const issued = await operator.client.post(`${A}/${r.body.id}/issue`, { invoiceNo: "26110000000000000001" });
    expect(issued.body).toMatchObject({ status: "success", invoiceNo: "26110000000000000001", pdfAvailable: true });
    expect((await operator.client.post(`${A}/${r.body.id}/issue`, { invoiceNo: "26110000000000000002" })).status).toBe(
      409,
    );
    await drain();
    const mail = smtp.received.find((m) => m.to.includes("finance@acme.example"));
    expect(mail).toBeDefined();
    expect(textPart(mail!.raw)).toContain("26110000000000000001");
    expect(textPart(mail!.raw)).toContain("增值税专用发票");
    expect(mail!.raw).toMatch(/Content-Type: application\/pdf; name=invoice-26110000000000000001\.pdf/);
    const attachment = /filename=invoice-26110000000000000001\.pdf\r\n\r\n([\s\S]*?)\r\n--/.exec(mail!.raw);
    expect(Buffer.from(attachment![1]!.replace(/\s+/g, ""), "base64").subarray(0, 5).toString()).toBe("%PDF-");
    const pdf = await u.client.get(`${I(u)}/${r.body.id}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.raw.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    // Another application cannot take the same number.
    const p2 = await paid(u, "10");
    const r2 = await u.client.post(I(u), {
      titleId: (await u.client.get(`/api/orgs/${u.orgId}/invoice-titles`)).body.items[0].id,
      invoiceType: "general",
      email: "finance@acme.example",
      items: [{ paymentId: p2, amount: "10" }],
    });
    const dup = await operator.client.post(`${A}/${r2.body.id}/issue`, { invoiceNo: "26110000000000000001" });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe("invoice_no_taken");
    expect((await u.client.get(I(u))).body.items.find((i: { id: string }) => i.id === r2.body.id).status).toBe(
      "waiting",
    );
  });
});

describe("operator CLI", () => {
  const cli = (cmd: typeof issueInvoiceCommand, args: string[]) => runCli(t, cmd, args);

  it("invoice-queue, issue-invoice (PDF stored, e-mail queued), fail-invoice refused afterwards", async () => {
    const u = await signUp(t, { edition: "cn" });
    await verifyPersonally(u);
    const p = await paid(u, "12.34");
    const r = await u.client.post(I(u), {
      titleId: await title(u, personalTitle),
      invoiceType: "general",
      email: "cli@example.com",
      items: [{ paymentId: p, amount: "12.34" }],
    });
    const queue = await cli(invoiceQueueCommand, []);
    expect(queue.out).toContain(r.body.id);
    expect(queue.out).toContain("¥12.34 (net ¥11.32, tax ¥1.02)");
    expect((await cli(issueInvoiceCommand, [r.body.id, "1"])).code).toBe(2);
    const issued = await cli(issueInvoiceCommand, [r.body.id, "26119999000000000001"]);
    expect(issued.code, issued.out).toBe(0);
    expect((await u.client.get(`${I(u)}/${r.body.id}/pdf`)).status).toBe(200);
    expect((await cli(failInvoiceCommand, [r.body.id])).code).toBe(2);
    const refused = await cli(failInvoiceCommand, [r.body.id, "--reason", "late"]);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain("issued");
    // The CLI's job is due at the wall clock's time; this file's clock started when the file did.
    clock.advance(5 * 60_000);
    await drain();
    expect(smtp.received.some((m) => m.to.includes("cli@example.com"))).toBe(true);
  });
});

describe("red-letter voiding (§4 01–09)", () => {
  async function issuedInvoice(u: TestUser, titleBody: object, amount = "20") {
    const p = await paid(u, amount);
    const r = await u.client.post(I(u), {
      titleId: await title(u, titleBody),
      invoiceType: "general",
      email: "me@example.com",
      items: [{ paymentId: p, amount }],
    });
    const no = `2611${String(Date.now()).slice(-8)}${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}`;
    const issued = await operator.client.post(`${A}/${r.body.id}/issue`, { invoiceNo: no });
    expect(issued.body.status).toBe("success");
    return { id: r.body.id as string, paymentId: p };
  }
  const state = (body: { status: string; redLetters: { state: string }[] }) => [body.status, body.redLetters[0]?.state];

  it("personal title: 01 (no confirmation), withdrawn 08, then completed → refunded and released", async () => {
    const u = await signUp(t, { edition: "cn" });
    await verifyPersonally(u);
    const { id, paymentId } = await issuedInvoice(u, personalTitle);
    const R = `${I(u)}/${id}/red-letter`;
    expect((await u.client.post(R, { reason: "" })).status).toBe(400);
    expect(state((await u.client.post(R, { reason: "Wrong title" })).body)).toEqual(["refunding", "01"]);
    expect((await u.client.post(R, { reason: "again" })).status).toBe(409);
    // Nobody confirms 01.
    expect((await operator.client.post(`${A}/${id}/red-letter/confirm`)).body.error.code).toBe("red_letter_state");
    // Only the initiator withdraws.
    expect((await operator.client.post(`${A}/${id}/red-letter/withdraw`)).body.error.code).toBe("red_letter_not_yours");
    expect(state((await u.client.post(`${R}/withdraw`)).body)).toEqual(["success", "08"]);
    expect(state((await u.client.post(R, { reason: "Wrong title" })).body)).toEqual(["refunding", "01"]);
    expect((await payment(paymentId)).invoicedAmount).toBe(parseMoney("20"));
    // cn needs the tax system's number for the red-letter invoice.
    const unnumbered = await operator.client.post(`${A}/${id}/red-letter/complete`, {});
    expect(unnumbered.body.error.details).toEqual([{ path: "invoiceNo", message: "This field is required." }]);
    expect((await payment(paymentId)).invoicedAmount).toBe(parseMoney("20"));
    const done = await operator.client.post(`${A}/${id}/red-letter/complete`, { invoiceNo: "R2611000000000001" });
    expect(done.body).toMatchObject({ status: "refunded", redInvoiceNo: "R2611000000000001", voidPdfAvailable: true });
    // The red-letter invoice is e-mailed as an attachment and downloads.
    await drain();
    const mail = smtp.received.find((m) => textPart(m.raw).includes("R2611000000000001"));
    expect(mail?.raw).toMatch(/filename=red-invoice-R2611000000000001\.pdf/);
    const red = await u.client.get(`${I(u)}/${id}/void-pdf`);
    expect(red.headers["content-disposition"]).toContain("red-invoice-R2611000000000001.pdf");
    expect(red.raw.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    expect(done.body.redLetters.map((x: { state: string }) => x.state)).toEqual(["01", "08"]);
    expect((await payment(paymentId)).invoicedAmount).toBe(0n);
    // Voided is final.
    expect((await u.client.post(R, { reason: "again" })).status).toBe(409);
    expect(
      (await operator.client.post(`${A}/${id}/red-letter/complete`, { invoiceNo: "R2611000000000002" })).status,
    ).toBe(409);
  });

  it("company title: 02 → 05, 02 → 04 → 09, 03 → 06, 03 → 07 after 72 h, 02 → 04 → completed", async () => {
    const u = await signUp(t, { edition: "cn" });
    await verifyCompany(u);
    const { id, paymentId } = await issuedInvoice(u, companyTitle, "80");
    const R = `${I(u)}/${id}/red-letter`;
    const S = `${A}/${id}/red-letter`;
    // Seller enters: 02, the buyer answers.
    expect(state((await operator.client.post(S, { reason: "Duplicate" })).body)).toEqual(["refunding", "02"]);
    expect((await operator.client.post(`${S}/confirm`)).body.error.code).toBe("red_letter_not_yours");
    expect((await u.client.post(`${R}/withdraw`)).body.error.code).toBe("red_letter_not_yours");
    expect(state((await u.client.post(`${R}/deny`)).body)).toEqual(["success", "05"]);
    expect(state((await operator.client.post(S, { reason: "Duplicate" })).body)).toEqual(["refunding", "02"]);
    expect(state((await u.client.post(`${R}/confirm`)).body)).toEqual(["refunding", "04"]);
    expect((await u.client.post(`${R}/deny`)).body.error.code).toBe("red_letter_state");
    expect(state((await operator.client.post(`${S}/withdraw`)).body)).toEqual(["success", "09"]);
    // Buyer enters: 03, the seller answers.
    expect(state((await u.client.post(R, { reason: "Amount wrong" })).body)).toEqual(["refunding", "03"]);
    expect((await u.client.post(`${R}/confirm`)).body.error.code).toBe("red_letter_not_yours");
    expect(state((await operator.client.post(`${S}/deny`)).body)).toEqual(["success", "06"]);
    expect(state((await u.client.post(R, { reason: "Amount wrong" })).body)).toEqual(["refunding", "03"]);
    // Completing before both confirmed is refused.
    expect((await operator.client.post(`${S}/complete`, { invoiceNo: "R2611000000000009" })).status).toBe(409);
    // 72 hours without an answer: 07.
    clock.advance(72 * 3600_000 - 60_000);
    await drain();
    expect(state((await u.client.get(I(u))).body.items[0])).toEqual(["refunding", "03"]);
    clock.advance(2 * 60_000);
    await drain();
    expect(state((await u.client.get(I(u))).body.items[0])).toEqual(["success", "07"]);
    expect((await operator.client.post(`${S}/confirm`)).status).toBe(409);
    // Finally: 02 → 04 → the red-letter invoice.
    await operator.client.post(S, { reason: "Duplicate" });
    await u.client.post(`${R}/confirm`);
    const done = await operator.client.post(`${S}/complete`, { invoiceNo: "R2611000000000010" });
    expect(done.body.status).toBe("refunded");
    expect(done.body.redLetters.map((x: { state: string }) => x.state)).toEqual(["04", "07", "06", "09", "05"]);
    expect((await payment(paymentId)).invoicedAmount).toBe(0n);
    // The released amount can be invoiced again.
    const again = await u.client.post(I(u), {
      titleId: (await u.client.get(`/api/orgs/${u.orgId}/invoice-titles`)).body.items[0].id,
      invoiceType: "general",
      email: "me@example.com",
      items: [{ paymentId, amount: "80" }],
    });
    expect(again.status).toBe(201);
    const audit = await t.ctx.db.select().from(schema.operatorActions).where(eq(schema.operatorActions.target, id));
    expect(audit.map((a) => a.action)).toContain("invoice.red_letter.complete");
  });
});

describe("concurrency", () => {
  it("applications racing for one payment's available amount never over-invoice it", async () => {
    const u = await signUp(t, { edition: "cn" });
    await verifyPersonally(u);
    const p = await paid(u, "100");
    const titleId = await title(u, personalTitle);
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        u.client.post(I(u), {
          titleId,
          invoiceType: "general",
          email: "me@example.com",
          items: [{ paymentId: p, amount: "30" }],
        }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    expect(results.filter((r) => r.status === 400)).toHaveLength(5);
    expect((await payment(p)).invoicedAmount).toBe(parseMoney("90"));
    expect(await invoiceCount(u.orgId)).toBe(3);
  });
});

describe("automatic issuing (INVOICE_AUTO_ISSUE)", () => {
  it("issues an electronic general invoice after the application with a generated 20-digit number", async () => {
    const auto = await createTestApp({ INVOICE_AUTO_ISSUE: "true" });
    try {
      const u = await signUp(auto, { edition: "cn" });
      await u.client.post(`/api/orgs/${u.orgId}/verification/personal`, {
        realName: "张三",
        idNumber: residentId("11010519491231002"),
      });
      const r = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
        amount: "40",
        payType: "wxpay",
        agreement: true,
      });
      await confirmPayment({ ctx: auto.ctx, paymentId: r.body.id, operator: "test", now: new Date() });
      const titleId = (await u.client.post(`/api/orgs/${u.orgId}/invoice-titles`, personalTitle)).body.id;
      const inv = await u.client.post(`/api/orgs/${u.orgId}/invoices`, {
        titleId,
        invoiceType: "general",
        email: "me@example.com",
        items: [{ paymentId: r.body.id, amount: "40" }],
      });
      expect(inv.body.status).toBe("waiting");
      await auto.ctx.jobs.runDue();
      const list = await u.client.get(`/api/orgs/${u.orgId}/invoices`);
      expect(list.body.items[0].status).toBe("success");
      expect(list.body.items[0].invoiceNo).toMatch(/^\d{20}$/);
    } finally {
      await auto.close();
    }
  });
});

describe("algorithm-filing letter", () => {
  it("needs company verification and ¥100 recharged; then a PDF", async () => {
    const u = await signUp(t, { edition: "cn" });
    const L = `/api/orgs/${u.orgId}/verification/filing-letter.pdf`;
    const unverified = await u.client.get(L);
    expect(unverified.status).toBe(403);
    expect(unverified.body.error.message).toContain("¥100.00");
    await verifyCompany(u);
    await paid(u, "99.99");
    expect((await u.client.get(L)).status).toBe(403);
    u.client.locale = "zh-CN";
    expect((await u.client.get(L)).body.error.message).toBe("算法备案授权书需要完成企业认证且累计充值不少于 ¥100.00。");
    u.client.locale = "en-US";
    await paid(u, "5");
    const ok = await u.client.get(L);
    expect(ok.status).toBe(200);
    expect(ok.headers["content-type"]).toBe("application/pdf");
    expect(ok.raw.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("global: $100", async () => {
    const u = await signUp(t, { edition: "global" });
    const r = await u.client.get(`/api/orgs/${u.orgId}/verification/filing-letter.pdf`);
    expect(r.status).toBe(403);
    expect(r.body.error.message).toContain("$100.00");
  });
});

describe("global: international invoice info and GST order invoices", () => {
  it("card payments need complete info; each paid order has its invoice with GST", async () => {
    const u = await signUp(t, { edition: "global" });
    const O = `/api/orgs/${u.orgId}`;
    const good = tokenizeCard(
      t.config.payments.sandboxSecret,
      { number: "4242 4242 4242 4242", cvc: "123", expMonth: 12, expYear: 2099 },
      clock.now(),
    );
    if (!good.ok) throw new Error("tokenize");
    const customer = {
      email: "a@b.co",
      firstName: "Ada",
      lastName: "L",
      phone: "+1 555 0100",
      street: "1 Main",
      city: "SF",
      state: "CA",
      postcode: "94000",
      countryCode: "us",
    };
    const card = await u.client.post(`${O}/cards`, { token: good.token, customer });
    const pay = { amount: "25", payType: "credit_card", cardId: card.body.id, agreement: true };
    const refused = await u.client.post(`${O}/payments`, pay);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain("complete the invoice information");
    expect((await t.ctx.db.select().from(schema.payments).where(eq(schema.payments.orgId, u.orgId))).length).toBe(0);
    expect((await u.client.get(`${O}/invoice-info`)).body).toEqual({ info: null, gstRateBp: 900 });
    const info = {
      name: "Ada Lovelace Ltd",
      email: "billing@ada.example",
      tax_id: "GB123456789",
      street: "10 Downing Street",
      address_line1: "",
      city: "London",
      postal_code: "SW1A 2AA",
      country_code: "UK",
    };
    const bad = await u.client.put(`${O}/invoice-info`, info);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0]).toMatchObject({ path: "country_code" });
    const saved = await u.client.put(`${O}/invoice-info`, { ...info, country_code: "gb" });
    expect(saved.body.info).toMatchObject({ country_code: "GB", address_line1: null });
    const ok = await u.client.post(`${O}/payments`, pay);
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    // Not paid yet: no invoice listed.
    expect((await u.client.get(`${O}/order-invoices`)).body.items).toHaveLength(0);
    await drain();
    const list = await u.client.get(`${O}/order-invoices`);
    const { net, tax } = splitTax(parseMoney("25"), 900);
    expect(list.body.items[0]).toMatchObject({ paymentId: ok.body.id, net: net.toString(), tax: tax.toString() });
    const pdf = await u.client.get(`${O}/order-invoices/${ok.body.id}/pdf`);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.raw.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    // cn organizations have no international info.
    const cn = await signUp(t, { edition: "cn" });
    expect((await cn.client.get(`/api/orgs/${cn.orgId}/invoice-info`)).status).toBe(404);
    expect(VAT_RATE_BP).toBe(900);
  });
});

describe("global: tax invoices applied for, issued, e-mailed and voided by a credit note", () => {
  const info = {
    name: "Ada Lovelace Ltd",
    email: "billing@ada.example",
    tax_id: "GB123456789",
    street: "10 Downing Street",
    city: "London",
    postal_code: "SW1A 2AA",
    country_code: "GB",
  };
  async function transfer(u: TestUser, amount: string): Promise<string> {
    const r = await u.client.post(`/api/orgs/${u.orgId}/payments`, { amount, payType: "b2btransfer", agreement: true });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    await confirmPayment({ ctx: t.ctx, paymentId: r.body.id, operator: operator.userId, now: clock.now() });
    return r.body.id;
  }
  /** Personal, then company verification (a corporate transfer needs it), approved by the operator. */
  const verifyGlobal = async (u: TestUser) => {
    const V = `/api/orgs/${u.orgId}/verification`;
    const r = await u.client.post(`${V}/personal`, {
      realName: "Ada Lovelace",
      idNumber: "P12345678",
      nationality: "GB",
      dateOfBirth: "1990-05-17",
      documentExpiry: "2099-01-01",
    });
    expect(r.body.state).toBe("personal");
    const c = await u.client.post(`${V}/company`, { ...company, creditCode: "GB 12345678" });
    await decideVerification({
      ctx: t.ctx,
      applicationId: c.body.applications[0].id,
      decision: "approve",
      operator: operator.userId,
    });
  };
  const mailTo = (to: string, mentioning: string) =>
    smtp.received.find((m) => m.to.includes(to) && textPart(m.raw).includes(mentioning));
  const attached = (raw: string, name: string) => {
    const m = new RegExp(`filename=${name.replaceAll(".", "\\.")}\\r\\n\\r\\n([\\s\\S]*?)\\r\\n--`).exec(raw);
    return m ? Buffer.from(m[1]!.replace(/\s+/g, ""), "base64") : undefined;
  };

  it("gates and §5 rules: cn and global routes stay apart, verification and invoice info first, bad amounts refused", async () => {
    const unverified = await signUp(t, { edition: "global" });
    const refused = await unverified.client.post(`/api/orgs/${unverified.orgId}/tax-invoices`, {
      email: "ap@ada.example",
      items: [{ paymentId: "pay_any", amount: "1" }],
    });
    expect(refused.body.error.code).toBe("invoice_needs_verification");
    const u = await signUp(t, { edition: "global" });
    const T = `/api/orgs/${u.orgId}/tax-invoices`;
    await verifyGlobal(u);
    const p = await transfer(u, "500");
    const body = { email: "ap@ada.example", items: [{ paymentId: p, amount: "500" }] };
    const noInfo = await u.client.post(T, body);
    expect(noInfo.status).toBe(409);
    expect(noInfo.body.error.message).toContain("invoice information");
    await u.client.put(`/api/orgs/${u.orgId}/invoice-info`, info);
    // The cn application does not exist on global, nor the tax invoice on cn.
    expect((await u.client.post(I(u), { ...body, titleId: "x", invoiceType: "general" })).status).toBe(404);
    const cn = await signUp(t, { edition: "cn" });
    expect((await cn.client.post(`/api/orgs/${cn.orgId}/tax-invoices`, body)).status).toBe(404);
    // Bad input: field errors, nothing recorded.
    const over = await u.client.post(T, { ...body, items: [{ paymentId: p, amount: "500.01" }] });
    expect(over.body.error.details).toEqual([
      { path: "items.0.amount", message: "At most the available amount of $500.00." },
    ]);
    expect((await u.client.post(T, { ...body, email: "nope" })).status).toBe(400);
    expect((await u.client.post(T, { ...body, items: [{ paymentId: "pay_other", amount: "1" }] })).status).toBe(400);
    expect(await invoiceCount(u.orgId)).toBe(0);
    expect((await payment(p)).invoicedAmount).toBe(0n);
    // The overview lists the transfer with the GST rate.
    const o = (await u.client.get(`${I(u)}/overview`)).body;
    expect(o).toMatchObject({ verified: true, taxRateBp: 900 });
    expect(o.payments.map((x: { id: string }) => x.id)).toEqual([p]);
  });

  it("apply → operator issues (numbered by the platform) → PDF e-mailed and downloadable → credit note → refundable again", async () => {
    const u = await signUp(t, { edition: "global" });
    await verifyGlobal(u);
    await u.client.put(`/api/orgs/${u.orgId}/invoice-info`, info);
    const p = await transfer(u, "500");
    const T = `/api/orgs/${u.orgId}/tax-invoices`;
    const email = `ap-${u.orgId}@ada.example`;
    const r = await u.client.post(T, { email, items: [{ paymentId: p, amount: "123.45" }] });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const { net, tax } = splitTax(parseMoney("123.45"), 900);
    expect(r.body).toMatchObject({
      status: "waiting",
      currency: "USD",
      amount: parseMoney("123.45").toString(),
      net: net.toString(),
      tax: tax.toString(),
      taxRateBp: 900,
      title: "Ada Lovelace Ltd",
      titleType: "company",
      uscc: "GB123456789",
      billTo: { name: "Ada Lovelace Ltd", city: "London", country_code: "GB", tax_id: "GB123456789" },
    });
    expect(net + tax).toBe(parseMoney("123.45"));
    expect((await payment(p)).invoicedAmount).toBe(parseMoney("123.45"));

    // The operator issues it without typing a number: the platform numbers it.
    const issued = await operator.client.post(`${A}/${r.body.id}/issue`, {});
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    const invoiceNo: string = issued.body.invoiceNo;
    expect(invoiceNo).toMatch(/^INV-\d{8}-[0-9A-Z]{6}$/);
    await drain();
    const mail = mailTo(email, invoiceNo);
    expect(mail).toBeDefined();
    expect(textPart(mail!.raw)).toContain("tax invoice");
    expect(textPart(mail!.raw)).toContain("$123.45");
    expect(attached(mail!.raw, `invoice-${invoiceNo}.pdf`)?.subarray(0, 5).toString()).toBe("%PDF-");
    const pdf = await u.client.get(`${I(u)}/${r.body.id}/pdf`);
    expect(pdf.headers["content-disposition"]).toContain(`invoice-${invoiceNo}.pdf`);
    expect(pdf.raw.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    // No credit note yet.
    expect((await u.client.get(`${I(u)}/${r.body.id}/void-pdf`)).body.error.code).toBe("invoice_pdf_unavailable");
    // Nothing of it is refundable while the invoice stands.
    const options = (await u.client.get(`/api/orgs/${u.orgId}/refunds/options`)).body;
    expect(JSON.stringify(options)).toContain(parseMoney("376.55").toString());

    // Voiding: the buyer (a company: a tax ID is on record) requests it → 03; the seller confirms → 04 and issues
    // the credit note, numbered by the platform.
    const R = `${I(u)}/${r.body.id}/red-letter`;
    expect((await u.client.post(R, { reason: "Wrong amount" })).body.redLetters[0].state).toBe("03");
    expect((await operator.client.post(`${A}/${r.body.id}/red-letter/confirm`)).body.redLetters[0].state).toBe("04");
    const done = await operator.client.post(`${A}/${r.body.id}/red-letter/complete`, {});
    expect(done.body).toMatchObject({ status: "refunded", voidPdfAvailable: true });
    const creditNo: string = done.body.redInvoiceNo;
    expect(creditNo).toMatch(/^CN-\d{8}-[0-9A-Z]{6}$/);
    expect((await payment(p)).invoicedAmount).toBe(0n);
    await drain();
    const voided = mailTo(email, creditNo);
    expect(voided).toBeDefined();
    expect(textPart(voided!.raw)).toContain(`voided in full by credit note ${creditNo}`);
    expect(attached(voided!.raw, `credit-note-${creditNo}.pdf`)?.subarray(0, 5).toString()).toBe("%PDF-");
    const credit = await u.client.get(`${I(u)}/${r.body.id}/void-pdf`);
    expect(credit.headers["content-disposition"]).toContain(`credit-note-${creditNo}.pdf`);
    expect(credit.raw.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    const admin = await operator.client.get(`${A}/${r.body.id}/void-pdf`);
    expect(admin.raw.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    // The whole transfer is refundable again.
    const after = (await u.client.get(`/api/orgs/${u.orgId}/refunds/options`)).body;
    expect(JSON.stringify(after)).toContain(parseMoney("500").toString());
    // A member who is not an admin sees none of it.
    const audit = await t.ctx.db
      .select()
      .from(schema.operatorActions)
      .where(eq(schema.operatorActions.target, r.body.id));
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(["invoice.issue", "invoice.red_letter.confirm", "invoice.red_letter.complete"]),
    );
  });

  it("a company-verified organization is a company buyer without a tax ID: voiding needs both sides (03, not 01)", async () => {
    const u = await signUp(t, { edition: "global" });
    await verifyGlobal(u);
    const { tax_id: _none, ...noTaxId } = info;
    expect((await u.client.put(`/api/orgs/${u.orgId}/invoice-info`, noTaxId)).status).toBe(200);
    const p = await transfer(u, "200");
    const r = await u.client.post(`/api/orgs/${u.orgId}/tax-invoices`, {
      email: "ap@ada.example",
      items: [{ paymentId: p, amount: "200" }],
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ titleType: "company", uscc: null });
    expect((await operator.client.post(`${A}/${r.body.id}/issue`, {})).status).toBe(200);
    const voiding = await u.client.post(`${I(u)}/${r.body.id}/red-letter`, { reason: "Wrong amount" });
    expect(voiding.body.redLetters[0].state).toBe("03");
    // The seller cannot issue the credit note before confirming.
    expect((await operator.client.post(`${A}/${r.body.id}/red-letter/complete`, {})).body.error.code).toBe(
      "red_letter_state",
    );
  });

  it("a card order has its own invoice: it cannot be applied for again", async () => {
    const u = await signUp(t, { edition: "global" });
    await verifyGlobal(u);
    await u.client.put(`/api/orgs/${u.orgId}/invoice-info`, info);
    const good = tokenizeCard(
      t.config.payments.sandboxSecret,
      { number: "4242 4242 4242 4242", cvc: "123", expMonth: 12, expYear: 2099 },
      clock.now(),
    );
    if (!good.ok) throw new Error("tokenize");
    const card = await u.client.post(`/api/orgs/${u.orgId}/cards`, { token: good.token, customer: CARD_CUSTOMER });
    const pay = await u.client.post(`/api/orgs/${u.orgId}/payments`, {
      amount: "25",
      payType: "credit_card",
      cardId: card.body.id,
      agreement: true,
    });
    await drain();
    expect((await payment(pay.body.id)).status).toBe("success");
    const r = await u.client.post(`/api/orgs/${u.orgId}/tax-invoices`, {
      email: "a@b.co",
      items: [{ paymentId: pay.body.id, amount: "25" }],
    });
    expect(r.body.error.details).toEqual([
      {
        path: "items.0.paymentId",
        message: "This card order already has its own invoice (see the order invoices below).",
      },
    ]);
    expect((await u.client.get(`${I(u)}/overview`)).body.payments).toEqual([]);
  });
});
