import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import ExcelJS from "exceljs";
import OpenAI from "openai";
import { bindCard, caughtMail, csrfHeaders, fillInvoiceInfo, signUpInLocale, uniqueUsername } from "./support.ts";

/**
 * The billing journey of a new customer, once per edition (a personal organization's edition follows the sign-up
 * locale: zh-CN → cn and CNY, en-US → global and USD):
 *
 *   sign up → recharge through the sandbox PSP (cn: WeChat Pay QR paid from "the phone"; global: a card refused at
 *   tokenization, a card declined when charged, then the good test card) → balance and tier on the overview and
 *   the limits screen → call /v1 with the openai SDK → the Daily Bill and Request Details show the call → export a
 *   month and download it → redeem a voucher code → a balance alert above the balance → the low-balance e-mail
 *   reaches the suite's local SMTP server (e2e/mail-catcher.ts), in the organization's language.
 *
 * A month becomes exportable only from 07:00 on the 5th of the next, so the export is of a past month: the
 * loopback-only seed seam copies this organization's real rows (the call above) into it.
 */
test.setTimeout(300_000);

const LOCALE = { cn: "zh-CN", global: "en-US" } as const;
const CURRENCY = { cn: "¥", global: "$" } as const;

function monthsAgo(n: number) {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - n);
  return d.toISOString().slice(0, 7);
}

/** An amount as the console shows it ("¥1,234.5678") in exact nano-units. */
function nanos(text: string): bigint {
  const [whole, frac = ""] = text.replace(/[^\d.]/g, "").split(".");
  return BigInt(whole!) * 1_000_000_000n + BigInt(frac.padEnd(9, "0").slice(0, 9));
}

/** cn: ¥60 by WeChat Pay; the QR's link is opened in a second tab (the payer's phone) and paid there. */
async function rechargeCn(page: Page) {
  await page.goto("/console/billing/recharge");
  await page.getByTestId("recharge-amount").fill("60");
  await page.getByTestId("recharge-agreement").check();
  await page.getByTestId("recharge-pay").click();
  const qr = page.getByTestId("payment-qr");
  await expect(qr).toBeVisible();
  await expect(page.getByTestId("payment-status")).toHaveText("待支付");
  const phone = await page.context().newPage();
  await phone.goto((await qr.getAttribute("data-qr-content"))!);
  // The sandbox's page speaks the payer's language; its test ids do not change with it.
  await phone.getByTestId("sandbox-pay").click();
  await expect(phone.getByTestId("sandbox-result")).toHaveAttribute("data-outcome", "paid");
  await phone.close();
  // The recharge page waits for the signed notification and updates by itself.
  await expect(page.getByTestId("payment-status")).toHaveText("支付成功", { timeout: 15_000 });
}

/** global: $25 by card, after a card the provider refuses to tokenize and one it declines at the charge. */
async function rechargeGlobal(page: Page) {
  // A card payment needs the invoice information first (§6): the recharge screen links to it.
  await page.goto("/console/billing/recharge");
  await expect(page.getByTestId("invoice-info-needed")).toBeVisible();
  await page.getByTestId("invoice-info-link").click();
  await expect(page).toHaveURL(/\/console\/billing\/invoices$/);
  await fillInvoiceInfo(page);
  await page.goto("/console/billing/recharge");
  await expect(page.getByTestId("invoice-info-needed")).toHaveCount(0);
  await page.getByTestId("recharge-amount").fill("25");
  await page.getByTestId("recharge-agreement").check();
  // The dialog starts from what the invoice information says; the cardholder's name and phone are not in it.
  await page.getByTestId("bind-card").click();
  await expect(page.getByTestId("card-email")).toHaveValue("billing@ada.example");
  await expect(page.getByTestId("card-street")).toHaveValue("1 Main St");
  await expect(page.getByTestId("card-city")).toHaveValue("San Francisco");
  await expect(page.getByTestId("card-state")).toHaveValue("CA");
  await expect(page.getByTestId("card-postcode")).toHaveValue("94105");
  await expect(page.getByTestId("card-countryCode")).toHaveValue("US");
  await expect(page.getByTestId("card-firstName")).toHaveValue("");
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  const bind = (number: string) => bindCard(page, number);
  await bind("4242 4242 4242 4241");
  await expect(page.getByTestId("card-error")).toHaveText("The card information is wrong.");
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  await bind("4000 0000 0000 0002");
  await expect(page.getByRole("dialog")).toBeHidden();
  await page.getByTestId("recharge-pay").click();
  await expect(page.getByTestId("recharge-error")).toContainText("The card information is wrong.");
  await bind("4242 4242 4242 4242");
  await expect(page.getByRole("dialog")).toBeHidden();
  await page.getByText("VISA •••• 4242").click();
  await page.getByTestId("recharge-pay").click();
  await expect(page.getByTestId("payment-status")).toHaveText("Succeeded", { timeout: 15_000 });
}

