import fs from "node:fs";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { csrfHeaders, operatorPage, signUpInLocale } from "./support.ts";

/**
 * Queues → Invoices → Import: the operator records an invoice issued outside the platform over a cn
 * customer's paid recharge. A bad amount is refused next to its field with the available amount; the import then
 * appears with the issued invoices as "Imported", and the customer sees it in the invoice records as "已导入".
 * Screenshots of the dialog and the queue in both locales and themes go to .tmp/shots/.
 */
test.setTimeout(180_000);
const SHOTS = ".tmp/shots";

async function shots(browser: Browser, page: Page, name: string, prepare: (p: Page) => Promise<void>) {
  fs.mkdirSync(SHOTS, { recursive: true });
  const state = await page.context().storageState();
  for (const locale of ["zh-CN", "en-US"] as const) {
    for (const theme of ["light", "dark"] as const) {
      const ctx = await browser.newContext({
        storageState: state,
        colorScheme: theme,
        viewport: { width: 1280, height: 900 },
      });
      await ctx.addCookies([{ name: "locale", value: locale, url: new URL(page.url()).origin }]);
      const p = await ctx.newPage();
      await p.addInitScript((t) => localStorage.setItem("theme", t), theme);
      await p.goto("/admin/queues/invoices");
      await p.waitForLoadState("networkidle");
      await prepare(p);
      await p.screenshot({ path: `${SHOTS}/${name}-${locale}-${theme}.png`, fullPage: true });
      await ctx.close();
    }
  }
}

test("the operator imports an invoice issued outside the platform; the customer sees it as imported", async ({
  browser,
  baseURL,
}) => {
  const { page: customer, orgId } = await signUpInLocale(browser, "zh-CN", baseURL!, "imp");
  const order = await (
    await customer.request.post(`/api/orgs/${orgId}/payments`, {
      headers: await csrfHeaders(customer),
      data: { amount: "60", payType: "wxpay", agreement: true },
    })
  ).json();
  const payer = await customer.context().newPage();
  await payer.goto(order.qrContent);
  // The sandbox's page speaks the payer's language; its test ids do not change with it.
  await payer.getByTestId("sandbox-pay").click();
  await expect(payer.getByTestId("sandbox-result")).toHaveAttribute("data-outcome", "paid");
  await payer.close();
  await expect
    .poll(async () => (await (await customer.request.get(`/api/orgs/${orgId}/payments/${order.id}`)).json()).status)
    .toBe("success");

  const op = await operatorPage(browser, baseURL!);
  await op.goto("/admin/queues/invoices");
  await op.getByTestId("invoice-import").click();
  const dialog = op.getByRole("dialog");
  const number = `0311${Date.now().toString().slice(-16)}`;
  await dialog.getByTestId("import-org").fill(orgId);
  await dialog.getByTestId("import-number").fill(number);
  await dialog.getByTestId("import-date").fill("2026-01-15");
  await dialog.getByTestId("import-title").fill("差分机科技有限公司");
  await dialog.getByTestId("import-payment").fill(order.id);
  await dialog.getByTestId("import-amount").fill("60.01");
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  await expect(dialog).toContainText("At most the available amount of ¥60.00.");
  await dialog.getByTestId("import-amount").fill("60");
  await dialog.getByRole("button", { name: "Import", exact: true }).click();
  await expect(dialog).toBeHidden();
  const row = op.getByTestId("invoice-queue-row").filter({ hasText: number });
  await expect(row).toContainText("Imported");
  await expect(row).toContainText("差分机科技有限公司");

  await shots(browser, op, "admin-invoice-import", async (p) => {
    await p.getByTestId("invoice-import").click();
    await p.getByRole("dialog").getByTestId("import-org").fill(orgId);
  });
  await shots(browser, op, "admin-invoices-imported", async (p) => {
    await p.getByTestId("invoice-queue-filter").locator("label").nth(1).click();
    await p.getByTestId("invoice-queue-row").first().waitFor();
  });

  await customer.goto("/console/billing/invoices");
  await expect(customer.getByText(number)).toBeVisible();
  await expect(customer.getByText("已导入").first()).toBeVisible();
  await customer.screenshot({ path: `${SHOTS}/invoices-imported-zh-CN.png`, fullPage: true });
});
