import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { caughtMail, signUpInLocale, uniqueUsername } from "./support.ts";

/**
 * Contact sales (a visitor in both locales, a signed-in user whose organization is filled in) and console feedback
 * with an image. The lead's receipt and the sales and support e-mails are read from the suite's SMTP server.
 * Screenshots of both screens in both locales and themes at 390 px and 1280 px go to .tmp/shots/.
 */
test.setTimeout(180_000);

// A 1×1 PNG (the server recognises images by their signature).
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

async function pick(page: Page, testId: string, option: string | RegExp) {
  await page.getByTestId(testId).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

const TEXT = {
  "zh-CN": {
    required: "此项为必填项。",
    email: "请输入有效的邮箱地址。",
    topic: "提升速率限制",
    industry: "互联网",
    stage: "正在测试 API",
    yes: "是",
    receipt: "我们已收到您的咨询",
  },
  "en-US": {
    required: "This field is required.",
    email: "Enter a valid e-mail address.",
    topic: "Higher rate limits",
    industry: "Internet",
    stage: "Testing the API",
    yes: "Yes",
    receipt: "we received your request",
  },
} as const;

for (const locale of ["zh-CN", "en-US"] as const) {
  test(`${locale}: a visitor contacts sales; bad input is explained, the lead reaches sales and the visitor`, async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ locale });
    await context.addCookies([{ name: "locale", value: locale, url: baseURL! }]);
    const page = await context.newPage();
    const x = TEXT[locale];
    await page.goto("/contact-sales");
    // A top-navbar page: reachable from the home page's header.
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    // Prerendered: the button is enabled once the page has hydrated.
    await expect(page.getByTestId("contact-submit")).toBeEnabled();
    await page.getByTestId("contact-submit").click();
    await expect(page.getByText(x.required).first()).toBeVisible();
    await pick(page, "contact-topic", x.topic);
    await page.getByTestId("contact-name").fill("Grace Hopper");
    await page.getByTestId("contact-phone").fill("+1 555 010 0199");
    await page.getByTestId("contact-email").fill("grace@");
    await page.getByTestId("contact-company").fill("Compilers Inc");
    await pick(page, "contact-industry", x.industry);
    await pick(page, "contact-stage", x.stage);
    await pick(page, "contact-enterpriseCertified", x.yes);
    await page.getByTestId("contact-expectedTpm").fill("500,000");
    await page.getByTestId("contact-background").fill("A code review assistant for 300 engineers.");
    await page.getByTestId("contact-problem").fill("We need more than Tier3 at peak hours.");
    await page.getByTestId("contact-submit").click();
    await expect(page.getByText(x.email)).toBeVisible();
    const email = `${uniqueUsername("lead")}@example.test`;
    await page.getByTestId("contact-email").fill(email);
    await page.getByTestId("contact-submit").click();
    await expect(page.getByTestId("contact-sent")).toContainText(email);
    await expect
      .poll(async () => (await caughtMail(page, email)).map((m) => m.subject), { timeout: 30_000 })
      .toEqual([expect.stringContaining(x.receipt)]);
    // The receipt and the note to sales are separate mail jobs: either may arrive first.
    const toSales = async () => (await caughtMail(page, "sales@moonport.test")).filter((m) => m.text.includes(email));
    await expect.poll(async () => (await toSales()).length, { timeout: 30_000 }).toBe(1);
    expect((await toSales())[0]!.subject).toContain("Compilers Inc");
    await context.close();
  });
}

test("a signed-in user's organization is filled in; feedback with an image; screenshots", async ({
  browser,
  baseURL,
}) => {
  const { page, orgId } = await signUpInLocale(browser, "en-US", baseURL!, "fb");
  await page.goto("/contact-sales");
  await expect(page.getByTestId("contact-prefilled")).toBeVisible();
  await expect(page.getByTestId("contact-organizationId")).toHaveValue(orgId);

  // Feedback from the console's sidebar.
  await page.goto("/console/overview");
  await page.getByRole("link", { name: "Feedback" }).click();
  await expect(page).toHaveURL(/\/console\/feedback$/);
  await page.getByTestId("feedback-submit").click();
  await expect(page.getByText("This field is required.").first()).toBeVisible();
  await pick(page, "feedback-type", "Model output");
  await pick(page, "feedback-model", "moonshot-v1-8k");
  await page.getByTestId("feedback-description").fill("The answer said 2 + 2 = 5.");
  const chooser = page.waitForEvent("filechooser");
  await page.getByTestId("feedback-images").click();
  await (await chooser).setFiles([{ name: "screenshot.png", mimeType: "image/png", buffer: PNG }]);
  await page.getByTestId("feedback-submit").click();
  await expect(page.getByTestId("feedback-sent")).toBeVisible();
  const row = page.getByTestId("feedback-row").first();
  await expect(row).toContainText("The answer said 2 + 2 = 5.");
  await expect(row).toContainText("moonshot-v1-8k");
  await expect(row.getByTestId("feedback-status")).toHaveAttribute("data-status", "new");
  await expect
    .poll(
      async () => (await caughtMail(page, "support@moonport.test")).filter((m) => m.text.includes("2 + 2 = 5")).length,
    )
    .toBe(1);

  // Screenshots: both screens, both locales and themes, phone and desktop widths.
  const state = await page.context().storageState();
  fs.mkdirSync(".tmp/shots", { recursive: true });
  for (const loc of ["en-US", "zh-CN"] as const) {
    for (const theme of ["light", "dark"] as const) {
      for (const width of [390, 1280]) {
        const ctx = await browser.newContext({
          storageState: state,
          colorScheme: theme,
          viewport: { width, height: 900 },
        });
        await ctx.addCookies([{ name: "locale", value: loc, url: baseURL! }]);
        const p = await ctx.newPage();
        for (const [name, path] of [
          ["contact-sales", "/contact-sales"],
          ["feedback", "/console/feedback"],
        ] as const) {
          await p.goto(path);
          await p.waitForLoadState("networkidle");
          await p.screenshot({ path: `.tmp/shots/${name}-${loc}-${theme}-${width}.png`, fullPage: true });
          const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          expect(overflow, `${path} overflows at ${width} px`).toBeLessThanOrEqual(0);
        }
        await ctx.close();
      }
    }
  }
});
