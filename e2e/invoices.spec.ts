import fs from "node:fs";
import { type Browser, expect, type Page, test } from "@playwright/test";
import {
  bindCard,
  COMPANY,
  caughtMail,
  confirmTransfer,
  csrfHeaders,
  decideCompany,
  dialogSubmit,
  fillInvoiceInfo,
  operatorPage,
  PERSON,
  refundByBank,
  signUpInLocale,
  uniqueUsername,
} from "./support.ts";

/**
 * Invoices in the browser.
 * cn: personal verification → company application → the operator approves it in the back office → a corporate
 * transfer the operator confirms → an invoice title and an application for a special VAT invoice → the operator
 * issues it in the back office → the PDF arrives as an attachment at the suite's SMTP server and downloads from the
 * records → voided through the red-letter flow (buyer enters 03, seller confirms 04 and issues the red-letter
 * invoice; the invoice is voided and its amount available again) → part of it refunded (the operator approves and
 * marks the bank transfer back done) → every operator step in the audit log.
 * global: the same journey with a wire transfer — company verification approved in the back office, a wire
 * transfer ordered on the recharge screen and confirmed, a tax invoice with GST requested to the invoice
 * information, issued in the back office (numbered by the platform), e-mailed and downloaded, voided by a credit
 * note (e-mailed, downloadable), then part of the amount refunded; and the invoice information before a card
 * payment, whose paid order's GST invoice downloads.
 * Screenshots of the new screens at 1280 and 390 px go to .tmp/shots/: in the page's locale and the light theme,
 * or with SCREENSHOTS=1 in both locales and both themes (for review; the suite stays short).
 */
test.setTimeout(420_000);

/** Counts the page's POST requests to a matching URL from now on. */
function countPosts(page: Page, url: RegExp): () => number {
  let n = 0;
  page.on("request", (r) => {
    if (r.method() === "POST" && url.test(new URL(r.url()).pathname)) n += 1;
  });
  return () => n;
}

async function shots(browser: Browser, page: Page, name: string, url: string, prepare?: (p: Page) => Promise<void>) {
  fs.mkdirSync(".tmp/shots", { recursive: true });
  const state = await page.context().storageState();
  const all = Boolean(process.env.SCREENSHOTS);
  const own = (await page.context().cookies(page.url())).find((c) => c.name === "locale")?.value ?? "en-US";
  for (const locale of all ? (["zh-CN", "en-US"] as const) : [own]) {
    for (const theme of all ? (["light", "dark"] as const) : (["light"] as const)) {
      for (const width of [1280, 390]) {
        const ctx = await browser.newContext({
          storageState: state,
          colorScheme: theme,
          viewport: { width, height: 900 },
        });
        await ctx.addCookies([{ name: "locale", value: locale, url: new URL(page.url()).origin }]);
        const p = await ctx.newPage();
        await p.addInitScript((t) => localStorage.setItem("theme", t), theme);
        await p.goto(url);
        await p.waitForLoadState("networkidle");
        await prepare?.(p);
        await p.screenshot({ path: `.tmp/shots/${name}-${locale}-${theme}-${width}.png`, fullPage: true });
        await ctx.close();
      }
    }
  }
}

