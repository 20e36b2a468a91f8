import { expect, test } from "@playwright/test";
import { bindCard, fillInvoiceInfo, signUpInLocale } from "./support.ts";

/**
 * What the recharge screens say about the payment methods: sandbox payments are labelled as test payments
 * wherever they are shown (the order, the payment lists, the balance they made), a method this site does not
 * offer is explained, and a card attempt that failed says so once.
 */
test.setTimeout(120_000);

test("a sandbox card payment is a test payment everywhere; a failed attempt says 'Payment failed' once", async ({
  browser,
  baseURL,
}) => {
  const { page } = await signUpInLocale(browser, "en-US", baseURL!, "tp");
  await fillInvoiceInfo(page);
  await page.goto("/console/billing/recharge");
  await expect(page.getByTestId("recharge-test-notice")).toContainText("Test payment: Credit card goes through");
  await expect(page.getByTestId("recharge-unavailable")).toHaveCount(0);
  await page.getByTestId("recharge-amount").fill("20");
  await page.getByTestId("recharge-agreement").check();
  // The sandbox's "issuer had a temporary problem" card: the order stays open, the attempt failed.
  await bindCard(page, "4000 0000 0000 0119");
  await expect(page.getByRole("dialog")).toBeHidden();
  await page.getByTestId("recharge-pay").click();
  const error = page.getByTestId("recharge-error");
  await expect(error).toContainText("Payment failed: The card issuer had a temporary problem.");
  await expect(error).not.toContainText("Payment failed: Payment failed");
  // The open order is listed first, and a new one waits until it is paid, cancelled or closed.
  const waiting = page.getByTestId("waiting-order");
  await expect(waiting).toContainText("$20.00 · Credit card");

  await bindCard(page, "4242 4242 4242 4242");
  await expect(page.getByRole("dialog")).toBeHidden();
  await page.getByText("VISA •••• 4242").click();
  await page.getByTestId("recharge-pay").click();
  await expect(error).toContainText(
    "Payment failed: Your unpaid order of $20.00 by credit card is still waiting for payment. Continue or cancel it (at the top of the recharge page) before starting a new one.",
  );
  await waiting.getByTestId("waiting-cancel").click();
  await expect(page.getByRole("dialog")).toContainText("The $20.00 order by Credit card will be closed");
  await page.getByTestId("cancel-order-confirm").click();
  await expect(waiting).toHaveCount(0);
  await expect(page.getByTestId("payment-row").filter({ hasText: "Closed" })).toHaveCount(1);
  await page.getByTestId("recharge-pay").click();
  await expect(page.getByTestId("payment-status")).toHaveText("Succeeded", { timeout: 15_000 });
  await expect(page.getByTestId("payment-panel").getByTestId("payment-test")).toHaveText("Test payment");
  await page.reload();
  await expect(
    page.getByTestId("payment-row").filter({ hasText: "Succeeded" }).getByTestId("payment-test"),
  ).toBeVisible();

  await page.goto("/console/billing");
  await expect(page.getByTestId("overview-cash")).toHaveText("$20.00");
  await expect(page.getByTestId("overview-test-balance")).toHaveText(
    "Includes $20.00 recharged by test payments (sandbox): not real money.",
  );
  await expect(
    page.getByTestId("recent-payment").filter({ hasText: "Succeeded" }).getByTestId("payment-test"),
  ).toBeVisible();
});

test("a method this site does not offer is explained (as on a production server without a provider)", async ({
  browser,
  baseURL,
}) => {
  for (const [locale, text] of [
    ["zh-CN", "本站点暂未开通：微信支付、支付宝和银联。需站点运营方先接入支付服务商"],
    ["en-US", "Not available on this site yet: Credit card. The site's operator has to connect a payment provider"],
  ] as const) {
    const { page } = await signUpInLocale(browser, locale, baseURL!, "tpu");
    // What a production server without a real provider answers (payment-sandbox.test.ts checks the server side).
    await page.route("**/recharge/options", async (route) => {
      const res = await route.fetch();
      const body = await res.json();
      await route.fulfill({
        response: res,
        json: { ...body, payTypes: ["b2btransfer"], testPayTypes: [], unavailablePayTypes: body.payTypes.slice(0, -1) },
      });
    });
    await page.goto("/console/billing/recharge");
    await expect(page.getByTestId("recharge-unavailable")).toContainText(text);
    await expect(page.getByTestId("paytype-b2btransfer")).toBeVisible();
    await expect(page.getByTestId("recharge-test-notice")).toHaveCount(0);
    await page.context().close();
  }
});