for (const edition of ["cn", "global"] as const) {
  test(`${edition}: recharge → tier → /v1 call → bills → export → voucher → low-balance e-mail over SMTP`, async ({
    browser,
    baseURL,
  }) => {
    const { page, orgId } = await signUpInLocale(browser, LOCALE[edition], baseURL!, `bj${edition}`);
    const cur = CURRENCY[edition];

    // 1. Recharge; the balance, the first-recharge voucher and the tier follow at once.
    if (edition === "cn") await rechargeCn(page);
    else await rechargeGlobal(page);
    const paid = edition === "cn" ? "60.00" : "25.00";
    const tier = edition === "cn" ? "Tier1" : "Tier2";
    await page.goto("/console/billing");
    await expect(page.getByTestId("overview-cash")).toHaveText(`${cur}${paid}`);
    await expect(page.getByTestId("overview-voucher")).toHaveText(`${cur}5.00`);
    await expect(page.getByTestId("overview-tier")).toHaveText(tier);
    await page.goto("/console/limits");
    await expect(page.getByTestId("tier-name")).toHaveText(tier);

    // 2. A call through /v1 with the official SDK, on a key of the default project.
    const h = await csrfHeaders(page);
    const projects = await (await page.request.get(`/api/orgs/${orgId}/projects`)).json();
    const created = await page.request.post(`/api/orgs/${orgId}/api-keys`, {
      data: { name: "journey", projectId: projects.items[0].id },
      headers: h,
    });
    expect(created.status()).toBe(201);
    const client = new OpenAI({ apiKey: (await created.json()).secret, baseURL: `${baseURL}/v1`, maxRetries: 0 });
    const completion = await client.chat.completions.create({
      model: "moonshot-v1-8k",
      messages: [{ role: "user", content: `Hello from the ${edition} journey` }],
    });
    expect(completion.choices[0]?.message.content).toBeTruthy();
    // The bill row carries the request id the gateway answered with (x-request-id), as the SDK exposes it.
    const requestId = completion._request_id!;
    expect(requestId).toBeTruthy();

    // 3. The bills show it: today's provisional Daily Bill and the call in Request Details.
    await page.goto("/console/bills");
    await expect(page.getByTestId("daily-bill-row").first()).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId("provisional").first()).toBeVisible();
    await expect(page.getByTestId("total-consumption")).not.toHaveText(`${cur}0.00`);
    await page.getByTestId("bills-tab-requests").click();
    await expect(page.getByTestId("request-bill-row").filter({ hasText: "moonshot-v1-8k" }).first()).toBeVisible();
    await expect(page.getByTestId("request-bill-row").filter({ hasText: requestId })).toHaveCount(1);
    await page.goto("/console/billing");
    await expect(page.getByTestId("overview-monthSpend")).not.toHaveText(`${cur}0.00`);

    // 4. Export a month and download it: the XLSX's rows sum to its Total row.
    const month = monthsAgo(2);
    const seeded = await page.request.post(`/api/dev/orgs/${orgId}/bills/seed-month`, { data: { month }, headers: h });
    expect((await seeded.json()).copied).toBeGreaterThan(0);
    await page.goto("/console/exports");
    await page.getByTestId("export-month").click();
    await page.getByRole("option", { name: month }).click();
    await page.getByTestId("export-create").click();
    const row = page.getByTestId("export-row").first();
    await expect(row.getByTestId("export-status")).toHaveAttribute("data-status", "success", { timeout: 30_000 });
    const downloading = page.waitForEvent("download");
    await row.getByTestId("export-download").click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^bill-${month}-.*\\.xlsx$`));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(fs.readFileSync((await download.path())!) as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const header = (ws.getRow(1).values as unknown[]).map(String);
    const consumptionCol = header.findIndex((v) => /consumption|消费/i.test(v));
    expect(consumptionCol, `a consumption column in ${header.join(", ")}`).toBeGreaterThan(0);
    let sum = 0;
    for (let r = 2; r < ws.rowCount; r++) sum += Number(ws.getRow(r).getCell(consumptionCol).value);
    const total = ws.getRow(ws.rowCount);
    expect(String(total.getCell(1).value)).toMatch(/Total|合计/);
    expect(sum).toBeGreaterThan(0);
    expect(sum).toBeCloseTo(Number(total.getCell(consumptionCol).value), 9);

    // 5. Redeem a voucher code (an operator makes these; the loopback seam stands in for the CLI here).
    const codeRes = await page.request.post(`/api/dev/orgs/${orgId}/voucher-code`, {
      data: { amount: "7" },
      headers: h,
    });
    expect(codeRes.status(), await codeRes.text()).toBe(200);
    const { code } = await codeRes.json();
    await page.goto("/console/billing");
    const voucherBefore = nanos(await page.getByTestId("overview-voucher").innerText());
    await page.goto("/console/billing/vouchers");
    await page.getByTestId("redeem-open").click();
    await page.getByTestId("redeem-code").fill("NOPE-NOPE-NOPE");
    await page.getByTestId("redeem-submit").click();
    await expect(page.getByTestId("redeem-error")).toBeVisible();
    await page.getByTestId("redeem-code").fill(code);
    await page.getByTestId("redeem-submit").click();
    await expect(page.getByTestId("vouchers-table")).toContainText("7.00");
    await page.goto("/console/billing");
    // The call above was paid from the first-recharge voucher, so the balance is that voucher's rest plus 7.
    await expect
      .poll(async () => nanos(await page.getByTestId("overview-voucher").innerText()))
      .toBe(voucherBefore + 7_000_000_000n);
    // Vouchers never count toward the tier.
    await expect(page.getByTestId("overview-tier")).toHaveText(tier);

    // 6. A balance alert above the balance: one e-mail reaches the SMTP server, in the organization's language.
    const recipient = `${uniqueUsername("ops")}@example.test`;
    await page.goto("/console/alerts");
    await page.getByTestId("alert-enabled").check({ force: true });
    await page.getByTestId("alert-threshold").fill("1000");
    await page.getByTestId("alert-recipients").fill(recipient);
    await page.getByTestId("alert-recipients").press("Enter");
    await page.locator('button[type="submit"]').click();
    await expect(page.getByText("Saved.").or(page.getByText("已保存"))).toBeVisible();
    const subject = edition === "cn" ? /：可用余额低于 ¥1,000\.00$/ : /: available balance below \$1,000\.00$/;
    await expect
      .poll(async () => (await caughtMail(page, recipient)).map((m) => m.subject), {
        timeout: 90_000,
        intervals: [2000],
      })
      .toEqual([expect.stringMatching(subject)]);
    const [mail] = await caughtMail(page, recipient);
    expect(mail!.text).toContain(`${cur}1,000.00`);
    await page.context().close();
  });
}
