import { expect, type Page, test } from "@playwright/test";
import { bindCard, fillInvoiceInfo, signUpInLocale } from "./support.ts";

/**
 * The recharge screen's orders as a new customer meets them: the lists follow the order panel without a reload,
 * an unpaid order is listed first and blocks a new one (the server's refusal names it), cancelling asks first,
 * corporate transfer says before Pay that it needs a verified company, and the sandbox's checkout page and the
 * docs show its test cards in the user's language.
 */
test.setTimeout(150_000);

/**
 * Console and page errors from the moment the page exists. Chromium also logs every 4xx answer as "Failed to load
 * resource"; the refusals these tests provoke (a declined card, a blocked order) are such answers, not errors.
 */
function watchErrors(page: Page) {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) problems.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

test("the recharge details follow the order panel: a declined card's order and a paid one, no reload", async ({
  browser,
  baseURL,
}) => {
  const { page } = await signUpInLocale(browser, "en-US", baseURL!, "ordl");
  const problems = watchErrors(page);
  await fillInvoiceInfo(page);
  await page.goto("/console/billing/recharge");
  await page.getByTestId("recharge-amount").fill("25");
  await page.getByTestId("recharge-agreement").check();
  await bindCard(page, "4000 0000 0000 0002");
  await expect(page.getByRole("dialog")).toBeHidden();
  await page.getByTestId("recharge-pay").click();
  await expect(page.getByTestId("recharge-error")).toContainText("The card information is wrong.");
  const rows = page.getByTestId("payment-row");
  await expect(rows.filter({ hasText: "Failed" })).toHaveCount(1);

  await bindCard(page, "4242 4242 4242 4242");
  await expect(page.getByRole("dialog")).toBeHidden();
  await page.getByText("VISA •••• 4242").click();
  await page.getByTestId("recharge-pay").click();
  await expect(page.getByTestId("payment-status")).toHaveText("Succeeded", { timeout: 15_000 });
  await expect(rows.filter({ hasText: "Succeeded" })).toHaveCount(1);
  await expect(rows.filter({ hasText: "Waiting for payment" })).toHaveCount(0);
  await expect(rows).toHaveCount(2);
  expect(problems).toEqual([]);
});

