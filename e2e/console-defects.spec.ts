import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { latestSmsCode, uniquePhone, uniqueUsername } from "./support.ts";

/** Console screens that once misbehaved (first phone binding, budget input, dead ends, words and numbers, 390 px). */

const PORT = Number(process.env.E2E_PORT ?? 3100);
const BASE = `http://localhost:${PORT}`;
const PASSWORD = "Str0ng!pass";

async function headers(context: BrowserContext) {
  const cookies = await context.cookies(BASE);
  return { "x-csrf-token": cookies.find((c) => c.name === "mp_csrf")?.value ?? "", origin: BASE };
}

async function englishPage(context: BrowserContext): Promise<Page> {
  await context.addCookies([{ name: "locale", value: "en-US", url: BASE }]);
  const page = await context.newPage();
  await page.goto("/");
  return page;
}

/** A user signed up by username and password only (no phone), through the real endpoint. */
async function signUpByUsername(page: Page): Promise<string> {
  const username = uniqueUsername("nophone");
  const res = await page.request.post("/api/auth/signup/password", {
    data: { username, password: PASSWORD, confirmPassword: PASSWORD },
    headers: await headers(page.context()),
  });
  expect(res.status(), await res.text()).toBe(200);
  return username;
}

/** A user signed up by phone through the real endpoints. */
async function signUpWithPhone(page: Page, phone: string): Promise<{ orgId: string }> {
  const sms = await page.request.post("/api/auth/sms", {
    data: { phone, purpose: "signup" },
    headers: await headers(page.context()),
  });
  expect(sms.status(), await sms.text()).toBe(200);
  const code = await latestSmsCode(page, phone);
  const res = await page.request.post("/api/auth/signup/phone", {
    data: { phone, code, username: uniqueUsername("ph"), password: PASSWORD, confirmPassword: PASSWORD },
    headers: await headers(page.context()),
  });
  expect(res.status(), await res.text()).toBe(200);
  return { orgId: (await res.json()).currentOrganizationId };
}

