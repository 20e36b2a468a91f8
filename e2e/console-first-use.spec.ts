import { type Browser, expect, type Page, test } from "@playwright/test";
import { COMPANY, csrfHeaders, latestSmsCode, operatorPage, PERSON, uniquePhone, uniqueUsername } from "./support.ts";

/**
 * What a new user met in the console: export months, bill badges and tier names, tables on a laptop screen,
 * contact sales for a verified company, renaming and creating organizations, admin-only addresses opened by a
 * member, saved alerts and project rows. Each test also fails on any console error of the page.
 */

test.setTimeout(120_000);

type Locale = "en-US" | "zh-CN";

/** A page in `locale` whose console errors fail the test at its end. */
async function newPage(
  browser: Browser,
  baseURL: string,
  locale: Locale,
  opts: { width?: number; dark?: boolean } = {},
) {
  const context = await browser.newContext({
    locale,
    viewport: { width: opts.width ?? 1280, height: 800 },
    colorScheme: opts.dark ? "dark" : "light",
  });
  await context.addCookies([{ name: "locale", value: locale, url: baseURL }]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto("/");
  return { page, errors };
}

/** Signs up by phone through the real endpoints; the organization's edition follows the page's locale. */
async function signUp(page: Page, phone = uniquePhone()) {
  const sms = await page.request.post("/api/auth/sms", {
    data: { phone, purpose: "signup" },
    headers: await csrfHeaders(page),
  });
  expect(sms.status(), await sms.text()).toBe(200);
  const code = await latestSmsCode(page, phone);
  const username = uniqueUsername("fu");
  const res = await page.request.post("/api/auth/signup/phone", {
    data: { phone, code, username, password: "Str0ng!pass", confirmPassword: "Str0ng!pass" },
    headers: await csrfHeaders(page),
  });
  expect(res.status(), await res.text()).toBe(200);
  const me = await res.json();
  return { orgId: me.currentOrganizationId as string, username, phone };
}

/** One billed request today through the gateway (a provisional day on the daily bill). */
async function billOneRequest(page: Page, orgId: string) {
  const h = await csrfHeaders(page);
  expect((await page.request.post(`/api/dev/orgs/${orgId}/grant`, { data: { amount: "100" }, headers: h })).ok()).toBe(
    true,
  );
  const projects = await (await page.request.get(`/api/orgs/${orgId}/projects`)).json();
  const key = await page.request.post(`/api/orgs/${orgId}/api-keys`, {
    data: { name: "first-use", projectId: projects.items[0].id },
    headers: h,
  });
  const secret = (await key.json()).secret as string;
  const chat = await page.request.post("/v1/chat/completions", {
    headers: { authorization: `Bearer ${secret}` },
    data: { model: "moonshot-v1-8k", messages: [{ role: "user", content: "Hi" }], max_tokens: 4 },
  });
  expect(chat.status(), await chat.text()).toBe(200);
  return secret;
}

test("exports offer every final month back to August 2024", async ({ browser, baseURL }) => {
  const { page, errors } = await newPage(browser, baseURL!, "en-US");
  await signUp(page);
  await page.goto("/console/exports");
  await page.getByTestId("export-month").click();
  await expect(page.getByRole("option", { name: "2024-08", exact: true })).toBeVisible();
  await expect(page.getByRole("option", { name: "2024-07", exact: true })).toHaveCount(0);
  expect(errors).toEqual([]);
});

for (const locale of ["en-US", "zh-CN"] as const) {
  test(`${locale}: one translated name per tier; the provisional badge reads in full at 390 px`, async ({
    browser,
    baseURL,
  }) => {
    const { page, errors } = await newPage(browser, baseURL!, locale, { width: 390, dark: true });
    const { orgId } = await signUp(page);
    await page.goto("/console/limits");
    await expect(page.getByTestId("tier-name")).toHaveText(locale === "en-US" ? "Free" : "免费");

    await billOneRequest(page, orgId);
    await page.goto("/console/bills");
    const badge = page.getByTestId("provisional").first();
    await expect(badge).toHaveText(locale === "en-US" ? /provisional/i : /./);
    const cut = await badge.evaluate((el) => {
      const label = el.querySelector(".mantine-Badge-label") ?? el;
      return label.scrollWidth > label.clientWidth + 1;
    });
    expect(cut).toBe(false);
    await page.screenshot({ path: `.tmp/shots/first-use-daily-bill-${locale}-390-dark.png`, fullPage: true });
    expect(errors).toEqual([]);
  });
}

test("request details and context caches fit a 1366 px screen without sideways scrolling", async ({
  browser,
  baseURL,
}) => {
  const { page, errors } = await newPage(browser, baseURL!, "zh-CN", { width: 1366 });
  await page.setViewportSize({ width: 1366, height: 768 });
  const { orgId } = await signUp(page);
  const secret = await billOneRequest(page, orgId);
  const cache = await page.request.post("/v1/caching", {
    headers: { authorization: `Bearer ${secret}` },
    data: {
      model: "moonshot-v1",
      messages: [{ role: "system", content: "A travel policy. ".repeat(200) }],
      name: "policy",
      ttl: 3600,
    },
  });
  expect(cache.status(), await cache.text()).toBe(200);

  await page.goto("/console/bills");
  await page.getByTestId("bills-tab-requests").click();
  await expect(page.getByTestId("request-bill-row").first()).toBeVisible();
  const scroller = page.getByTestId("table-scroller");
  expect(await scroller.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
  await expect(page.getByTestId("table-scroll-hint")).toHaveCount(0);

  await page.goto("/console/context-caching");
  await expect(page.getByTestId("cache-row").first()).toBeVisible();
  expect(
    await page.getByTestId("table-scroller").evaluate((el) => el.scrollWidth - el.clientWidth),
  ).toBeLessThanOrEqual(1);
  await expect(page.getByTestId("table-scroll-hint")).toHaveCount(0);
  await page.screenshot({ path: ".tmp/shots/first-use-caches-1366.png", fullPage: true });
  expect(errors).toEqual([]);
});

test("contact sales does not ask a company-verified organization whether it is certified", async ({
  browser,
  baseURL,
}) => {
  const { page, errors } = await newPage(browser, baseURL!, "en-US", { width: 390, dark: true });
  const { orgId } = await signUp(page);
  const h = await csrfHeaders(page);
  const V = `/api/orgs/${orgId}/verification`;
  expect((await page.request.post(`${V}/personal`, { headers: h, data: PERSON.global })).status()).toBe(200);
  expect((await page.request.post(`${V}/company`, { headers: h, data: COMPANY.global })).status()).toBe(200);

  // Still pending: the question stays.
  await page.goto("/contact-sales");
  await expect(page.getByTestId("contact-prefilled")).toBeVisible();
  await expect(page.getByTestId("contact-enterpriseCertified")).toBeVisible();

  const op = await operatorPage(browser, baseURL!);
  const pending = await (await op.request.get("/api/admin/verifications")).json();
  const application = pending.items.find((v: { orgId: string }) => v.orgId === orgId);
  const approved = await op.request.post(`/api/admin/verifications/${application.id}/approve`, {
    headers: await csrfHeaders(op),
    data: {},
  });
  expect(approved.status(), await approved.text()).toBe(200);

  await page.goto("/contact-sales");
  await expect(page.getByTestId("contact-certified")).toHaveText("Your organization is company-verified with us.");
  await expect(page.getByTestId("contact-enterpriseCertified")).toHaveCount(0);
  await page.screenshot({ path: ".tmp/shots/first-use-contact-certified-390-dark.png", fullPage: true });
  expect(errors).toEqual([]);
});

test("renaming the organization renames it in the header; a new one's edition is chosen, defaulting to the current", async ({
  browser,
  baseURL,
}) => {
  const { page, errors } = await newPage(browser, baseURL!, "zh-CN");
  await signUp(page);
  await page.goto("/console/organization/general");
  const name = page.getByLabel("组织名称");
  await name.fill("Renamed Org");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByTestId("org-switcher")).toContainText("Renamed Org");

  await page.getByRole("button", { name: "创建组织" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("radio", { name: "中国版（CNY）" })).toBeChecked();
  await dialog.getByLabel("组织名称").fill("Global Arm");
  await dialog.getByRole("radio", { name: "国际版（USD）" }).check();
  await page.screenshot({ path: ".tmp/shots/first-use-new-org-zh.png" });
  await dialog.getByRole("button", { name: "创建组织" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("org-switcher")).toContainText("Global Arm");
  const me = await (await page.request.get("/api/me")).json();
  expect(me.organizations.find((o: { name: string }) => o.name === "Global Arm").currency).toBe("USD");
  expect(errors).toEqual([]);
});

for (const locale of ["en-US", "zh-CN"] as const) {
  test(`${locale}: a member opening a billing address is told why, with a way back and no retry`, async ({
    browser,
    baseURL,
  }) => {
    const admin = await newPage(browser, baseURL!, locale);
    const member = await newPage(browser, baseURL!, locale, { width: 390, dark: true });
    const memberPhone = uniquePhone();
    const { orgId } = await signUp(admin.page, String(Number(memberPhone) - 11));
    await signUp(member.page, memberPhone);
    const inv = await admin.page.request.post(`/api/orgs/${orgId}/invitations`, {
      data: { phone: memberPhone, nickname: "member_one", role: "member" },
      headers: await csrfHeaders(admin.page),
    });
    expect(inv.status(), await inv.text()).toBe(201);
    const token = (await inv.json()).path.split("/").pop();
    const accepted = await member.page.request.post(`/api/invitations/${token}/accept`, {
      data: {},
      headers: await csrfHeaders(member.page),
    });
    expect(accepted.status(), await accepted.text()).toBe(200);

    for (const [path, title] of [
      ["/console/billing", locale === "en-US" ? "Account overview" : "账户总览"],
      ["/console/billing/recharge", locale === "en-US" ? "Recharge" : "充值"],
    ] as const) {
      await member.page.goto(path);
      const box = member.page.getByTestId("forbidden");
      await expect(box.getByRole("heading", { level: 2 })).toHaveText(title);
      await expect(member.page).toHaveTitle(new RegExp(`^${title} · `));
      await expect(box.getByTestId("forbidden-back")).toHaveAttribute("href", "/console/overview");
      await expect(member.page.getByRole("button", { name: locale === "en-US" ? "Retry" : "重试" })).toHaveCount(0);
    }
    await member.page.screenshot({ path: `.tmp/shots/first-use-forbidden-${locale}-390-dark.png`, fullPage: true });
    expect(member.errors.filter((e) => !e.includes("403"))).toEqual([]);
  });
}

test("saving balance alerts confirms it; a project row opens the project from anywhere on it", async ({
  browser,
  baseURL,
}) => {
  const { page, errors } = await newPage(browser, baseURL!, "en-US", { width: 390 });
  await signUp(page);
  await page.goto("/console/alerts");
  await page.getByTestId("alert-threshold").fill("5");
  await page.getByTestId("alert-recipients").fill("finance@example.test");
  await page.getByTestId("alert-recipients").press("Enter");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved.")).toBeInViewport();

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/console/projects");
  const row = page.getByTestId("project-row").first();
  await expect(row.getByRole("link")).toHaveCount(1);
  // A click on the row's date, far from the name: the row's one link covers the whole row.
  const box = (await row.locator("td").nth(4).boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect(page).toHaveURL(/\/console\/projects\/[^/]+/);
  expect(errors).toEqual([]);
});
