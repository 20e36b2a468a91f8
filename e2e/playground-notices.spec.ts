import { mkdirSync } from "node:fs";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { signUpFunded } from "./support.ts";

/**
 * What the playground tells a new account when a run cannot go on, in both locales, at 390 px in dark mode: an
 * empty balance links the recharge page; an answer cut off by max_tokens names its finish reason; the lowest
 * tier's limits (concurrency 1, RPM 3) — compare mode queues its three panels instead of failing them, and the next
 * run names the limit, when to retry and links the limits page. A new function tool starts from a handler that
 * runs. Screenshots go to .tmp/shots/playground-notices.
 */

const SHOTS = ".tmp/shots/playground-notices";
const MOBILE = { width: 390, height: 844 };

const WORDS = {
  "en-US": {
    recharge: "Recharge",
    limits: "See your rate limits and tier",
    rpm: "RPM 3",
    retry: /Try again in \d+ seconds/,
    finish: "Finish reason: length",
    compare: "Compare",
    send: "Tell me about rivers.",
  },
  "zh-CN": {
    recharge: "去充值",
    limits: "查看速率限制和当前等级",
    rpm: "RPM 3",
    retry: /请 \d+ 秒后再试/,
    finish: "结束原因：length",
    compare: "对比",
    send: "介绍一下河流。",
  },
} as const;

/** A page at 390 px in dark mode whose console errors and page errors are collected; `expected` statuses of the
 * playground's chat endpoint are the refusals under test (Chromium logs every 4xx response as an error). */
async function darkPhone(browser: Browser, locale: "en-US" | "zh-CN", expected: RegExp | null) {
  const context = await browser.newContext({ locale, viewport: MOBILE, colorScheme: "dark" });
  const BASE = test.info().project.use.baseURL!;
  await context.addCookies([{ name: "locale", value: locale, url: BASE }]);
  await context.addInitScript(() => localStorage.setItem("theme", "dark"));
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    if (expected && msg.location().url.endsWith("/playground/chat") && expected.test(msg.text())) return;
    problems.push(`console: ${msg.text()} (${msg.location().url})`);
  });
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  return { context, page, problems };
}

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function send(page: Page, text: string) {
  await page.getByTestId("composer").fill(text);
  await page.getByTestId("composer").press("Enter");
}

for (const locale of ["en-US", "zh-CN"] as const) {
  const w = WORDS[locale];

  test(`playground in ${locale}: empty balance links recharge; a cut-off answer names its finish reason`, async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const { context, page, problems } = await darkPhone(browser, locale, /\b429\b/);
    const { orgId } = await signUpFunded(page, "0");
    await page.goto("/playground");
    await send(page, w.send);
    const error = page.getByTestId("run-error");
    await expect(error).toHaveAttribute("data-code", "playground_insufficient_balance");
    const recharge = error.getByTestId("run-error-recharge");
    await expect(recharge).toHaveText(w.recharge);
    await expect(recharge).toHaveAttribute("href", "/console/billing/recharge");
    await shoot(page, `${locale}-balance`);

    // With money, an answer cut off at a small max_tokens says so.
    const grant = await page.request.post(`/api/dev/orgs/${orgId}/grant`, {
      data: { amount: "10" },
      headers: {
        "x-csrf-token": (await context.cookies()).find((c) => c.name === "mp_csrf")?.value ?? "",
        origin: new URL(page.url()).origin,
      },
    });
    expect(grant.ok()).toBe(true);
    await page.getByRole("button", { name: new RegExp(locale === "en-US" ? "Parameters" : "参数") }).click();
    const maxTokens = page.getByRole("dialog").getByLabel(locale === "en-US" ? "Max tokens" : "最大 tokens");
    await maxTokens.fill("5");
    await page.keyboard.press("Escape");
    await send(page, w.send);
    const finish = page.getByTestId("finish-reason");
    await expect(finish).toHaveAttribute("data-reason", "length", { timeout: 30_000 });
    await expect(finish).toContainText(w.finish);
    await expect(page.getByTestId("run-error")).toHaveCount(0);
    await shoot(page, `${locale}-finish-reason`);
    expect(problems).toEqual([]);
    await context.close();
  });

  test(`playground in ${locale}: compare queues its panels at tier 0; the next run explains the limit`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const { context, page, problems } = await darkPhone(browser, locale, /\b429\b/);
    await signUpFunded(page);
    const refused: string[] = [];
    page.on("response", (r) => {
      if (r.url().endsWith("/playground/chat") && r.status() === 429) refused.push(r.url());
    });
    await page.goto("/playground");
    await page.getByRole("button", { name: locale === "en-US" ? "Templates" : "模板" }).click();
    await page.getByTestId("template-compareModels").click();
    await expect(page.getByTestId("compare-panel")).toHaveCount(3);
    await page.getByTestId("run").click();
    // Concurrency 1: one panel runs while the others wait their turn; every panel gets its answer.
    for (let i = 0; i < 3; i++) {
      const panel = page.getByTestId("compare-panel").nth(i);
      await expect(panel.getByTestId("run-cost")).not.toHaveText("–", { timeout: 60_000 });
      await expect(panel.getByTestId("run-error")).toHaveCount(0);
    }
    expect(refused).toEqual([]);
    await shoot(page, `${locale}-compare-queued`);

    // RPM 3 is used up: the next run is refused, and the notice says which limit, when to retry, and where to look.
    await page
      .getByTestId("mode-switch")
      .getByText(locale === "en-US" ? "Chat" : "对话")
      .click();
    await send(page, w.send);
    const error = page.getByTestId("run-error");
    await expect(error).toHaveAttribute("data-code", "playground_rate_limited");
    await expect(error).toContainText(w.rpm);
    await expect(error).toContainText(w.retry);
    const link = error.getByTestId("run-error-limits");
    await expect(link).toHaveText(w.limits);
    await shoot(page, `${locale}-rate-limited`);
    await link.click();
    await expect(page).toHaveURL(/\/console\/limits$/);
    expect(problems).toEqual([]);
    await context.close();
  });

  test(`playground in ${locale}: a new function tool starts from a handler that runs`, async ({ browser }) => {
    test.setTimeout(120_000);
    const { context, page, problems } = await darkPhone(browser, locale, null);
    await signUpFunded(page);
    await page.goto("/playground");
    await page.getByTestId("tools-open").click();
    await page.getByTestId("tools-tab-functions").click();
    await page.getByTestId("function-new").click();
    const editor = page.getByTestId("function-editor");
    const fields = editor.locator("input, textarea:not([aria-hidden])");
    await expect(fields.nth(4)).toHaveValue(/^function handler\(args\) \{\n[\s\S]+\n\}$/);
    await fields.nth(0).fill("city_info");
    await page.getByTestId("function-test-run").click();
    await expect(page.getByTestId("test-run-result")).toHaveAttribute("data-state", "success");
    await expect(page.getByTestId("test-run-output")).toContainText("Beijing");
    await shoot(page, `${locale}-function-skeleton`);
    expect(problems).toEqual([]);
    await context.close();
  });
}
