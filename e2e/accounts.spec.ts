import { expect, test } from "@playwright/test";
import {
  latestSmsCode,
  NEW_PASSWORD,
  PASSWORD,
  signInByPassword,
  signOut,
  signUpByPhone,
  uniquePhone,
  uniqueUsername,
  visibleTestId,
} from "./support.ts";

test("a visitor signs up by phone, signs out, signs in by password and changes the password", async ({ page }) => {
  const phone = uniquePhone();
  const username = uniqueUsername();

  await signUpByPhone(page, { phone, username, password: PASSWORD });
  // The profile shows the bound phone masked and the personal organization in the switcher.
  await expect(page.getByTestId("phone-masked")).toHaveText(`+86 ${phone.slice(0, 3)}****${phone.slice(-4)}`);
  await expect(page.getByTestId("org-switcher")).toBeVisible();
  await expect(page.getByTestId("sessions")).toContainText(/Chrome|Chromium/);

  await signOut(page);
  // Signed out, the console sends the visitor to sign-in and back afterwards.
  await page.goto("/console/profile");
  await expect(page).toHaveURL(/\/signin\?next=%2Fconsole%2Fprofile/);

  await signInByPassword(page, username, PASSWORD);
  await expect(page).toHaveURL(/\/console\/profile$/);
  await expect(page.getByTestId("profile-name")).toHaveText(username);

  // Change the password: the current one is required.
  await page.getByTestId("change-password").click();
  const dialog = page.getByRole("dialog");
  await dialog.locator('input[autocomplete="current-password"]').fill("Wrong-pass1");
  await dialog.locator('input[autocomplete="new-password"]').nth(0).fill(NEW_PASSWORD);
  await dialog.locator('input[autocomplete="new-password"]').nth(1).fill(NEW_PASSWORD);
  await dialog.locator('button[type="submit"]').click();
  await expect(dialog.getByText(/current password|当前密码/i).last()).toBeVisible();
  await dialog.locator('input[autocomplete="current-password"]').fill(PASSWORD);
  await dialog.locator('button[type="submit"]').click();
  await expect(dialog).toBeHidden();

  await signOut(page);
  await signInByPassword(page, username, PASSWORD);
  await expect(page.getByTestId("form-error")).toBeVisible();
  await expect(page).toHaveURL(/\/signin/);
  await signInByPassword(page, username, NEW_PASSWORD);
  await expect(page).toHaveURL(/\/console/);
  await page.goto("/console/profile");
  await expect(page.getByTestId("profile-name")).toHaveText(username);
});

test("the sign-up form applies the shared validation rules before calling the server", async ({ page }) => {
  await page.goto("/signup");
  await page.getByTestId("tab-username").click();
  const form = page.locator("form");
  await form.locator('input[autocomplete="username"]').fill("13800138000");
  await form.locator('input[autocomplete="new-password"]').nth(0).fill("weakpass");
  await form.locator('input[autocomplete="new-password"]').nth(1).fill("other");
  await form.getByTestId("submit").click();
  const zh = (await page.locator("html").getAttribute("lang")) === "zh-CN";
  await expect(form).toContainText(zh ? "用户名不能是手机号。" : "The username must not be a phone number.");
  await expect(form).toContainText(zh ? "密码须同时包含" : "The password needs an uppercase letter");
  await expect(form).toContainText(zh ? "两次输入的密码不一致。" : "The two passwords do not match.");
  await expect(page).toHaveURL(/\/signup/);
});

test("Get code on the sign-up form checks only the phone, not the fields below it", async ({ page }) => {
  await page.goto("/signup");
  await page.getByTestId("tab-phone").click();
  const form = page.locator("form");
  const phone = form.locator('input[autocomplete="tel"]');
  await form.getByTestId("send-code").click();
  await expect(phone).toHaveAttribute("aria-invalid", "true");
  await expect(form.locator('[aria-invalid="true"]')).toHaveCount(1);
  await phone.fill(uniquePhone());
  await form.getByTestId("send-code").click();
  await expect(form.getByTestId("send-code")).toBeDisabled();
  await expect(form.locator('[aria-invalid="true"]')).toHaveCount(0);
});

test("locale and theme switches persist across reloads", async ({ page }) => {
  const username = uniqueUsername("pref");
  await signUpByPhone(page, { phone: uniquePhone(), username, password: PASSWORD });

  await visibleTestId(page, "locale-switch").click();
  await page.getByTestId("locale-zh-CN").click();
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await expect(page.getByRole("heading", { name: "个人资料" })).toBeVisible();

  await visibleTestId(page, "locale-switch").click();
  await page.getByTestId("locale-en-US").click();
  await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
  await expect(page.getByRole("heading", { name: "Profile" })).toBeVisible();

  await visibleTestId(page, "theme-switch").click();
  await page.getByTestId("theme-dark").click();
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");

  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
  await expect(page.getByRole("heading", { name: "Profile" })).toBeVisible();
  const cookie = (await page.context().cookies()).find((c) => c.name === "locale");
  expect(cookie?.value).toBe("en-US");
  expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(360 * 24 * 3600 * 1000);

  // The public home page, prerendered, comes back in the chosen language and theme too.
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");

  // "System" follows the operating system live. The home page is prerendered: a click before it has hydrated does
  // nothing, so the menu is opened again until it shows.
  await expect(async () => {
    await visibleTestId(page, "theme-switch").click();
    await expect(page.getByTestId("theme-system")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await page.getByTestId("theme-system").click();
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("system");
  await page.emulateMedia({ colorScheme: "light" });
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "light");
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
});

test("a user rebinds the phone with codes to the old and the new phone and revokes another session", async ({
  page,
  browser,
}) => {
  const oldPhone = uniquePhone();
  const username = uniqueUsername("bind");
  await signUpByPhone(page, { phone: oldPhone, username, password: PASSWORD });

  // A second device signs in; the first sees it in the sessions list and revokes it.
  const other = await browser.newContext({
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1",
  });
  const otherPage = await other.newPage();
  await signInByPassword(otherPage, username, PASSWORD);
  await expect(otherPage).toHaveURL(/\/console/);
  await page.reload();
  const sessions = page.getByTestId("sessions");
  await expect(sessions).toContainText("iOS");
  await sessions.getByRole("button").first().click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /Revoke|移除/ })
    .click();
  await expect(sessions).not.toContainText("iOS");
  await otherPage.reload();
  await expect(otherPage).toHaveURL(/\/signin/);
  await other.close();

  // Rebind: a code to the current phone, then one to the new phone.
  const newPhone = uniquePhone().replace(/^139/, "137");
  await page.getByTestId("bind-phone").click();
  const dialog = page.getByRole("dialog");
  const [oldSend, newSend] = [dialog.getByTestId("send-code").nth(0), dialog.getByTestId("send-code").nth(1)];
  await oldSend.click();
  await expect(oldSend).toBeDisabled();
  await expect(oldSend).toHaveText(/\d+/);
  const oldCode = await latestSmsCode(page, oldPhone);
  await dialog.locator('input[autocomplete="one-time-code"]').nth(0).fill(oldCode);
  await dialog.locator('input[autocomplete="tel"]').fill(newPhone);
  await newSend.click();
  await expect(newSend).toBeDisabled();
  const newCode = await latestSmsCode(page, newPhone);
  await dialog.locator('input[autocomplete="one-time-code"]').nth(1).fill(newCode);
  await dialog.locator('button[type="submit"]').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("phone-masked")).toHaveText(`+86 ${newPhone.slice(0, 3)}****${newPhone.slice(-4)}`);
});
