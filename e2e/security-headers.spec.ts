import { expect, type Page, type Response, test } from "@playwright/test";
import { PASSWORD, signUpByPhone, uniquePhone, uniqueUsername } from "./support.ts";

/**
 * Every kind of page runs under the Content-Security-Policy the server sends (http/security-headers.ts): the
 * prerendered home and docs pages, the client-only sign-up and console pages. Any violation fails the test.
 */

async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content[- ]Security[- ]Policy/i.test(m.text())) violations.push(`console: ${m.text()}`);
  });
  page.on("pageerror", (e) => violations.push(`pageerror: ${e.message}`));
  await page.exposeFunction("__reportCspViolation", (v: string) => violations.push(`event: ${v}`));
  // Init scripts come from the test runner, not the page, so the policy does not apply to them.
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as unknown as { __reportCspViolation(v: string): void }).__reportCspViolation(
        `${e.effectiveDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`,
      );
    });
  });
  return violations;
}

function expectPagePolicy(res: Response | null) {
  expect(res, "navigation response").not.toBeNull();
  const headers = res!.headers();
  const csp = headers["content-security-policy"] ?? "";
  const scriptSrc = csp.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
  expect(scriptSrc).toContain("'sha256-");
  expect(scriptSrc).not.toContain("unsafe-inline");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["x-content-type-options"]).toBe("nosniff");
}

test("home, docs, sign-up and console pages run without a Content-Security-Policy violation", async ({ page }) => {
  const violations = await watchViolations(page);

  expectPagePolicy(await page.goto("/"));
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // Hydrated: the theme switch is a React control.
  await page.waitForLoadState("networkidle");

  expectPagePolicy(await page.goto("/docs/overview"));
  await expect(page.locator("html")).toHaveAttribute("data-docs-ready", /.+/);

  expectPagePolicy(await page.goto("/signin"));
  await expect(page.locator('input[autocomplete="current-password"]')).toBeVisible();

  // Sign-up (client-only page) lands in the console; then a console screen of its own.
  await signUpByPhone(page, { phone: uniquePhone(), username: uniqueUsername("csp"), password: PASSWORD });
  expectPagePolicy(await page.goto("/console/overview"));
  await expect(page.getByTestId("user-menu")).toBeVisible();
  await page.waitForLoadState("networkidle");

  expect(violations).toEqual([]);
});

test("the docs' platformdebug console (eruda) still loads under the policy", async ({ page }) => {
  const violations = await watchViolations(page);
  expectPagePolicy(await page.goto("/docs/overview?platformdebug"));
  await expect(page.locator("html")).toHaveAttribute("data-docs-ready", /.+/);
  await expect(page.locator("#eruda")).toBeAttached({ timeout: 15_000 });
  expect(violations).toEqual([]);
});
