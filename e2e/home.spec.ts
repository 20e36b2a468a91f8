import { expect, test } from "@playwright/test";

test("the home page renders in the default locale", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
});
