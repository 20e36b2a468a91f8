import fs from "node:fs";
import { expect, test } from "@playwright/test";
import OpenAI from "openai";
import { csrfHeaders, PASSWORD, signUpByPhone, uniquePhone, uniqueUsername } from "./support.ts";

/**
 * The bills screens beyond the journey (billing-journey.spec.ts): the Product Bill tab, the 31-day range limit, a
 * month that is not exportable yet, an alert, and screenshots of bills, exports and alerts in both locales and
 * themes at 390 px (.tmp/shots/). Funded by the DEV_SEAMS grant: recharge is the journey's part.
 */
test.setTimeout(240_000);

function monthsAgo(n: number) {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - n);
  return d.toISOString().slice(0, 7);
}

test("bills: product tab, range limit, unexportable month; screenshots of bills, exports and alerts", async ({
  page,
  baseURL,
  browser,
}) => {
  await signUpByPhone(page, { phone: uniquePhone(), username: uniqueUsername("bills"), password: PASSWORD });
  await page.context().addCookies([{ name: "locale", value: "en-US", url: baseURL! }]);
  const me = await (await page.request.get("/api/me")).json();
  const orgId = me.currentOrganizationId as string;
  const h = await csrfHeaders(page);
  expect((await page.request.post(`/api/dev/orgs/${orgId}/grant`, { data: { amount: "20" }, headers: h })).ok()).toBe(
    true,
  );
  const projects = await (await page.request.get(`/api/orgs/${orgId}/projects`)).json();
  const key = await (
    await page.request.post(`/api/orgs/${orgId}/api-keys`, {
      data: { name: "bills-e2e", projectId: projects.items[0].id },
      headers: h,
    })
  ).json();
  const client = new OpenAI({ apiKey: key.secret, baseURL: `${baseURL}/v1`, maxRetries: 0 });
  const completion = await client.chat.completions.create({
    model: "moonshot-v1-8k",
    messages: [{ role: "user", content: "Hello bills" }],
  });
  expect(completion.choices[0]?.message.content).toBeTruthy();

  // Daily Bill: today's provisional row; Request Details: the call itself.
  await page.goto("/console/bills");
  await expect(page.getByTestId("daily-bill-row").first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId("provisional").first()).toBeVisible();
  await expect(page.getByTestId("total-consumption")).not.toHaveText(/^¥0\.00$/);
  await page.getByTestId("bills-tab-product").click();
  await expect(page.getByTestId("product-bill-row").filter({ hasText: "moonshot-v1-8k" })).toBeVisible();
  await page.getByTestId("bills-tab-requests").click();
  await expect(page.getByTestId("request-bill-row").filter({ hasText: "moonshot-v1-8k" }).first()).toBeVisible();
  // A range over 31 days is refused in the form.
  await page.getByTestId("range-from").fill("2020-01-01");
  await expect(page.getByText("The date range can be at most 31 days.")).toBeVisible();

  // A past month with rows and its export, for the exports screenshot (the journey downloads and sums one).
  const month = monthsAgo(2);
  expect(
    (await page.request.post(`/api/dev/orgs/${orgId}/bills/seed-month`, { data: { month }, headers: h })).ok(),
  ).toBe(true);
  expect((await page.request.post(`/api/orgs/${orgId}/bill-exports`, { data: { month }, headers: h })).status()).toBe(
    201,
  );

  // A month that is not exportable yet: the §8 message with the reason.
  const early = await page.request.post(`/api/orgs/${orgId}/bill-exports`, {
    data: { month: monthsAgo(0) },
    headers: h,
  });
  expect(early.status()).toBe(409);

  // An alert with a recipient, for the alerts screenshot (the journey follows its e-mail to the SMTP server).
  await page.goto("/console/alerts");
  await page.getByTestId("alert-enabled").check({ force: true });
  await page.getByTestId("alert-threshold").fill("5");
  await page.getByTestId("alert-recipients").fill("finance@example.test");
  await page.getByTestId("alert-recipients").press("Enter");
  await page.locator('button[type="submit"]').click();
  await expect(page.getByText("Saved.").or(page.getByText("已保存"))).toBeVisible();

  // Screenshots: the three screens, both locales and themes, at 390 px.
  const state = await page.context().storageState();
  fs.mkdirSync(".tmp/shots", { recursive: true });
  for (const locale of ["en-US", "zh-CN"] as const) {
    for (const theme of ["light", "dark"] as const) {
      const ctx = await browser.newContext({
        viewport: { width: 390, height: 844 },
        colorScheme: theme,
        storageState: state,
      });
      await ctx.addCookies([{ name: "locale", value: locale, url: baseURL! }]);
      const p = await ctx.newPage();
      for (const [name, path] of [
        ["bills", "/console/bills"],
        ["exports", "/console/exports"],
        ["alerts", "/console/alerts"],
      ] as const) {
        await p.goto(path);
        await p.waitForLoadState("networkidle");
        if (name === "bills") await p.getByTestId("daily-bill-row").first().waitFor();
        if (name === "exports") await p.getByTestId("export-row").first().waitFor();
        await p.waitForTimeout(300);
        await p.screenshot({ path: `.tmp/shots/${name}-${locale}-${theme}.png`, fullPage: true });
        const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `${path} overflows at 390 px`).toBeLessThanOrEqual(0);
      }
      await ctx.close();
    }
  }
});