test("cn: verify, transfer, apply, issue in the back office, PDF by e-mail and download, red-letter voiding, refund", async ({
  browser,
  baseURL,
}) => {
  const { page: customer, orgId, orgName } = await signUpInLocale(browser, "zh-CN", baseURL!, "inv");
  const h = await csrfHeaders(customer);

  // Before identity verification the screen says what is needed.
  await customer.goto("/console/billing/invoices");
  await expect(customer.getByTestId("invoice-gate")).toBeVisible();
  await expect(customer.getByTestId("invoice-apply-open")).toBeDisabled();

  const V = `/api/orgs/${orgId}/verification`;
  expect((await customer.request.post(`${V}/personal`, { headers: h, data: PERSON.cn })).status()).toBe(200);
  expect((await (await customer.request.post(`${V}/company`, { headers: h, data: COMPANY.cn })).json()).state).toBe(
    "company_changing",
  );

  // The operator approves the company in the back office, then confirms the customer's corporate transfer.
  const op = await operatorPage(browser, baseURL!);
  await decideCompany(op, orgName, "approve");
  const transfer = await customer.request.post(`/api/orgs/${orgId}/payments`, {
    headers: h,
    data: { amount: "1000", payType: "b2btransfer", agreement: true },
  });
  expect(transfer.status(), await transfer.text()).toBe(201);
  await confirmTransfer(op, orgName);

  // The company is verified and has recharged ¥1,000: the algorithm-filing letter downloads.
  const letter = await customer.request.get(`${V}/filing-letter.pdf`);
  expect(letter.headers()["content-type"]).toBe("application/pdf");
  fs.mkdirSync(".tmp/shots", { recursive: true });
  fs.writeFileSync(".tmp/shots/filing-letter-cn.pdf", await letter.body());

  // A company title with the special-invoice fields, then the application (special VAT, part of the transfer).
  await customer.goto("/console/billing/invoices");
  await expect(customer.getByTestId("invoice-gate")).toHaveCount(0);
  // The titles and their Add button appear only with the notices above them, so nothing moves under the click.
  await customer.getByTestId("title-add").click();
  const titleName = customer.getByTestId("title-name");
  await titleName.fill(COMPANY.cn.companyName);
  await customer.getByTestId("title-uscc").fill("91350100M000100Y44");
  await customer.getByTestId("title-bank").fill(COMPANY.cn.bankName);
  await customer.getByTestId("title-account").fill(COMPANY.cn.bankAccountNumber);
  await customer.getByTestId("title-address").fill("北京市海淀区中关村大街 1 号");
  await customer.getByTestId("title-phone").fill("010-12345678");
  await customer.getByRole("dialog").getByRole("button").last().click();
  await expect(customer.getByRole("dialog")).toContainText("校验位不符");
  await customer.getByTestId("title-uscc").fill(COMPANY.cn.creditCode);
  await dialogSubmit(customer);
  await expect(customer.getByTestId("title-row")).toContainText(COMPANY.cn.creditCode);

  const email = `${uniqueUsername("fin")}@example.test`;
  await customer.getByTestId("invoice-apply-open").click();
  const dialog = customer.getByRole("dialog");
  await dialog.getByTestId("apply-title").click();
  await customer.getByRole("option", { name: new RegExp(COMPANY.cn.companyName) }).click();
  await dialog.getByText("增值税专用发票").click();
  await dialog.getByTestId("apply-email").fill(email);
  await dialog.getByTestId("apply-payment-pick").check();
  // More than the recharge: refused by the form with the available amount, nothing sent, nothing applied.
  const applications = countPosts(customer, /\/invoices$/);
  await dialog.getByTestId("apply-payment-amount").fill("1000.01");
  await dialog.getByTestId("apply-submit").click();
  await expect(dialog).toContainText("不能超过可开票金额 ¥1,000.00");
  await expect(dialog.getByTestId("apply-error")).toHaveCount(0);
  expect(applications()).toBe(0);
  await dialog.getByTestId("apply-payment-amount").fill("654.32");
  await expect(dialog.getByTestId("apply-total")).toContainText("¥600.29");
  fs.mkdirSync(".tmp/shots", { recursive: true });
  await customer.screenshot({ path: ".tmp/shots/invoices-apply-zh-CN.png", fullPage: true });
  await dialog.getByTestId("apply-submit").click();
  await expect(dialog).toBeHidden();
  const row = customer.getByTestId("invoice-row").first();
  await expect(row.getByTestId("invoice-status")).toHaveAttribute("data-status", "waiting");
  await expect(row).toContainText("开票中");

  // The operator issues it in the back office with the tax system's number.
  const number = `2611${Date.now().toString().slice(-16)}`;
  await op.goto("/admin/queues/invoices");
  const queued = op.getByTestId("invoice-queue-row").filter({ hasText: orgName });
  await expect(queued).toContainText("6222020200112233445");
  await shots(browser, op, "admin-invoices-waiting", "/admin/queues/invoices");
  await queued.getByTestId("invoice-issue").click();
  await op.getByTestId("invoice-number").fill(number);
  await dialogSubmit(op);
  await expect(queued).toHaveCount(0);

  // The PDF arrives at the SMTP server as an attachment, in the applicant's language.
  await expect.poll(async () => (await caughtMail(customer, email)).length, { timeout: 30_000 }).toBeGreaterThan(0);
  const [mail] = await caughtMail(customer, email);
  expect(mail!.subject).toContain(number);
  expect(mail!.text).toContain("增值税专用发票");
  expect(mail!.attachments).toHaveLength(1);
  expect(mail!.attachments[0]).toMatchObject({ filename: `invoice-${number}.pdf`, contentType: "application/pdf" });
  expect(mail!.attachments[0]!.head.startsWith("%PDF-")).toBe(true);

  // …and downloads from the records.
  await customer.reload();
  await expect(row.getByTestId("invoice-status")).toHaveAttribute("data-status", "success");
  const [download] = await Promise.all([customer.waitForEvent("download"), row.getByTestId("invoice-pdf").click()]);
  expect(download.suggestedFilename()).toBe(`invoice-${number}.pdf`);
  const file = fs.readFileSync((await download.path())!);
  expect(file.subarray(0, 5).toString()).toBe("%PDF-");

  // Red-letter voiding: the buyer enters it (03), the seller confirms (04) and issues the red-letter invoice.
  await row.getByRole("button", { name: COMPANY.cn.companyName }).click();
  await customer.getByRole("menuitem", { name: "红冲（申请红字发票）" }).click();
  await customer.getByTestId("void-reason").fill("金额有误");
  await dialogSubmit(customer);
  await expect(row.getByTestId("red-letter-state")).toHaveAttribute("data-state", "03");
  await expect(row).toContainText("03 购方录入待销方确认");
  await shots(browser, customer, "invoices-cn", "/console/billing/invoices");

  await op.goto("/admin/queues/invoices");
  await op.getByTestId("invoice-queue-filter").getByText("Issued and voiding").click();
  const voiding = op.getByTestId("invoice-queue-row").filter({ hasText: number });
  await expect(voiding).toContainText("03 Entered by the buyer");
  await shots(browser, op, "admin-invoices-issued", "/admin/queues/invoices", async (p) => {
    await p.getByTestId("invoice-queue-filter").locator("label").nth(1).click();
    await expect(p.getByTestId("invoice-queue-row").first()).toBeVisible();
  });
  // Confirming asks first, naming the invoice and the buyer's reason.
  await voiding.getByTestId("red-letter-confirm").click();
  await expect(op.getByTestId("red-letter-confirm-text")).toContainText(number);
  await expect(op.getByTestId("red-letter-confirm-text")).toContainText("金额有误");
  await dialogSubmit(op);
  await expect(voiding).toContainText("04 Confirmed by both");
  await voiding.getByTestId("red-letter-complete").click();
  await op.getByTestId("invoice-number").fill(`R${number.slice(1)}`);
  await dialogSubmit(op);
  await expect(voiding).toHaveCount(0);

  await customer.reload();
  await expect(row.getByTestId("invoice-status")).toHaveAttribute("data-status", "refunded");
  await expect(row).toContainText("已红冲");
  await expect(row.getByTestId("red-letter-state")).toHaveAttribute("data-state", "04");
  // Done, not about to be done.
  await expect(row.getByTestId("red-letter-state")).toHaveText("04 购销双方已确认：已开具红字发票。");
  // The voided amount is available again.
  const overview = await (await customer.request.get(`/api/orgs/${orgId}/invoices/overview`)).json();
  expect(overview.payments[0].available).toBe("1000000000000");

  // …so it can be refunded. A corporate transfer goes back by bank: the operator approves the request (the cash
  // leaves the balance), pays it, and marks it done with the bank's reference.
  await refundByBank(customer, op, { orgName, amount: "100", email, reference: "BANK-20261125-0001" });
  await expect(customer.getByTestId("refund-row").first().getByTestId("refund-status")).toHaveText("已退款");
  await expect(customer.getByTestId("refund-cash")).toHaveText("¥900.00");
  const after = await (await customer.request.get(`/api/orgs/${orgId}/invoices/overview`)).json();
  expect(after.payments[0].available).toBe("900000000000");

  // Every operator step of the journey is in the audit log.
  await op.goto("/admin/audit");
  const actions = op.getByTestId("audit-action");
  for (const action of [
    "verification.approve",
    "payment.confirm",
    "invoice.issue",
    "invoice.red_letter.confirm",
    "invoice.red_letter.complete",
    "refund.approve",
    "refund.complete",
  ]) {
    await expect(actions.filter({ hasText: new RegExp(`^${action.replaceAll(".", "\\.")}$`) }).first()).toBeVisible();
  }
});