test("10.1: a user without a phone binds one for the first time", async ({ browser }) => {
  const page = await englishPage(await browser.newContext());
  await signUpByUsername(page);
  await page.goto("/console/profile");
  await page.getByTestId("bind-phone").click();
  const dialog = page.getByRole("dialog");
  const phone = uniquePhone();
  await dialog.getByLabel("New phone number").fill(phone);
  await dialog.getByTestId("send-code").click();
  await dialog.getByLabel("Code sent to the new phone").fill(await latestSmsCode(page, phone));
  await dialog.getByRole("button", { name: "Bind", exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("phone-masked")).toContainText(phone.slice(-4));
});

test("10.2: budget fields keep what was typed and say what is wrong", async ({ browser }) => {
  const page = await englishPage(await browser.newContext());
  const { orgId } = await signUpWithPhone(page, uniquePhone());
  const projects = await (await page.request.get(`/api/orgs/${orgId}/projects`)).json();
  await page.goto(`/console/projects/${projects.items[0].id}/settings`);
  const monthly = page.getByTestId("field-monthlyBudget");
  await monthly.fill("-12.5");
  await expect(monthly).toHaveValue("-12.5");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(monthly).toHaveValue("-12.5");
  await expect(monthly).toHaveAttribute("aria-invalid", "true");
  const daily = page.getByTestId("field-dailyBudget");
  await daily.fill("12345678901234567890");
  await expect(daily).toHaveValue("12345678901234567890");
});

test("10.6: a member without projects is told why there is no key to create; one project is preselected", async ({
  browser,
}) => {
  const adminPage = await englishPage(await browser.newContext());
  const memberPage = await englishPage(await browser.newContext());
  const memberPhone = uniquePhone();
  const { orgId } = await signUpWithPhone(adminPage, String(Number(memberPhone) - 7));
  await signUpWithPhone(memberPage, memberPhone);
  const inv = await adminPage.request.post(`/api/orgs/${orgId}/invitations`, {
    data: { phone: memberPhone, nickname: "nokeys", role: "member" },
    headers: await headers(adminPage.context()),
  });
  expect(inv.status(), await inv.text()).toBe(201);
  const token = (await inv.json()).path.split("/").pop();
  const accepted = await memberPage.request.post(`/api/invitations/${token}/accept`, {
    data: {},
    headers: await headers(memberPage.context()),
  });
  expect(accepted.status(), await accepted.text()).toBe(200);

  // A member of no project: the button is disabled and the page says why.
  await memberPage.goto("/console/api-keys");
  await expect(memberPage.getByTestId("keys-no-project")).toBeVisible();
  await expect(memberPage.getByRole("button", { name: "Create API key" }).first()).toBeDisabled();

  // The admin sees exactly one active project (the default one): the dialog preselects it.
  await adminPage.goto("/console/api-keys");
  await adminPage.getByRole("button", { name: "Create API key" }).first().click();
  await expect(adminPage.getByRole("dialog").getByTestId("key-project-select")).not.toHaveValue("");
});

test("10.6: someone signed in with another account sees whose invitation it is and can switch", async ({ browser }) => {
  const adminPage = await englishPage(await browser.newContext());
  const otherPage = await englishPage(await browser.newContext());
  const { orgId } = await signUpWithPhone(adminPage, uniquePhone());
  await signUpWithPhone(otherPage, String(Number(uniquePhone()) - 3));
  const invited = String(Number(uniquePhone()) - 5);
  const inv = await adminPage.request.post(`/api/orgs/${orgId}/invitations`, {
    data: { phone: invited, nickname: "someone", role: "member" },
    headers: await headers(adminPage.context()),
  });
  const { path } = await inv.json();
  await otherPage.goto(path);
  const box = otherPage.getByTestId("invite-other-account");
  await expect(box).toContainText(`****${invited.slice(-4)}`);
  await expect(otherPage.getByRole("button", { name: "Join" })).toHaveCount(0);
  await box.getByRole("button", { name: "Sign out and continue" }).click();
  await expect(otherPage).toHaveURL(
    new RegExp(`/signin\\?next=${encodeURIComponent(path).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
  );
});

test("10.6: an admin resends a pending invitation and copies the new link", async ({ browser }) => {
  const page = await englishPage(await browser.newContext());
  await signUpWithPhone(page, uniquePhone());
  await page.goto("/console/organization/members");
  await page.getByRole("button", { name: "Invite member" }).click();
  await page.getByLabel("Phone").fill(String(Number(uniquePhone()) - 9));
  await page.getByLabel("Nickname").fill("pending_one");
  await page.getByRole("button", { name: "Create invitation link" }).click();
  const first = await page.locator("code").filter({ hasText: "/invite/" }).innerText();
  await page.getByRole("button", { name: "Done" }).click();
  await page.getByRole("button", { name: "Actions for pending_one" }).click();
  await page.getByRole("menuitem", { name: "Resend link" }).click();
  const second = await page.locator("code").filter({ hasText: "/invite/" }).innerText();
  expect(second).not.toBe(first);
  expect((await page.request.get(`/api/invitations/${first.split("/").pop()}`)).status()).toBe(404);
});

test("10.9 and 10.5: console words, numbers and no page wider than a 390 px phone", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await context.addCookies([{ name: "locale", value: "zh-CN", url: BASE }]);
  const page = await context.newPage();
  await page.goto("/");
  const { orgId } = await signUpWithPhone(page, uniquePhone());
  const projects = await (await page.request.get(`/api/orgs/${orgId}/projects`)).json();
  const projectId = projects.items[0].id;

  await page.goto("/console/organization/general");
  await expect(page.getByTestId("org-time-zone")).toHaveText("中国标准时间");
  await page.goto("/console/limits");
  await expect(page.getByText(/等级 \d/)).toHaveCount(0);
  await expect(page.getByText(/累计充值 ¥0\.00 · 再充值 ¥/)).toBeVisible();

  for (const path of [
    "/console/overview",
    "/console/organization/general",
    "/console/organization/members",
    "/console/organization/projects",
    "/console/organization/api-keys",
    "/console/organization/limits",
    "/console/organization/authentication",
    "/console/projects",
    `/console/projects/${projectId}/overview`,
    `/console/projects/${projectId}/settings`,
    `/console/projects/${projectId}/members`,
    `/console/projects/${projectId}/api-keys`,
    `/console/projects/${projectId}/billing`,
    "/console/api-keys",
    "/console/limits",
    "/console/consumption",
    "/console/profile",
  ]) {
    await page.goto(path);
    await page.waitForLoadState("networkidle");
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, `${path} is ${width}px wide`).toBeLessThanOrEqual(390);
  }

  // A table wider than the phone scrolls inside its frame and says so.
  await page.goto("/console/organization/members");
  await expect(page.getByTestId("table-scroll-hint")).toBeVisible();
});

test("10.7: the console header links back to the home page and the docs", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await englishPage(context);
  await signUpByUsername(page);
  await page.goto("/console/overview");
  const header = page.locator("header");
  await expect(header.getByRole("link", { name: "Docs", exact: true })).toHaveAttribute("href", "/docs/overview");
  await header.getByRole("link", { name: "Home", exact: true }).click();
  await expect(page).toHaveURL(`${BASE}/`);
  await context.close();
});
