import { test } from "@playwright/test";
import { csrfHeaders, fillInvoiceInfo, signUpInLocale } from "./support.ts";

/**
 * Screenshots of every billing screen (overview, recharge with a pending transfer, vouchers, the bind-card dialog),
 * both locales and themes, at 390 px, to .tmp/shots/. The recharge flows themselves run in billing-journey.spec.ts.
 */
test.setTimeout(240_000);

test("screenshots of the billing screens (390 px, both locales and themes)", async ({ browser, baseURL }) => {
  for (const locale of ["zh-CN", "en-US"] as const) {
    const { page, orgId } = await signUpInLocale(browser, locale, baseURL!, "pay");
    // A global card payment needs the invoice information first (§6).
    if (locale === "en-US") await fillInvoiceInfo(page);
    await page.request.post(`/api/orgs/${orgId}/payments`, {
      // A waiting order to show (corporate transfer needs a verified company: WeChat Pay on cn).
      data: { amount: "10", payType: locale === "zh-CN" ? "wxpay" : "credit_card", agreement: true },
      headers: await csrfHeaders(page),
    });
    const res = await page.request.post(`/api/dev/orgs/${orgId}/voucher-code`, {
      data: { amount: "3" },
      headers: await csrfHeaders(page),
    });
    const { code } = await res.json();
    await page.request.post(`/api/orgs/${orgId}/vouchers/redeem`, {
      data: { code },
      headers: await csrfHeaders(page),
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
