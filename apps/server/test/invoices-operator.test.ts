/**
 * The operator's side of invoices beyond the queue's issue / fail: the seller's red-letter moves on the
 * command line (the same domain functions and audit lines as the back office), and invoices issued outside the
 * platform recorded as `imported` (CLI and back office), holding their amounts on the payments like an
 * application, with the role matrix of the import endpoint.
 */
import { parseMoney } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliCommand } from "../src/cli/commands.ts";
import {
  completeRedLetterCommand,
  confirmRedLetterCommand,
  denyRedLetterCommand,
  importInvoiceCommand,
  startRedLetterCommand,
  withdrawRedLetterCommand,
} from "../src/cli/invoices.ts";
import { confirmPayment } from "../src/modules/billing/settle-payment.ts";
import {
  addOrgMember,
  COMPANY_APPLICATION,
  runCli,
  signUp,
  type TestUser,
  verifyCompany as verifyCompanyAs,
  verifyPersonally,
} from "./console-helpers.ts";
import { createTestApp, type TestApp, TestClient, testClock } from "./helpers.ts";

const clock = testClock();
let t: TestApp;
let operator: TestUser;
beforeAll(async () => {
  t = await createTestApp({}, { clock });
  operator = await signUp(t);
  await t.ctx.db.update(schema.users).set({ role: "operator" }).where(eq(schema.users.id, operator.userId));
});
afterAll(() => t.close());

const M = parseMoney;
const I = (u: TestUser) => `/api/orgs/${u.orgId}/invoices`;
const A = "/api/admin/invoices";

const cli = (cmd: CliCommand, args: string[]) => runCli(t, cmd, args);
const verifyCompany = (u: TestUser) => verifyCompanyAs(t, u, operator.userId);

/** A paid recharge: a WeChat Pay order confirmed by an operator. */
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

let serial = 0;
const invoiceNo = (prefix = "2611") => `${prefix}${String(Date.now()).slice(-8)}${String(++serial).padStart(8, "0")}`;

