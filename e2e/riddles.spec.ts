import { mkdirSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import { RIDDLE_SOLUTIONS } from "../apps/server/test/fixtures/riddle-solutions.ts";
import { signUpFunded } from "./support.ts";

/**
 * Riddle mode in both locales: a wrong attempt explains which rule failed, the live prompt checks hold a prompt
 * that breaks a rule, the first beginner riddle is solved (the next one unlocks), its voucher is claimed and shows
 * on the vouchers screen and in the balance. Screenshots of the mode in both themes go to .tmp/shots/riddles.
 */

const SHOTS = ".tmp/shots/riddles";

async function shoot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => {
      localStorage.setItem("theme", t);
      document.documentElement.setAttribute("data-mantine-color-scheme", t);
    }, theme);
    await page.waitForTimeout(150);
    await page.screenshot({ path: `${SHOTS}/${name}-${theme}.png`, fullPage: true });
  }
  await page.evaluate(() => {
    localStorage.setItem("theme", "light");
    document.documentElement.setAttribute("data-mantine-color-scheme", "light");
  });
}

for (const locale of ["en-US", "zh-CN"] as const) {
  const w =
    locale === "en-US"
      ? {
          wrong: "Tell me about the weather.",
          solution: RIDDLE_SOLUTIONS["first-word"]![0],
          nextGoal: "Make the answer contain 56",
          toClaim: "$0.20 voucher to claim",
          streak: "Streak: 1 day",
          tooLong: "at most 40 are allowed",
          failedRule: "The answer is exactly",
          why: "The answer was",
          voucher: "$0.20",
          riddle: "Riddle",
        }
      : {
          wrong: "说说今天的天气。",
          solution: RIDDLE_SOLUTIONS["first-word"]![1],
          nextGoal: "让回答包含 56",
          toClaim: "待领取 ¥1.00 代金券",
          streak: "连续 1 天",
          tooLong: "最多允许 40 个",
          failedRule: "回答恰好是",
          why: "回答是",
          voucher: "¥1.00",
          riddle: "谜题",
        };

  test(`riddles in ${locale}: fail with a reason, solve, unlock, claim, voucher and balance`, async ({ browser }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({ locale, viewport: { width: 1280, height: 900 } });
    const BASE = test.info().project.use.baseURL!;
    await context.addCookies([{ name: "locale", value: locale, url: BASE }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await signUpFunded(page);

    // The mode switch opens riddle mode; the first beginner riddle is open, the second locked.
    await page.goto("/playground");
    await page.getByTestId("mode-switch").getByText(w.riddle).click();
    await expect(page.getByTestId("riddle-card")).toBeVisible();
    await expect(page.getByTestId("riddle-item-first-word")).toHaveAttribute("data-state", "available");
    await expect(page.getByTestId("riddle-item-times-table")).toHaveAttribute("data-state", "locked");
    await expect(page.getByTestId("riddle-quota")).toContainText("20");
    // The board says what each riddle asks before it is opened, locked ones too.
    await expect(page.getByTestId("riddle-item-times-table").getByTestId("riddle-item-goal")).toContainText(w.nextGoal);
    await shoot(page, `${locale}-start`);

    // Live checks: a prompt over the length rule is flagged and cannot be submitted.
    await page.getByTestId("riddle-prompt").fill("x".repeat(41));
    await expect(page.getByTestId("riddle-prompt-checks")).toContainText(w.tooLong);
    await expect(page.getByTestId("riddle-submit")).toBeDisabled();

    // A wrong attempt: the streamed answer, then a verdict naming the failed rule and why.
    await page.getByTestId("riddle-prompt").fill(w.wrong);
    await page.getByTestId("riddle-submit").click();
    await expect(page.getByTestId("riddle-verdict")).toHaveAttribute("data-passed", "false");
    await expect(page.getByTestId("riddle-verdict")).toContainText(w.failedRule);
    await expect(page.getByTestId("riddle-verdict")).toContainText(w.why);
    await expect(page.getByTestId("riddle-answer")).not.toBeEmpty();
    await expect(page.getByTestId("riddle-history")).toBeVisible();
    await shoot(page, `${locale}-failed`);

    // Its solution prompt (test fixtures only) solves it; the next riddle of the track unlocks.
    await page.getByTestId("riddle-prompt").fill(w.solution);
    await page.getByTestId("riddle-submit").click();
    await expect(page.getByTestId("riddle-verdict")).toHaveAttribute("data-passed", "true");
    await expect(page.getByTestId("riddle-item-first-word")).toHaveAttribute("data-state", "completed");
    await expect(page.getByTestId("riddle-item-times-table")).toHaveAttribute("data-state", "available");
    // Without a reload: the streak counts today's solve and the board offers the reward with its amount.
    await expect(page.getByTestId("riddle-streak")).toContainText(w.streak);
    await expect(page.getByTestId("riddle-streak")).toContainText("1");
    await expect(page.getByTestId("riddle-item-first-word").getByTestId("riddle-item-state")).toContainText(w.toClaim);
    await expect(page.getByTestId("riddle-claim")).toBeVisible();
    await expect(page.getByTestId("riddle-progress")).toHaveText("1 / 5");
    await shoot(page, `${locale}-solved`);

    // Claim the reward: shown as claimed, once.
    await page.getByTestId("riddle-claim").click();
    await expect(page.getByTestId("riddle-claimed")).toContainText(w.voucher);
    await expect(page.getByTestId("riddle-claim")).toHaveCount(0);
    await shoot(page, `${locale}-claimed`);

    // The next riddle opens from the card.
    await page.getByTestId("riddle-next").click();
    await expect(page.getByTestId("riddle-item-times-table")).toHaveAttribute("aria-current", "true");

    // The voucher on the vouchers screen and in the balance.
    await page.goto("/console/billing/vouchers");
    await expect(page.getByTestId("vouchers-table")).toContainText(w.voucher);
    await page.goto("/console/billing");
    await expect(page.getByTestId("overview-voucher")).toContainText(w.voucher);

    // Narrow screens: one column.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/playground?mode=riddle");
    await expect(page.getByTestId("riddle-card")).toBeVisible();
    await shoot(page, `${locale}-narrow`);
    expect(errors).toEqual([]);
    await context.close();
  });
}