test("global: verify, wire transfer, request a tax invoice, issue in the back office, PDF by e-mail and download, credit note, refund", async ({
  browser,
  baseURL,
}) => {
  const { page: customer, orgId, orgName } = await signUpInLocale(browser, "en-US", baseURL!, "ginv");
  const h = await csrfHeaders(customer);

  await customer.goto("/console/billing/invoices");
  await expect(customer.getByTestId("invoice-gate")).toBeVisible();
  await expect(customer.getByTestId("invoice-apply-open")).toBeDisabled();

  // Verified personally, then as a company (a wire transfer needs it), approved in the back office.
  const V = `/api/orgs/${orgId}/verification`;
  expect((await customer.request.post(`${V}/personal`, { headers: h, data: PERSON.global })).status()).toBe(200);
  const applied = await customer.request.post(`${V}/company`, { headers: h, data: COMPANY.global });
  expect((await applied.json()).state).toBe("company_changing");
  const op = await operatorPage(browser, baseURL!);
  await decideCompany(op, orgName, "approve");

  // A wire transfer ordered on the recharge screen shows the USD account with its SWIFT and the reference; the
  // operator confirms it when the money arrives.
  await customer.goto("/console/billing/recharge");
  await customer.getByTestId("recharge-amount").fill("1000");
  await customer.getByTestId("paytype-b2btransfer").check();
  await customer.getByTestId("recharge-agreement").check();
  await customer.getByTestId("recharge-pay").click();
  await expect(customer.getByTestId("transfer-details")).toContainText("SWIFT");
  await confirmTransfer(op, orgName);

  // The invoice information is the bill-to of every invoice; then the request, with a refused amount first.
  await fillInvoiceInfo(customer);
  await expect(customer.getByTestId("invoice-gate")).toHaveCount(0);
  const email = `${uniqueUsername("ap")}@example.test`;
  await customer.getByTestId("invoice-apply-open").click();
  const dialog = customer.getByRole("dialog");
  await expect(dialog.getByTestId("apply-bill-to")).toContainText("Ada Lovelace Ltd");
  await dialog.getByTestId("apply-email").fill(email);
  await dialog.getByTestId("apply-payment-pick").check();
  const applications = countPosts(customer, /\/tax-invoices$/);
  await dialog.getByTestId("apply-payment-amount").fill("1000.01");
  await dialog.getByTestId("apply-submit").click();
  await expect(dialog).toContainText("At most the available amount of $1,000.00.");
  await expect(dialog.getByTestId("apply-error")).toHaveCount(0);
  expect(applications()).toBe(0);
  await dialog.getByTestId("apply-payment-amount").fill("654.32");
  await expect(dialog.getByTestId("apply-total")).toContainText("net $600.29, GST $54.03 at 9 %");
  await customer.screenshot({ path: ".tmp/shots/invoices-apply-en-US.png", fullPage: true });
  await dialog.getByTestId("apply-submit").click();
  await expect(dialog).toBeHidden();
  const row = customer.getByTestId("invoice-row").first();
  await expect(row.getByTestId("invoice-status")).toHaveAttribute("data-status", "waiting");
  await expect(row).toContainText("Tax invoice (GST)");

  // The operator issues it without typing a number: the platform numbers it.
  await op.goto("/admin/queues/invoices");
  const queued = op.getByTestId("invoice-queue-row").filter({ hasText: orgName });
  await expect(queued).toContainText("Tax invoice (GST)");
  await queued.getByTestId("invoice-issue").click();
  await dialogSubmit(op);
  await expect(queued).toHaveCount(0);

  await customer.reload();
  await expect(row.getByTestId("invoice-status")).toHaveAttribute("data-status", "success");
  const number = (await row.getByText(/^INV-\d{8}-[0-9A-Z]{6}$/).textContent())!;
  await expect.poll(async () => (await caughtMail(customer, email)).length, { timeout: 30_000 }).toBeGreaterThan(0);
  const [mail] = await caughtMail(customer, email);
  expect(mail!.subject).toContain(number);
  expect(mail!.text).toContain("tax invoice");
  expect(mail!.attachments[0]).toMatchObject({ filename: `invoice-${number}.pdf`, contentType: "application/pdf" });
  expect(mail!.attachments[0]!.head.startsWith("%PDF-")).toBe(true);
  const [download] = await Promise.all([customer.waitForEvent("download"), row.getByTestId("invoice-pdf").click()]);
  expect(download.suggestedFilename()).toBe(`invoice-${number}.pdf`);
  fs.mkdirSync(".tmp/shots", { recursive: true });
  fs.copyFileSync((await download.path())!, ".tmp/shots/tax-invoice-global.pdf");

  // Voided by a credit note: the buyer (a company, with a tax ID on record) requests it (03), the seller confirms
  // (04) and issues the credit note.
  await row.getByRole("button", { name: "Ada Lovelace Ltd" }).click();
  await customer.getByRole("menuitem", { name: "Void (credit note)" }).click();
  await customer.getByTestId("void-reason").fill("Wrong amount");
  await dialogSubmit(customer);
  await expect(row.getByTestId("red-letter-state")).toHaveAttribute("data-state", "03");
  await op.goto("/admin/queues/invoices");
  await op.getByTestId("invoice-queue-filter").getByText("Issued and voiding").click();
  const voiding = op.getByTestId("invoice-queue-row").filter({ hasText: number });
  await voiding.getByTestId("red-letter-confirm").click();
  await expect(op.getByTestId("red-letter-confirm-text")).toContainText("the credit note next");
  await dialogSubmit(op);
  await expect(voiding).toContainText("the platform issues the credit note");
  await voiding.getByTestId("red-letter-complete").click();
  await dialogSubmit(op);
  await expect(voiding).toHaveCount(0);

  await customer.reload();
  await expect(row.getByTestId("invoice-status")).toHaveAttribute("data-status", "refunded");
  await expect(row).toContainText("Voided by a credit note");
  await expect(row.getByTestId("red-letter-state")).toHaveText("04 Confirmed by both: the credit note was issued.");
  await expect.poll(async () => (await caughtMail(customer, email)).length, { timeout: 30_000 }).toBeGreaterThan(1);
  const credit = (await caughtMail(customer, email)).find((m) => m.subject.includes("voided"))!;
  expect(credit.attachments[0]!.filename).toMatch(/^credit-note-CN-\d{8}-[0-9A-Z]{6}\.pdf$/);
  const [note] = await Promise.all([customer.waitForEvent("download"), row.getByTestId("invoice-void-pdf").click()]);
  expect(note.suggestedFilename()).toBe(credit.attachments[0]!.filename);
  fs.copyFileSync((await note.path())!, ".tmp/shots/credit-note-global.pdf");
  await shots(browser, customer, "invoices-global", "/console/billing/invoices");

  // The voided amount can be refunded: back by wire, approved and marked done by the operator.
  await refundByBank(customer, op, { orgName, amount: "100", email, reference: "WIRE-20261126-0001" });
  await expect(customer.getByTestId("refund-row").first().getByTestId("refund-status")).toHaveText("Refunded");
  await expect(customer.getByTestId("refund-cash")).toHaveText("$900.00");
});

