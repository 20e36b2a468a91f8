import { expect, test } from "@playwright/test";
import { PASSWORD, signUpByPhone, uniquePhone, uniqueUsername } from "./support.ts";

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false, locale: "fr-FR" });

  test("the home page is prerendered in zh-CN by default and in en-US with the locale cookie", async ({
    page,
    context,
    baseURL,
  }) => {
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("读懂一切");
    await expect(page.getByRole("link", { name: "阅读文档" })).toHaveAttribute("href", "/docs/overview");

    await context.addCookies([{ name: "locale", value: "en-US", url: baseURL! }]);
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("read everything");
    await expect(page).toHaveTitle(/Platform/);
  });
});

test("the home page hydrates without errors and links to docs, pricing and the console", async ({ page }) => {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  await page.goto("/");
  await expect(page.locator('a[href="/docs/pricing/chat"]').first()).toBeVisible();
  await expect(page.locator('a[href="/console"]').first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(errors).toEqual([]);
});

test("Get started leads a visitor to sign-up; a signed-in user sees no Sign in and goes to the console", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page.getByTestId("home-sign-in")).toBeVisible();
  await page.waitForLoadState("networkidle");
  await expect(page.getByTestId("get-started")).toHaveAttribute("href", "/signup");
  await signUpByPhone(page, { phone: uniquePhone(), username: uniqueUsername("home"), password: PASSWORD });
  await page.goto("/");
  await expect(page.getByTestId("get-started")).toHaveAttribute("href", "/console");
  await expect(page.getByTestId("home-sign-in")).toHaveCount(0);
});
