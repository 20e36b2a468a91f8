import { expect, test } from "@playwright/test";
import { operatorPage, PASSWORD } from "./support.ts";

// Runs before every spec (the "operator" project in playwright.config.ts), in file order on one worker: the setup
// page can only be exercised while no operator exists.

test("the operator setup page refuses a wrong one-time token with the server's reason", async ({ page }) => {
  await page.goto("/setup?token=not-the-printed-token");
  const form = page.locator("form");
  await form.locator('input[autocomplete="username"]').fill("operator_e2e");
  await form.locator('input[autocomplete="new-password"]').nth(0).fill(PASSWORD);
  await form.locator('input[autocomplete="new-password"]').nth(1).fill(PASSWORD);
  await form.locator('button[type="submit"]').click();
  await expect(page.getByTestId("form-error")).toContainText(/setup link is invalid|初始化链接无效/);
  await expect(page).toHaveURL(/\/setup/);
});

test("the operator is created through the real /setup page, which then says setup is complete", async ({
  browser,
  baseURL,
  page,
}) => {
  const operator = await operatorPage(browser, baseURL!);
  await operator.context().close();
  await page.goto("/setup?token=any");
  await expect(page.getByRole("alert")).toContainText(/Setup is complete|初始化已完成/);
  await expect(page.locator('input[autocomplete="username"]')).toHaveCount(0);
});
