import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import ExcelJS from "exceljs";
import OpenAI from "openai";
import { PASSWORD, signUpByPhone, uniquePhone, uniqueUsername } from "./support.ts";

/**
 * Bills, exports and alerts in the browser: fund an organization (DEV_SEAMS grant; recharge is another screen),
 * call /v1 with the OpenAI SDK → the Daily Bill and Request Details show the call → export a past month (rows
 * copied there by the loopback-only seed seam, since a month is exportable only from the 5th of the next) and
 * download it → set a balance alert above the balance → the low-balance e-mail reaches the development outbox
 * (MAIL_TRANSPORT=dev; the SMTP path is tested in apps/server/test/alerts.test.ts against a local SMTP server).
 * Screenshots of the new screens in both locales and themes at 390 px go to .tmp/shots/.
 */
test.setTimeout(240_000);

async function csrfHeaders(page: Page, baseURL: string) {
  const cookies = await page.context().cookies(baseURL);
  return { "x-csrf-token": cookies.find((c) => c.name === "mp_csrf")?.value ?? "", origin: baseURL };
}

function monthsAgo(n: number) {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - n);
  return d.toISOString().slice(0, 7);
}

test("a call shows in the bills, a past month exports and downloads, a low balance e-mails the recipients", async ({
  page,
  baseURL,
  browser,
}) => {
  await signUpByPhone(page, { phone: uniquePhone(), username: uniqueUsername("bills"), password: PASSWORD });
  await page.context().addCookies([{ name: "locale", value: "en-US", url: baseURL! }]);
  const me = await (await page.request.get("/api/me")).json();
  const orgId = me.currentOrganizationId as string;
  const h = await csrfHeaders(page, baseURL!);
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

  // Export a past month that holds rows, download it, and sum it.
  const month = monthsAgo(2);
  const seeded = await page.request.post(`/api/dev/orgs/${orgId}/bills/seed-month`, { data: { month }, headers: h });
  expect((await seeded.json()).copied).toBeGreaterThan(0);
  await page.goto("/console/exports");
  await page.getByTestId("export-month").click();
  await page.getByRole("option", { name: month }).click();
  await page.getByTestId("export-create").click();
  const row = page.getByTestId("export-row").first();
  await expect(row.getByTestId("export-status")).toHaveText("Ready", { timeout: 20_000 });
  const downloadPromise = page.waitForEvent("download");
  await row.getByTestId("export-download").click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(new RegExp(`^bill-${month}-.*\\.xlsx$`));
  const file = await download.path();
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(fs.readFileSync(file!) as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  expect(ws.rowCount).toBeGreaterThanOrEqual(3);
  expect(String(ws.getRow(ws.rowCount).getCell(1).value)).toBe("Total");

  // A month that is not exportable yet: the §8 message with the reason.
  const early = await page.request.post(`/api/orgs/${orgId}/bill-exports`, {
    data: { month: monthsAgo(0) },
    headers: h,
  });
  expect(early.status()).toBe(409);

  // Balance alert above the balance: one e-mail in the outbox.
  const recipient = `${uniqueUsername("ops")}@example.test`;
  await page.goto("/console/alerts");
  await page.getByTestId("alert-enabled").check({ force: true });
  await page.getByTestId("alert-threshold").fill("1000");
  await page.getByTestId("alert-recipients").fill(recipient);
  await page.getByTestId("alert-recipients").press("Enter");
  await page.locator('button[type="submit"]').click();
  await expect(page.getByText("Saved.").or(page.getByText("已保存"))).toBeVisible();
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/dev/mail-outbox?to=${encodeURIComponent(recipient)}`);
        return ((await res.json()) as { subject: string }[]).map((m) => m.subject);
      },
      { timeout: 90_000, intervals: [2000] },
    )
    .toEqual([expect.stringMatching(/available balance below [¥$]1,000\.00/)]);

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
