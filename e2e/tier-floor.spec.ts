/**
 * A voucher code's tier is a floor: after redeeming a Tier2 code and recharging $115 by card, the console shows
 * Tier3 and what is left to Tier4; the back office shows the voucher floor and the operator's override apart (both
 * locales), and an operator override is the tier while it is set.
 */
import { expect, test } from "@playwright/test";
import { bindCard, csrfHeaders, fillInvoiceInfo, operatorPage, signUpInLocale } from "./support.ts";

test("a Tier2 voucher then a $115 recharge: Tier3, $885.00 more reaches Tier4; the operator's override decides", async ({
  browser,
  baseURL,
}) => {
  const { page, orgId } = await signUpInLocale(browser, "en-US", baseURL!, "tierfloor");
  await fillInvoiceInfo(page);
  const code = await page.request.post(`/api/dev/orgs/${orgId}/voucher-code`, {
    headers: await csrfHeaders(page),
    data: { amount: "1", tier: 2 },
  });
  expect(code.status(), await code.text()).toBe(200);
  const redeemed = await page.request.post(`/api/orgs/${orgId}/vouchers/redeem`, {
    headers: await csrfHeaders(page),
    data: { code: (await code.json()).code },
  });
  expect(redeemed.status(), await redeemed.text()).toBe(200);
  await page.goto("/console/billing");
  await expect(page.getByTestId("overview-tier")).toHaveText("Tier2");
  await expect(page.getByTestId("overview-tier-progress")).toHaveText(
    "Recharged in total: $0.00 · $100.00 more reaches Tier3",
  );

  await page.goto("/console/billing/recharge");
  await page.getByTestId("recharge-amount").fill("115");
  await page.getByTestId("recharge-agreement").check();
  await bindCard(page, "4242 4242 4242 4242");
  await expect(page.getByRole("dialog")).toBeHidden();
  await page.getByText("VISA •••• 4242").click();
  await page.getByTestId("recharge-pay").click();
  await expect(page.getByTestId("payment-status")).toHaveText("Succeeded", { timeout: 15_000 });

  await page.goto("/console/billing");
  await expect(page.getByTestId("overview-tier")).toHaveText("Tier3");
  await expect(page.getByTestId("overview-tier-progress")).toHaveText(
    "Recharged in total: $115.00 · $885.00 more reaches Tier4",
  );
  await page.goto("/console/limits");
  await expect(page.getByTestId("tier-name")).toHaveText("Tier3");
  await expect(page.getByTestId("tier-progress")).toHaveText(
    "Cumulative recharge $115.00 · recharge $885.00 more to reach Tier4",
  );

  const op = await operatorPage(browser, baseURL!);
  await op.goto(`/admin/organizations/${orgId}`);
  await expect(op.getByTestId("admin-org-tier")).toHaveText("Tier3");
  await expect(op.getByTestId("admin-org-tier-floor")).toHaveText("Tier floor from voucher: Tier2");
  await expect(op.getByTestId("admin-org-tier-override")).toHaveText(
    "Operator override: None (the recharge and any voucher floor decide)",
  );
  const set = await op.request.put(`/api/admin/organizations/${orgId}/limits`, {
    headers: await csrfHeaders(op),
    data: { tierOverride: 1, rateLimitOverride: null },
  });
  expect(set.status(), await set.text()).toBe(200);
  const opZh = await operatorPage(browser, baseURL!, "zh-CN");
  await opZh.goto(`/admin/organizations/${orgId}`);
  await expect(opZh.getByTestId("admin-org-tier")).toHaveText("Tier1");
  await expect(opZh.getByTestId("admin-org-tier-floor")).toHaveText("代金券保底等级: Tier2");
  await expect(opZh.getByTestId("admin-org-tier-override")).toHaveText("运营指定等级: Tier1");

  await page.goto("/console/billing");
  await expect(page.getByTestId("overview-tier")).toHaveText("Tier1");
  await expect(page.getByTestId("overview-tier-progress")).toHaveText(
    "Recharged in total: $115.00 · tier set by the platform operator",
  );
});
