import { type Browser, expect, type Page, test } from "@playwright/test";
import { PASSWORD, signUpByPhone, uniquePhone, uniqueUsername } from "./support.ts";

/**
 * Recharge through the sandbox PSP in both editions (the personal organization's edition follows the sign-up
 * locale: zh-CN → cn, en-US → global), then the balance and tier, then a voucher code. Screenshots of every
 * billing screen, both locales and themes, at 390 px go to .tmp/shots/.
 */
test.setTimeout(240_000);

async function newUser(browser: Browser, locale: "zh-CN" | "en-US", baseURL: string) {
  const context = await browser.newContext({ locale });
  await context.addCookies([{ name: "locale", value: locale, url: baseURL }]);
  const page = await context.newPage();
  await signUpByPhone(page, { phone: uniquePhone(), username: uniqueUsername("pay"), password: PASSWORD });
  const me = await (await page.request.get("/api/me")).json();
  return { page, orgId: me.currentOrganizationId as string };
}

async function csrf(page: Page, baseURL: string) {
  const cookies = await page.context().cookies(baseURL);
  return { "x-csrf-token": cookies.find((c) => c.name === "mp_csrf")?.value ?? "", origin: baseURL };
}

async function redeem(page: Page, orgId: string, baseURL: string, amountText: RegExp) {
  const res = await page.request.post(`/api/dev/orgs/${orgId}/voucher-code`, {
    data: { amount: "7" },
    headers: await csrf(page, baseURL),
  });
  expect(res.status(), await res.text()).toBe(200);
  const { code } = await res.json();
  await page.goto("/console/billing/vouchers");
  await page.getByTestId("redeem-open").click();
  await page.getByTestId("redeem-submit").click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await page.getByTestId("redeem-code").fill("NOPE-NOPE-NOPE");
  await page.getByTestId("redeem-submit").click();
  await expect(page.getByTestId("redeem-error")).toBeVisible();
  await page.getByTestId("redeem-code").fill(code);
  await page.getByTestId("redeem-submit").click();
  await expect(page.getByTestId("vouchers-table")).toContainText(amountText);
}

test("cn: recharge by WeChat Pay QR through the sandbox, the page updates by itself; tier and voucher", async ({
  browser,
  baseURL,
}) => {
  const { page, orgId } = await newUser(browser, "zh-CN", baseURL!);
  await page.goto("/console/billing/recharge");
  await page.getByTestId("recharge-pay").click();
  await expect(page.getByText("此项为必填项。")).toBeVisible();
  await page.getByTestId("recharge-amount").fill("1");
  await page.getByTestId("recharge-pay").click();
  await expect(page.getByText("单次充值金额须在 5 到 50,000 之间。")).toBeVisible();
  await expect(page.getByText("请先阅读并同意支付协议。")).toBeVisible();
  await page.getByTestId("recharge-amount").fill("60");
  await page.getByTestId("recharge-agreement").check();
  await page.getByTestId("recharge-pay").click();
  const qr = page.getByTestId("payment-qr");
  await expect(qr).toBeVisible();
  await expect(page.getByTestId("payment-status")).toHaveText("待支付");
  // "Scanning" the QR: open its link in another tab (the payer's phone) and pay on the sandbox's hosted page.
  const link = await qr.getAttribute("data-qr-content");
  const phone = await page.context().newPage();
  await phone.goto(link!);
  await phone.getByRole("button", { name: /Pay/ }).click();
  await expect(phone.getByTestId("sandbox-result")).toHaveText("Payment sent");
  await expect(page.getByTestId("payment-status")).toHaveText("支付成功", { timeout: 15_000 });
  await page.goto("/console/billing");
  await expect(page.getByTestId("overview-cash")).toContainText("60");
  await expect(page.getByTestId("overview-tier")).toHaveText("Tier1");
  // The first recharge of ¥5 or more earns a ¥5 voucher.
  await expect(page.getByTestId("overview-voucher")).toContainText("5");
  await page.goto("/console/limits");
  await expect(page.getByTestId("tier-name")).toHaveText("Tier1");
  await redeem(page, orgId, baseURL!, /7\.00/);
});

