import fs from "node:fs";
import { type Browser, expect, type Page, test } from "@playwright/test";
import {
  bindCard,
  COMPANY,
  caughtMail,
  csrfHeaders,
  fillInvoiceInfo,
  operatorPage,
  PERSON,
  signUpInLocale,
  uniqueUsername,
} from "./support.ts";

/**
 * Invoices in the browser (issue 14).
 * cn: personal verification → company application → the operator approves it in the back office → a corporate
 * transfer the operator confirms → an invoice title and an application for a special VAT invoice → the operator
 * issues it in the back office → the PDF arrives as an attachment at the suite's SMTP server and downloads from the
 * records → voided through the red-letter flow (buyer enters 03, seller confirms 04 and issues the red-letter
 * invoice; the invoice is voided and its amount available again) → part of it refunded (the operator approves and
 * marks the bank transfer back done) → every operator step in the audit log.
 * global: the invoice information before a card payment, then the paid order's GST invoice downloads.
 * Screenshots of the new screens in both locales and themes at 1280 and 390 px go to .tmp/shots/.
 */
test.setTimeout(300_000);

async function dialogSubmit(page: Page) {
  await page.getByRole("dialog").getByRole("button").last().click();
  await expect(page.getByRole("dialog")).toBeHidden();
}

async function shots(browser: Browser, page: Page, name: string, url: string, prepare?: (p: Page) => Promise<void>) {
  fs.mkdirSync(".tmp/shots", { recursive: true });
  const state = await page.context().storageState();
  for (const locale of ["zh-CN", "en-US"] as const) {
    for (const theme of ["light", "dark"] as const) {
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
  const { page: customer, orgId } = await signUpInLocale(browser, "zh-CN", baseURL!, "inv");
  const h = await csrfHeaders(customer);
  const me = await (await customer.request.get("/api/me")).json();
  const orgName = (me.organizations as { id: string; name: string }[]).find((o) => o.id === orgId)!.name;

  // Before identity verification the screen says what is needed.
  await customer.goto("/console/billing/invoices");
  await expect(customer.getByTestId("invoice-gate")).toBeVisible();
  await expect(customer.getByTestId("invoice-apply-open")).toBeDisabled();

  const V = `/api/orgs/${orgId}/verification`;
  expect((await customer.request.post(`${V}/personal`, { headers: h, data: PERSON })).status()).toBe(200);
  expect((await (await customer.request.post(`${V}/company`, { headers: h, data: COMPANY })).json()).state).toBe(
    "company_changing",
  );

  // The operator approves the company in the back office, then confirms the customer's corporate transfer.
  const op = await operatorPage(browser, baseURL!);
  await op.goto("/admin/queues/verifications");
  const application = op.getByTestId("verification-row").filter({ hasText: orgName });
  await application.getByTestId("verification-approve").click();
  await dialogSubmit(op);
  await expect(application).toHaveCount(0);
  const transfer = await customer.request.post(`/api/orgs/${orgId}/payments`, {
    headers: h,
    data: { amount: "1000", payType: "b2btransfer", agreement: true },
  });
  expect(transfer.status(), await transfer.text()).toBe(201);
  await op.goto("/admin/queues/transfers");
  const transferRow = op.getByTestId("transfer-row").filter({ hasText: orgName });
  await transferRow.getByTestId("transfer-confirm").click();
  await dialogSubmit(op);
  await expect(transferRow).toHaveCount(0);

  // The company is verified and has recharged ¥1,000: the algorithm-filing letter downloads.
  const letter = await customer.request.get(`${V}/filing-letter.pdf`);
  expect(letter.headers()["content-type"]).toBe("application/pdf");
  fs.mkdirSync(".tmp/shots", { recursive: true });
  fs.writeFileSync(".tmp/shots/filing-letter-cn.pdf", await letter.body());

  // A company title with the special-invoice fields, then the application (special VAT, part of the transfer).
  await customer.goto("/console/billing/invoices");
  await expect(customer.getByTestId("invoice-gate")).toHaveCount(0);
  await customer.getByTestId("title-add").click();
  await customer.getByTestId("title-name").fill(COMPANY.companyName);
  await customer.getByTestId("title-uscc").fill("91350100M000100Y44");
  await customer.getByTestId("title-bank").fill(COMPANY.bankName);
  await customer.getByTestId("title-account").fill(COMPANY.bankAccountNumber);
  await customer.getByTestId("title-address").fill("北京市海淀区中关村大街 1 号");
  await customer.getByTestId("title-phone").fill("010-12345678");
  await customer.getByRole("dialog").getByRole("button").last().click();
  await expect(customer.getByRole("dialog")).toContainText("校验位不符");
  await customer.getByTestId("title-uscc").fill(COMPANY.creditCode);
  await dialogSubmit(customer);
  await expect(customer.getByTestId("title-row")).toContainText(COMPANY.creditCode);

  const email = `${uniqueUsername("fin")}@example.test`;
  await customer.getByTestId("invoice-apply-open").click();
  const dialog = customer.getByRole("dialog");
  await dialog.getByTestId("apply-title").click();
  await customer.getByRole("option", { name: new RegExp(COMPANY.companyName) }).click();
  await dialog.getByText("增值税专用发票").click();
  await dialog.getByTestId("apply-email").fill(email);
  await dialog.getByTestId("apply-payment-pick").check();
  // More than the recharge: refused with the available amount, nothing applied.
  await dialog.getByTestId("apply-payment-amount").fill("1000.01");
  await dialog.getByTestId("apply-submit").click();
  await expect(dialog).toContainText("不能超过可开票金额 ¥1,000.00");
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
  await row.getByRole("button", { name: COMPANY.companyName }).click();
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
  await voiding.getByTestId("red-letter-confirm").click();
  await expect(voiding).toContainText("04 Confirmed by both");
  await voiding.getByTestId("red-letter-complete").click();
  await op.getByTestId("invoice-number").fill(`R${number.slice(1)}`);
  await dialogSubmit(op);
  await expect(voiding).toHaveCount(0);

  await customer.reload();
  await expect(row.getByTestId("invoice-status")).toHaveAttribute("data-status", "refunded");
  await expect(row).toContainText("已红冲");
  await expect(row.getByTestId("red-letter-state")).toHaveAttribute("data-state", "04");
  // The voided amount is available again.
  const overview = await (await customer.request.get(`/api/orgs/${orgId}/invoices/overview`)).json();
  expect(overview.payments[0].available).toBe("1000000000000");

  // …so it can be refunded. A corporate transfer goes back by bank: the operator approves the request (the cash
  // leaves the balance), pays it, and marks it done with the bank's reference.
  await customer.goto("/console/billing/refunds");
  const choice = customer.getByTestId("refund-payment").first();
  await choice.getByRole("checkbox").check();
  await choice.getByTestId("refund-amount").fill("100");
  await customer.getByTestId("refund-email").fill(email);
  await customer.getByTestId("refund-submit").click();
  await expect(customer.getByTestId("refund-sent")).toBeVisible();
  await op.goto("/admin/queues/refunds");
  const refund = op.getByTestId("admin-refund-row").filter({ hasText: orgName });
  await refund.getByTestId("refund-approve").click();
  await op.getByRole("dialog").getByRole("button").last().click();
  await expect(op.getByRole("dialog")).toBeHidden();
  await refund.getByTestId("refund-complete").click();
  await op.getByTestId("refund-reference").fill("BANK-20261125-0001");
  await op.getByRole("dialog").getByRole("button").last().click();
  await expect(op.getByRole("dialog")).toBeHidden();
  await customer.reload();
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
  await shots(browser, page, "invoices-global", "/console/billing/invoices");
});
