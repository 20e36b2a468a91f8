/**
 * The operator's side of invoices beyond the queue's issue / fail (issue 14): the seller's red-letter moves on the
 * command line (the same domain functions and audit lines as the back office), and invoices issued outside the
 * platform recorded as `imported` (CLI and back office), holding their amounts on the payments like an
 * application, with the role matrix of the import endpoint.
 */
import { parseMoney } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, eq } from "drizzle-orm";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliCommand } from "../src/cli/commands.ts";
import {
  completeRedLetterCommand,
  confirmRedLetterCommand,
  denyRedLetterCommand,
  startRedLetterCommand,
  withdrawRedLetterCommand,
} from "../src/cli/invoices.ts";
import { confirmPayment } from "../src/modules/billing/settle-payment.ts";
import { decideVerification } from "../src/modules/verification/decide-verification.ts";
import { COMPANY_APPLICATION, residentId, signUp, type TestUser } from "./console-helpers.ts";
import { createTestApp, type TestApp, testClock } from "./helpers.ts";

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

async function cli(cmd: CliCommand, args: string[]) {
  const lines: string[] = [];
  const code = await cmd.run({
    config: t.ctx.config,
    db: t.ctx.db,
    services: { db: t.ctx.db, keyEvents: t.ctx.keyEvents, log: pino({ level: "silent" }) },
    args,
    print: (l) => lines.push(l),
    readInput: async () => "",
  });
  return { code, out: lines.join("\n") };
}

async function verifyPersonally(u: TestUser) {
  const r = await u.client.post(`/api/orgs/${u.orgId}/verification/personal`, {
    realName: "张三",
    idNumber: residentId("11010519491231002"),
  });
  expect(r.body.state).toBe("personal");
}

async function verifyCompany(u: TestUser) {
  await verifyPersonally(u);
  const c = await u.client.post(`/api/orgs/${u.orgId}/verification/company`, COMPANY_APPLICATION);
  await decideVerification({
    ctx: t.ctx,
    applicationId: c.body.applications[0].id,
    decision: "approve",
    operator: operator.userId,
  });
}

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
    expect((await cli(completeRedLetterCommand, [id])).code).toBe(2); // no red-letter number
    expect((await cli(completeRedLetterCommand, [id, "x"])).code).toBe(2);
    const red = invoiceNo("R");
    const done = await cli(completeRedLetterCommand, [id, red]);
    expect(done.code, done.out).toBe(0);
    expect(done.out).toContain(`Voided ${id} by the red-letter invoice ${red}`);
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