async function issuedInvoice(u: TestUser, titleBody: object, amount: string) {
  const p = await paid(u, amount);
  const titleId = (await u.client.post(`/api/orgs/${u.orgId}/invoice-titles`, titleBody)).body.id;
  const r = await u.client.post(I(u), {
    titleId,
    invoiceType: "general",
    email: "me@example.com",
    items: [{ paymentId: p, amount }],
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  expect((await operator.client.post(`${A}/${r.body.id}/issue`, { invoiceNo: invoiceNo() })).body.status).toBe(
    "success",
  );
  return { id: r.body.id as string, paymentId: p };
}

async function invoice(u: TestUser, id: string) {
  const body = (await u.client.get(I(u))).body.items.find((i: { id: string }) => i.id === id);
  return [body.status, body.redLetters[0]?.state] as [string, string | undefined];
}

async function auditOf(target: string) {
  const rows = await t.ctx.db.select().from(schema.operatorActions).where(eq(schema.operatorActions.target, target));
  return rows.map((a) => [a.action, a.actor]);
}

const companyTitle = {
  titleType: "company",
  title: "Acme Technology Co., Ltd.",
  uscc: COMPANY_APPLICATION.creditCode,
};

describe("red-letter moves on the command line (the seller's side)", () => {
  it("start needs a reason; 02 → buyer denies (05); 03 → confirm (04) → withdraw (09); 03 → deny (06); 02 → 04 → complete", async () => {
    const u = await signUp(t, { edition: "cn" });
    await verifyCompany(u);
    const { id, paymentId } = await issuedInvoice(u, companyTitle, "60");
    const R = `${I(u)}/${id}/red-letter`;

    expect((await cli(startRedLetterCommand, [id])).code).toBe(2); // no reason
    expect((await cli(startRedLetterCommand, ["inv_missing", "--reason", "x"])).out).toBe('No invoice "inv_missing".');
    const started = await cli(startRedLetterCommand, [id, "--reason", "Duplicate invoice"]);
    expect(started.code, started.out).toBe(0);
    expect(started.out).toContain("02 Entered by the seller");
    expect(await invoice(u, id)).toEqual(["refunding", "02"]);
    // 02 waits for the buyer: the seller can neither confirm nor deny it.
    const notYours = await cli(confirmRedLetterCommand, [id]);
    expect(notYours.code).toBe(1);
    expect(notYours.out).toContain("Only the other side can confirm or deny");
    expect((await cli(startRedLetterCommand, [id, "--reason", "again"])).out).toContain(
      "Not possible while the invoice is being voided.",
    );
    await u.client.post(`${R}/deny`);
    expect(await invoice(u, id)).toEqual(["success", "05"]);

    // The buyer enters 03; the seller confirms (04), then withdraws what it did not start: refused; the buyer can.
    await u.client.post(R, { reason: "Amount wrong" });
    expect(await invoice(u, id)).toEqual(["refunding", "03"]);
    const confirmed = await cli(confirmRedLetterCommand, [id]);
    expect(confirmed.out).toContain("04 Confirmed by both");
    expect((await cli(withdrawRedLetterCommand, [id])).code).toBe(1);
    await u.client.post(`${R}/withdraw`);
    expect(await invoice(u, id)).toEqual(["success", "09"]);

    await u.client.post(R, { reason: "Amount wrong" });
    expect((await cli(denyRedLetterCommand, [id])).out).toContain("06 Void: the seller denied it.");
    expect(await invoice(u, id)).toEqual(["success", "06"]);

    // The seller withdraws its own 02 (08).
    await cli(startRedLetterCommand, [id, "--reason", "Duplicate invoice"]);
    expect((await cli(withdrawRedLetterCommand, [id])).out).toContain("08 Void: withdrawn by its initiator.");

    // 02 → the buyer confirms (04) → the red-letter invoice: voided, the amount released.
    await cli(startRedLetterCommand, [id, "--reason", "Duplicate invoice"]);
    await u.client.post(`${R}/confirm`);
    const unnumbered = await cli(completeRedLetterCommand, [id]); // cn: the tax system's number is required
    expect(unnumbered.code).toBe(1);
    expect(unnumbered.out).toContain("invoiceNo: This field is required.");
    expect((await cli(completeRedLetterCommand, [id, "x"])).code).toBe(2);
    const red = invoiceNo("R");
    const done = await cli(completeRedLetterCommand, [id, red]);
    expect(done.code, done.out).toBe(0);
    expect(done.out).toContain(`Voided ${id} by ${red}`);
    const body = (await u.client.get(I(u))).body.items.find((i: { id: string }) => i.id === id);
    expect(body).toMatchObject({ status: "refunded", redInvoiceNo: red });
    expect((await payment(paymentId)).invoicedAmount).toBe(0n);
    expect((await cli(completeRedLetterCommand, [id, invoiceNo("R")])).code).toBe(1); // voided is final

    // Every seller move is in the audit log as the back office writes it, by the CLI.
    expect(await auditOf(id)).toEqual(
      expect.arrayContaining([
        ["invoice.red_letter.start", "cli"],
        ["invoice.red_letter.confirm", "cli"],
        ["invoice.red_letter.deny", "cli"],
        ["invoice.red_letter.withdraw", "cli"],
        ["invoice.red_letter.complete", "cli"],
      ]),
    );
    expect((await auditOf(id)).filter(([a]) => a === "invoice.red_letter.start")).toHaveLength(3);
  });

  it("a personal title starts in 01 and is completed without confirmation", async () => {
    const u = await signUp(t, { edition: "cn" });
    await verifyPersonally(u);
    const { id, paymentId } = await issuedInvoice(u, { titleType: "personal", title: "张三" }, "15");
    expect((await cli(startRedLetterCommand, [id, "--reason", "Wrong title"])).out).toContain(
      "01 No confirmation needed",
    );
    expect((await cli(confirmRedLetterCommand, [id])).out).toContain("Not possible in red-letter state 01.");
    expect((await payment(paymentId)).invoicedAmount).toBe(M("15"));
    expect((await cli(completeRedLetterCommand, [id, invoiceNo("R")])).code).toBe(0);
    expect(await invoice(u, id)).toEqual(["refunded", "01"]);
    expect((await payment(paymentId)).invoicedAmount).toBe(0n);
    const [row] = await t.ctx.db
      .select()
      .from(schema.operatorActions)
      .where(and(eq(schema.operatorActions.target, id), eq(schema.operatorActions.action, "invoice.red_letter.start")));
    expect(row).toMatchObject({ actor: "cli", after: { status: "refunding", state: "01" } });
  });
});

describe("imported invoices (issued outside the platform)", () => {
  const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Shanghai" }).format(clock.now());
  const body = (u: TestUser, items: { paymentId: string; amount: string }[], extra: object = {}) => ({
    orgId: u.orgId,
    invoiceNo: invoiceNo("0311"),
    title: "Acme Technology Co., Ltd.",
    issuedOn: "2026-01-15",
    items,
    ...extra,
  });

  it("an operator records one over paid recharges: held like an application, shown as imported, audited", async () => {
    const u = await signUp(t, { edition: "cn" });
    const p1 = await paid(u, "100");
    const p2 = await paid(u, "50");
    const req = body(u, [
      { paymentId: p1, amount: "60" },
      { paymentId: p2, amount: "50" },
    ]);
    const res = await operator.client.post(`${A}/import`, req);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      status: "imported",
      invoiceNo: req.invoiceNo,
      title: req.title,
      titleType: "company",
      invoiceType: "general",
      amount: M("110").toString(),
      net: M("100.92").toString(), // 110 / 1.09 = 100.917… → 100.92, tax 9.08
      tax: M("9.08").toString(),
      pdfAvailable: false,
    });
    expect(res.body.issuedAt).toBe("2026-01-14T16:00:00.000Z"); // the day in Asia/Shanghai
    expect((await payment(p1)).invoicedAmount).toBe(M("60"));
    expect((await payment(p2)).invoicedAmount).toBe(M("50"));

    // The customer sees it in the invoice records; the held amounts are no longer available to invoice or refund.
    const records = await u.client.get(I(u));
    expect(records.body.items[0]).toMatchObject({ id: res.body.id, status: "imported", invoiceNo: req.invoiceNo });
    const overview = (await u.client.get(`/api/orgs/${u.orgId}/invoices/overview`)).body;
    expect(overview.payments.find((p: { id: string }) => p.id === p1).available).toBe(M("40").toString());
    const refund = await u.client.post(`/api/orgs/${u.orgId}/refunds`, {
      items: [{ paymentId: p2, amount: "1" }],
      email: "me@example.com",
    });
    expect(refund.status).toBe(409);
    expect(refund.body.error.code).toBe("refund_invoice_held");
    // It cannot be voided on the platform (it was not issued here), and it is listed with the issued ones.
    expect((await operator.client.post(`${A}/${res.body.id}/red-letter`, { reason: "x" })).status).toBe(409);
    const issued = await operator.client.get(`${A}?queue=issued`);
    expect(issued.body.items.map((i: { id: string }) => i.id)).toContain(res.body.id);

    const [audit] = await t.ctx.db
      .select()
      .from(schema.operatorActions)
      .where(and(eq(schema.operatorActions.target, res.body.id), eq(schema.operatorActions.action, "invoice.import")));
    expect(audit).toMatchObject({
      actor: operator.userId,
      after: { status: "imported", invoiceNo: req.invoiceNo, amount: M("110").toString() },
      details: { orgId: u.orgId },
    });
  });

  it("bad input changes nothing: over the available amount, foreign or unpaid payments, future date, taken number", async () => {
    const u = await signUp(t, { edition: "cn" });
    const other = await signUp(t, { edition: "cn" });
    const p = await paid(u, "30");
    const foreign = await paid(other, "30");
    const unpaid = (
      await u.client.post(`/api/orgs/${u.orgId}/payments`, { amount: "9", payType: "wxpay", agreement: true })
    ).body.id;
    const count = async () =>
      (await t.ctx.db.select().from(schema.invoices).where(eq(schema.invoices.orgId, u.orgId))).length;
    const refused = async (req: object, path: string, message?: string) => {
      operator.client.locale = "zh-CN";
      const r = await operator.client.post(`${A}/import`, req);
      operator.client.locale = "en-US";
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      const detail = r.body.error.details.find((d: { path: string }) => d.path === path);
      expect(detail, JSON.stringify(r.body)).toBeDefined();
      if (message) expect(detail.message).toBe(message);
    };
    await refused(body(u, [{ paymentId: p, amount: "30.01" }]), "items.0.amount", "不能超过可开票金额 ¥30.00。");
    await refused(body(u, [{ paymentId: foreign, amount: "1" }]), "items.0.paymentId");
    await refused(body(u, [{ paymentId: unpaid, amount: "1" }]), "items.0.paymentId");
    await refused(body(u, [{ paymentId: p, amount: "0" }]), "items.0.amount");
    await refused(
      body(u, [{ paymentId: p, amount: "1" }], { issuedOn: "2999-01-01" }),
      "issuedOn",
      "开票日期不能晚于今天。",
    );
    await refused(body(u, [{ paymentId: p, amount: "1" }], { issuedOn: "2026-13-01" }), "issuedOn");
    await refused(body(u, [{ paymentId: p, amount: "1" }], { invoiceNo: "12" }), "invoiceNo");
    await refused(body(u, []), "items");
    expect(
      (await operator.client.post(`${A}/import`, body(u, [{ paymentId: p, amount: "1" }], { orgId: "org_missing" })))
        .status,
    ).toBe(404);
    expect(await count()).toBe(0);
    expect((await payment(p)).invoicedAmount).toBe(0n);

    const first = body(u, [{ paymentId: p, amount: "10" }], { issuedOn: today() });
    expect((await operator.client.post(`${A}/import`, first)).status).toBe(201);
    const dup = await operator.client.post(`${A}/import`, { ...first, items: [{ paymentId: p, amount: "5" }] });
    expect(dup.body.error.code).toBe("invoice_no_taken");
    expect(await count()).toBe(1);
    expect((await payment(p)).invoicedAmount).toBe(M("10"));
  });

  it("only operators can import (role matrix)", async () => {
    const u = await signUp(t, { edition: "cn" });
    const member = await signUp(t);
    await addOrgMember(t, u.orgId, member, "member");
    const p = await paid(u, "20");
    const req = body(u, [{ paymentId: p, amount: "20" }]);
    // The back office answers everyone but an operator like a missing route.
    expect((await new TestClient(t.app).post(`${A}/import`, req)).status).toBe(404);
    expect((await u.client.post(`${A}/import`, req)).status).toBe(404); // the organization's admin
    expect((await member.client.post(`${A}/import`, req)).status).toBe(404);
    expect((await payment(p)).invoicedAmount).toBe(0n);
    expect((await operator.client.post(`${A}/import`, req)).status).toBe(201);
  });

  it("import-invoice on the command line", async () => {
    const u = await signUp(t, { edition: "cn" });
    const p = await paid(u, "80");
    const no = invoiceNo("0312");
    expect((await cli(importInvoiceCommand, [u.orgId, no])).code).toBe(2); // no title, date or payment
    const bad = await cli(importInvoiceCommand, [
      u.orgId,
      no,
      "--title",
      "张三",
      "--date",
      "2026-01-02",
      "--payment",
      `${p}=90`,
    ]);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain("items.0.amount: At most the available amount of ¥80.00.");
    const missing = await cli(importInvoiceCommand, [
      "org_missing",
      no,
      "--title",
      "x",
      "--date",
      "2026-01-02",
      "--payment",
      `${p}=1`,
    ]);
    expect(missing.out).toBe('No organization "org_missing".');
    const ok = await cli(importInvoiceCommand, [
      u.orgId,
      no,
      "--title",
      "张三",
      "--title-type",
      "personal",
      "--date",
      "2026-01-02",
      "--payment",
      `${p}=80`,
    ]);
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).toContain(`Imported ${no} as inv_`);
    const [row] = (await u.client.get(I(u))).body.items;
    expect(row).toMatchObject({ status: "imported", invoiceNo: no, titleType: "personal", amount: M("80").toString() });
    expect((await payment(p)).invoicedAmount).toBe(M("80"));
    const [audit] = await t.ctx.db
      .select()
      .from(schema.operatorActions)
      .where(and(eq(schema.operatorActions.target, row.id), eq(schema.operatorActions.action, "invoice.import")));
    expect(audit?.actor).toBe("cli");
  });
});
