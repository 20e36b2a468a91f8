import { expect, type Page } from "@playwright/test";

/** A fresh mainland mobile number (+86 1xx…) per run, so specs never collide on a reused database. */
export function uniquePhone(): string {
  const digits = String(Date.now() % 1e8).padStart(8, "0");
  return `139${digits}`;
}

export function uniqueUsername(prefix = "e2e"): string {
  return `${prefix}_${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

/** The newest code the development SMS provider "sent" to `phone` (the dev outbox: DEV_SEAMS=true, loopback only). */
export async function latestSmsCode(page: Page, phone: string): Promise<string> {
  const e164 = phone.startsWith("+") ? phone : `+86${phone}`;
  let code: string | null | undefined;
  await expect
    .poll(async () => {
      const res = await page.request.get(`/api/dev/sms-outbox?phone=${encodeURIComponent(e164)}`);
      const list = (await res.json()) as { code: string | null; createdAt: string }[];
      code = [...list].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0]?.code;
      return code;
    })
    .toMatch(/^\d{6}$/);
  return code!;
}

export const PASSWORD = "Moon-port1";
export const NEW_PASSWORD = "Moon-port2!";

/** Signs up through the phone tab of /signup and waits for the console. */
export async function signUpByPhone(page: Page, opts: { phone: string; username: string; password: string }) {
  await page.goto("/signup");
  await page.getByTestId("tab-phone").click();
  const form = page.locator("form");
  await form.locator('input[autocomplete="tel"]').fill(opts.phone);
  await form.getByTestId("send-code").click();
  await expect(form.getByTestId("send-code")).toBeDisabled();
  const code = await latestSmsCode(page, opts.phone);
  await form.locator('input[autocomplete="one-time-code"]').fill(code);
  await form.locator('input[autocomplete="username"]').fill(opts.username);
  await form.locator('input[autocomplete="new-password"]').nth(0).fill(opts.password);
  await form.locator('input[autocomplete="new-password"]').nth(1).fill(opts.password);
  await form.getByTestId("submit").click();
  await expect(page).toHaveURL(/\/console/);
  // The console opens on the organization overview; the profile shows who signed up.
  await page.goto("/console/profile");
  await expect(page.getByTestId("profile-name")).toHaveText(opts.username);
}

/** Signs in on /signin (staying on the current sign-in URL, with its `next`, when already there). */
export async function signInByPassword(page: Page, username: string, password: string) {
  if (!new URL(page.url()).pathname.startsWith("/signin")) await page.goto("/signin");
  const form = page.locator("form");
  await form.locator('input[autocomplete="username"]').fill(username);
  await form.locator('input[autocomplete="current-password"]').fill(password);
  await form.getByTestId("submit").click();
}

export async function signOut(page: Page) {
  await page.getByTestId("user-menu").click();
  await page.getByTestId("sign-out").click();
  await expect(page).toHaveURL(/\/signin/);
}

/** The visible one of elements rendered twice for different screen sizes (header vs. mobile menu). */
export function visibleTestId(page: Page, id: string) {
  return page.locator(`[data-testid="${id}"]:visible`);
}
