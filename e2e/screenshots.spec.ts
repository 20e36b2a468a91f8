import { expect, type Page, test } from "@playwright/test";
import { PASSWORD, signUpByPhone, uniquePhone, uniqueUsername } from "./support.ts";

/**
 * Screenshots of every account screen in both locales, both themes, desktop and a 390 px phone, written to
 * e2e/screenshots/ for review. Opt-in (SCREENSHOTS=1) so `npm test` stays fast.
 */
test.skip(!process.env.SCREENSHOTS, "set SCREENSHOTS=1 to capture screenshots");
test.setTimeout(300_000);

const DIR = "e2e/screenshots";

async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(300);
}

test("capture the home, sign-in, sign-up and console screens", async ({ browser, baseURL }) => {
  const setupPage = await browser.newPage();
  const username = uniqueUsername("shot");
  await signUpByPhone(setupPage, { phone: uniquePhone(), username, password: PASSWORD });
  const state = await setupPage.context().storageState();
  await setupPage.close();

  for (const locale of ["zh-CN", "en-US"] as const) {
    for (const theme of ["light", "dark"] as const) {
      for (const [device, viewport] of [
        ["desktop", { width: 1280, height: 800 }],
        ["phone", { width: 390, height: 844 }],
      ] as const) {
        const tag = `${locale}-${theme}-${device}`;
        const anon = await browser.newContext({ viewport, colorScheme: theme });
        await anon.addCookies([{ name: "locale", value: locale, url: baseURL! }]);
        const page = await anon.newPage();
        for (const [name, path] of [
          ["home", "/"],
          ["signin", "/signin"],
          ["signup", "/signup"],
          ["setup", "/setup?token=from-the-server-log"],
        ] as const) {
          await page.goto(path);
          await settle(page);
          await page.screenshot({ path: `${DIR}/${name}-${tag}.png`, fullPage: true });
        }
        await anon.close();

        const ctx = await browser.newContext({ viewport, colorScheme: theme, storageState: state });
        await ctx.addCookies([{ name: "locale", value: locale, url: baseURL! }]);
        const console = await ctx.newPage();
        await console.goto("/console/profile");
        await expect(console.getByTestId("profile-name")).toBeVisible();
        await settle(console);
        await console.screenshot({ path: `${DIR}/profile-${tag}.png`, fullPage: true });
        await console.getByTestId("change-password").click();
        await console.getByRole("dialog").locator('button[type="submit"]').click();
        await console.waitForTimeout(300);
        await console.screenshot({ path: `${DIR}/change-password-${tag}.png` });
        await console.keyboard.press("Escape");
        await console.getByTestId("bind-phone").click();
        await console.waitForTimeout(400);
        await console.screenshot({ path: `${DIR}/bind-phone-${tag}.png` });
        await console.keyboard.press("Escape");
        if (device === "phone") {
          await console.getByRole("button", { name: /navigation|导航/ }).click();
          await console.waitForTimeout(400);
          await console.screenshot({ path: `${DIR}/console-nav-${tag}.png` });
        } else {
          await console.getByTestId("org-switcher").click();
          await console.waitForTimeout(300);
          await console.screenshot({ path: `${DIR}/org-switcher-${tag}.png` });
        }
        await ctx.close();
      }
    }
  }
});