test("global: invoice information before a card payment; the paid order's GST invoice downloads", async ({
  browser,
  baseURL,
}) => {
  const { page } = await signUpInLocale(browser, "en-US", baseURL!, "ginv");
  await page.goto("/console/billing/recharge");
  await expect(page.getByTestId("invoice-info-needed")).toBeVisible();
  await page.getByTestId("invoice-info-link").click();
  // A bad country code is refused in the form.
  await page.getByTestId("info-country_code").fill("UK");
  await page.getByTestId("invoice-info-save").click();
  await expect(page.getByTestId("invoice-info-form")).toContainText("two-letter country code");
  await fillInvoiceInfo(page);

  await page.goto("/console/billing/recharge");
  await expect(page.getByTestId("invoice-info-needed")).toHaveCount(0);
  await page.getByTestId("recharge-amount").fill("25");
  await page.getByTestId("recharge-agreement").check();
  // A card is bound once per instance (billing-journey binds 4242…); the other good test card.
  await bindCard(page, "5555 5555 5555 4444");
  await expect(page.getByRole("dialog")).toBeHidden();
  await page.getByTestId("recharge-pay").click();
  await expect(page.getByTestId("payment-status")).toHaveText("Succeeded", { timeout: 15_000 });

  await page.goto("/console/billing/invoices");
  const order = page.getByTestId("order-invoice-row").first();
  await expect(order).toContainText("$22.94");
  await expect(order).toContainText("$2.06 (9%)");
  const [download] = await Promise.all([page.waitForEvent("download"), order.getByTestId("order-invoice-pdf").click()]);
  expect(download.suggestedFilename()).toMatch(/^INV-.+\.pdf$/);
  expect(
    fs
      .readFileSync((await download.path())!)
      .subarray(0, 5)
      .toString(),
  ).toBe("%PDF-");
});