test("an unpaid order is listed first, blocks a new one by name, and is cancelled only after a confirmation", async ({
  browser,
  baseURL,
}) => {
  const { page } = await signUpInLocale(browser, "zh-CN", baseURL!, "ordw");
  const problems = watchErrors(page);
  await page.goto("/console/billing/recharge");
  await page.getByTestId("recharge-amount").fill("10");
  await page.getByTestId("recharge-agreement").check();
  await page.getByTestId("recharge-pay").click();
  await expect(page.getByTestId("payment-qr")).toBeVisible();
  // The panel shows the order; it is not listed twice.
  await expect(page.getByTestId("waiting-orders")).toHaveCount(0);
  await page.getByTestId("payment-later").click();

  const waiting = page.getByTestId("waiting-order");
  await expect(waiting).toHaveCount(1);
  await expect(waiting).toContainText("¥10.00 · 微信支付");
  await page.getByTestId("recharge-amount").fill("20");
  await page.getByTestId("recharge-pay").click();
  await expect(page.getByTestId("recharge-error")).toContainText(
    "支付失败：您有一笔 ¥10.00 的微信支付订单尚未支付。请先在充值页顶部继续支付或取消该订单，再发起新的充值。",
  );

  await waiting.getByTestId("waiting-continue").click();
  await expect(page.getByTestId("payment-qr")).toBeVisible();
  await page.getByTestId("payment-cancel").click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("取消该订单？");
  await expect(dialog).toContainText("¥10.00 的微信支付订单将被关闭");
  await dialog.getByRole("button", { name: "保留订单" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("payment-status")).toHaveText("待支付");
  await page.getByTestId("payment-cancel").click();
  await page.getByTestId("cancel-order-confirm").click();
  await expect(page.getByTestId("payment-status")).toHaveText("已关闭");
  await expect(page.getByTestId("payment-row").filter({ hasText: "已关闭" })).toHaveCount(1);

  await page.getByRole("button", { name: "返回充值" }).click();
  await expect(page.getByTestId("waiting-orders")).toHaveCount(0);
  await page.getByTestId("recharge-pay").click();
  await expect(page.getByTestId("payment-qr")).toBeVisible();
  await expect(page.getByTestId("payment-panel")).toContainText("¥20.00");
  expect(problems).toEqual([]);
});

test("corporate transfer says before Pay that it needs a verified company, with the way there", async ({
  browser,
  baseURL,
}) => {
  for (const [locale, text] of [
    ["zh-CN", "对公转账需要先完成企业认证"],
    ["en-US", "Corporate transfer needs a verified company"],
  ] as const) {
    const { page } = await signUpInLocale(browser, locale, baseURL!, "ordt");
    await page.goto("/console/billing/recharge");
    await expect(page.getByTestId("paytype-b2btransfer")).toBeDisabled();
    await expect(page.getByTestId("transfer-needs-verification")).toContainText(text);
    await page.getByTestId("verify-link").click();
    await expect(page).toHaveURL(/\/console\/organization\/authentication$/);
    await page.context().close();
  }
});

test("the sandbox checkout page and the self-hosting guide show the test cards in the user's language", async ({
  browser,
  baseURL,
}) => {
  const { page } = await signUpInLocale(browser, "zh-CN", baseURL!, "ordc");
  await page.goto("/console/billing/recharge");
  await page.getByTestId("recharge-amount").fill("10");
  await page.getByTestId("recharge-agreement").check();
  await page.getByTestId("recharge-pay").click();
  const checkout = (await page.getByTestId("payment-qr").getAttribute("data-qr-content"))!;

  const payer = await page.context().newPage();
  await payer.goto(checkout);
  await expect(payer.getByRole("heading", { level: 1 })).toHaveText("微信支付收银台");
  const cards = payer.getByTestId("sandbox-test-cards");
  await expect(cards).toContainText("4000 0000 0000 0119");
  await expect(cards).toContainText("发卡行暂时故障：订单保留，可重新支付");
  await expect(payer.getByTestId("sandbox-pay")).toHaveText("支付 ¥10.00");

  const english = await browser.newContext({ locale: "en-US" });
  await english.addCookies([{ name: "locale", value: "en-US", url: baseURL! }]);
  const other = await english.newPage();
  await other.goto(checkout);
  await expect(other.getByRole("heading", { level: 1 })).toHaveText("WeChat Pay checkout");
  await expect(other.getByTestId("sandbox-test-cards")).toContainText("Declined: “The card information is wrong.”");
  await other.goto("/docs/guide/self-hosting");
  await expect(other.getByRole("heading", { name: /Sandbox test cards/ })).toBeVisible();
  await expect(other.getByRole("row", { name: /4000 0000 0000 0119/ })).toContainText("can be paid again");
  await english.close();

  await payer.goto("/docs/guide/self-hosting");
  await expect(payer.getByRole("heading", { name: /沙箱测试卡/ })).toBeVisible();
  await expect(payer.getByRole("row", { name: /4000 0000 0000 0002/ })).toContainText("卡信息有误");
  await payer.goto(checkout);
  await payer.getByTestId("sandbox-pay").click();
  await expect(payer.getByTestId("sandbox-result")).toHaveText("已付款");
  await expect(page.getByTestId("payment-status")).toHaveText("支付成功", { timeout: 15_000 });
});

test("screenshots: an unpaid order, the cancel confirmation, transfer and the checkout page (390 px, dark)", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(300_000);
  for (const locale of ["zh-CN", "en-US"] as const) {
    const { page } = await signUpInLocale(browser, locale, baseURL!, "ords");
    if (locale === "en-US") await fillInvoiceInfo(page);
    const state = await page.context().storageState();
    await page.context().close();
    const ctx = await browser.newContext({
      storageState: state,
      locale,
      colorScheme: "dark",
      viewport: { width: 390, height: 844 },
    });
    await ctx.addInitScript(() => window.localStorage.setItem("theme", "dark"));
    const p = await ctx.newPage();
    const problems = watchErrors(p);
    await p.goto("/console/billing/recharge");
    await p.getByTestId("recharge-amount").fill("10");
    await p.getByTestId("recharge-agreement").check();
    if (locale === "en-US") {
      // The sandbox's "temporary problem" card leaves the order waiting.
      await bindCard(p, "4000 0000 0000 0119");
      await expect(p.getByRole("dialog")).toBeHidden();
      await p.getByTestId("recharge-pay").click();
      await expect(p.getByTestId("recharge-error")).toBeVisible();
    } else {
      await p.getByTestId("recharge-pay").click();
      await expect(p.getByTestId("payment-qr")).toBeVisible();
      await p.getByTestId("payment-later").click();
    }
    await p.getByTestId("recharge-pay").click();
    await expect(p.getByTestId("waiting-order")).toBeVisible();
    await p.waitForLoadState("networkidle");
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await p.screenshot({ path: `.tmp/shots/recharge-waiting-${locale}-dark.png`, fullPage: true });
    await p.getByTestId("waiting-cancel").click();
    await expect(p.getByRole("dialog")).toBeVisible();
    await p.screenshot({ path: `.tmp/shots/recharge-cancel-${locale}-dark.png` });
    await p.getByRole("dialog").getByRole("button").first().click();
    if (locale === "zh-CN") {
      await p.getByTestId("waiting-continue").click();
      const checkout = (await p.getByTestId("payment-qr").getAttribute("data-qr-content"))!;
      const payer = await ctx.newPage();
      await payer.goto(checkout);
      expect(await payer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await payer.screenshot({ path: `.tmp/shots/sandbox-checkout-${locale}-dark.png`, fullPage: true });
      await payer.close();
    }
    expect(problems).toEqual([]);
    await ctx.close();
  }
});