test("global: bind a test card and pay; a declined card shows 'card information is wrong'; voucher", async ({
  browser,
  baseURL,
}) => {
  const { page, orgId } = await newUser(browser, "en-US", baseURL!);
  await page.goto("/console/billing/recharge");
  await page.getByTestId("recharge-amount").fill("25");
  await page.getByTestId("recharge-agreement").check();
  await page.getByTestId("recharge-pay").click();
  await expect(page.getByText("Choose a card, or bind one first.")).toBeVisible();
  const bind = async (number: string) => {
    await page.getByTestId("bind-card").click();
    const fields: Record<string, string> = {
      email: "ada@example.com",
      firstName: "Ada",
      lastName: "Lovelace",
      phone: "+1 555 0100",
      street: "1 Main St",
      city: "San Francisco",
      state: "CA",
      postcode: "94105",
      countryCode: "US",
    };
    for (const [k, v] of Object.entries(fields)) await page.getByTestId(`card-${k}`).fill(v);
    await page.getByTestId("card-number").fill(number);
    await page.getByTestId("card-expiry").fill("12/34");
    await page.getByTestId("card-cvc").fill("123");
    await page.getByTestId("card-submit").click();
  };
  // A number the provider refuses at tokenization.
  await bind("4242 4242 4242 4241");
  await expect(page.getByTestId("card-error")).toHaveText("The card information is wrong.");
  await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
  // A card that tokenizes but is declined when charged.
  await bind("4000 0000 0000 0002");
  await expect(page.getByRole("dialog")).toBeHidden();
  await page.getByTestId("recharge-pay").click();
  await expect(page.getByTestId("recharge-error")).toContainText("The card information is wrong.");
  // The good test card.
  await bind("4242 4242 4242 4242");
  await expect(page.getByRole("dialog")).toBeHidden();
  await page.getByText("VISA •••• 4242").click();
  await page.getByTestId("recharge-pay").click();
  await expect(page.getByTestId("payment-status")).toHaveText("Succeeded", { timeout: 15_000 });
  await page.goto("/console/billing");
  await expect(page.getByTestId("overview-cash")).toContainText("25.00");
  await expect(page.getByTestId("overview-tier")).toHaveText("Tier2");
  await redeem(page, orgId, baseURL!, /7\.00/);
});

test("screenshots of the billing screens (390 px, both locales and themes)", async ({ browser, baseURL }) => {
  for (const locale of ["zh-CN", "en-US"] as const) {
    const { page, orgId } = await newUser(browser, locale, baseURL!);
    await page.request.post(`/api/orgs/${orgId}/payments`, {
      data: { amount: "10", payType: locale === "zh-CN" ? "b2btransfer" : "credit_card", agreement: true },
      headers: await csrf(page, baseURL!),
    });
    const res = await page.request.post(`/api/dev/orgs/${orgId}/voucher-code`, {
      data: { amount: "3" },
      headers: await csrf(page, baseURL!),
    });
    const { code } = await res.json();
    await page.request.post(`/api/orgs/${orgId}/vouchers/redeem`, {
      data: { code },
      headers: await csrf(page, baseURL!),
    });
    const state = await page.context().storageState();
    for (const theme of ["light", "dark"] as const) {
      const ctx = await browser.newContext({
        storageState: state,
        colorScheme: theme,
        viewport: { width: 390, height: 844 },
      });
      const p = await ctx.newPage();
      for (const [name, url] of [
        ["overview", "/console/billing"],
        ["recharge", "/console/billing/recharge"],
        ["vouchers", "/console/billing/vouchers"],
      ] as const) {
        await p.goto(url);
        await p.waitForLoadState("networkidle");
        await p.screenshot({ path: `.tmp/shots/billing-${name}-${locale}-${theme}.png`, fullPage: true });
      }
      if (locale === "en-US") {
        await p.goto("/console/billing/recharge");
        await p.getByTestId("bind-card").click();
        await p.waitForTimeout(400);
        await p.screenshot({ path: `.tmp/shots/billing-bind-card-${locale}-${theme}.png`, fullPage: true });
      }
      await ctx.close();
    }
  }
});
