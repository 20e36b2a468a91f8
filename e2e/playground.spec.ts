import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, type Page, test } from "@playwright/test";
import { signUpFunded, tinyPdf } from "./support.ts";

/**
 * The playground in both locales: a template streamed and stopped midway, three models compared, an edited
 * conversation re-run, a session exported, imported and re-run, the View code Node sample run against the
 * server, and the runs' cost in the project's billing.
 */

const PORT = Number(process.env.E2E_PORT ?? 3100);
const BASE = `http://localhost:${PORT}`;
const run = promisify(execFile);

const assistantTexts = (page: Page) => page.getByTestId("message-assistant").getByTestId("message-content");

for (const locale of ["en-US", "zh-CN"] as const) {
  const words =
    locale === "en-US"
      ? { stopped: "Stopped", imported: "Session imported.", readOnly: "cannot be re-run", history: "History" }
      : { stopped: "已停止", imported: "会话已导入。", readOnly: "无法重新运行", history: "历史" };

  test(`playground in ${locale}: template, stop, compare, edit, export/import, code, billing`, async ({ browser }) => {
    test.setTimeout(480_000);
    const context = await browser.newContext({ locale, acceptDownloads: true });
    await context.addCookies([{ name: "locale", value: locale, url: BASE }]);
    // A new organization is at tier 0 (RPM 3, concurrency 1): the steps are spread over three accounts so that
    // none of them meets the limit (the limits themselves are tested on the server).
    const fresh = async () => {
      const c = await browser.newContext({ locale, acceptDownloads: true });
      await c.addCookies([{ name: "locale", value: locale, url: BASE }]);
      const p = await c.newPage();
      p.on("pageerror", (e) => errors.push(e.message));
      return { page: p, context: c, ...(await signUpFunded(p)) };
    };
    const errors: string[] = [];
    const page = await context.newPage();
    page.on("pageerror", (e) => errors.push(e.message));
    await signUpFunded(page);

    // 1. A template opens in its mode; the run streams and is stopped midway (billed for what was produced).
    await page.goto("/playground");
    await page.getByRole("button", { name: locale === "en-US" ? "Templates" : "模板" }).click();
    await page.getByTestId("template-translation").click();
    await expect(page.getByTestId("chat-view")).toBeVisible();
    await expect(page.getByTestId("system-prompt")).not.toHaveValue("");
    await page.getByTestId("run").click();
    await expect(page.getByTestId("stop")).toBeVisible();
    await expect(assistantTexts(page).first()).not.toHaveText(/^…?$/);
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("run-footer")).toContainText(words.stopped);
    const stoppedText = await assistantTexts(page).first().innerText();
    await expect(page.getByTestId("run-cost")).not.toHaveText("–");
    // Stopped means stopped: nothing more arrives.
    await page.waitForTimeout(500);
    expect(await assistantTexts(page).first().innerText()).toBe(stoppedText);
    // The stopped run is a row of the project's Request Details with the cost its footer showed.
    const stoppedId = await page.getByTestId("run-footer").getAttribute("data-request-id");
    const stoppedCost = await page.getByTestId("run-cost").innerText();
    expect(stoppedId).toMatch(/^req/);
    await page.goto("/console/bills");
    await page.getByTestId("bills-tab-requests").click();
    const stoppedRow = page.getByTestId("request-bill-row").filter({ hasText: stoppedId! });
    await expect(stoppedRow).toContainText(stoppedCost, { timeout: 15_000 });
    await expect(stoppedRow).toContainText("kimi-k2-0905-preview");
    await page.goto("/playground");
    await expect(page.getByTestId("system-prompt")).not.toHaveValue("");

    // 2. Compare three models (another account): each streams into its own panel with its own footer; the
    // project's billing lists the runs with the cost the footers showed.
    const b = await fresh();
    await b.page.goto("/playground");
    await b.page.getByRole("button", { name: locale === "en-US" ? "Templates" : "模板" }).click();
    await b.page.getByTestId("template-compareModels").click();
    await expect(b.page.getByTestId("compare-panel")).toHaveCount(3);
    await b.page.getByTestId("run").click();
    for (let i = 0; i < 3; i++) {
      const panel = b.page.getByTestId("compare-panel").nth(i);
      await expect(panel.getByTestId("run-cost")).not.toHaveText("–", { timeout: 30_000 });
      await expect(panel.getByTestId("message-assistant")).toHaveCount(1);
    }
    const runs: { requestId: string; cost: string; model: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const panel = b.page.getByTestId("compare-panel").nth(i);
      runs.push({
        requestId: (await panel.getByTestId("run-footer").getAttribute("data-request-id")) ?? "",
        cost: await panel.getByTestId("run-cost").innerText(),
        model: await panel.getByTestId("model-select").inputValue(),
      });
    }
    expect(new Set(runs.map((r) => r.requestId)).size).toBe(3);
    const turboCost = runs[2]!.cost;
    // The gateway commits bills in batches up to 500 ms after a run (BillWriter.FLUSH_MS) and the page reads once,
    // so a page opened inside that window is reloaded rather than waited on.
    await expect(async () => {
      await b.page.goto(`/console/projects/${b.projectId}/billing`);
      await expect(b.page.getByRole("row").filter({ hasText: "kimi-k2-turbo-preview" })).toContainText(turboCost, {
        timeout: 5_000,
      });
    }).toPass({ timeout: 30_000 });
    // The organization's Request Details: each playground run is a row of this project, with its model and the
    // exact cost its footer showed.
    const projectName = (
      (await (await b.page.request.get(`/api/orgs/${b.orgId}/projects`)).json()) as {
        items: { id: string; name: string }[];
      }
    ).items.find((p) => p.id === b.projectId)!.name;
    await b.page.goto("/console/bills");
    await b.page.getByTestId("bills-tab-requests").click();
    for (const r of runs) {
      const row = b.page.getByTestId("request-bill-row").filter({ hasText: r.requestId });
      await expect(row).toHaveCount(1, { timeout: 15_000 });
      await expect(row).toContainText(r.model);
      await expect(row).toContainText(projectName);
      await expect(row).toContainText(r.cost);
    }
    await b.context.close();

    // 3. Edit mode: change a message, run from it; a re-run from an earlier message overwrites what followed.
    await page.getByRole("button", { name: locale === "en-US" ? "Templates" : "模板" }).click();
    await page.getByTestId("template-rolePlay").click();
    await expect(page.getByTestId("edit-message")).toHaveCount(3);
    await page.getByTestId("edit-content").nth(2).fill("I designed a queue that handled 10,000 jobs per second.");
    await page.getByTestId("run-from").nth(2).click();
    await expect(page.getByTestId("edit-message")).toHaveCount(4);
    await expect(page.getByTestId("run-cost")).not.toHaveText("–", { timeout: 30_000 });
    await expect(page.getByTestId("edit-content").nth(3)).not.toHaveValue("");
    await page.getByTestId("edit-content").nth(0).fill("Hi! Ready for the interview.");
    await page
      .getByTestId("edit-content")
      .nth(0)
      .press(process.platform === "darwin" ? "Meta+Enter" : "Control+Enter");
    await expect(page.getByTestId("edit-message")).toHaveCount(2);
    await expect(page.getByTestId("stop")).toHaveCount(0, { timeout: 30_000 });
    await expect(page.getByTestId("edit-content").nth(1)).not.toHaveValue("");

    // 4. Export, import, re-run.
    const download = page.waitForEvent("download");
    await page.getByTestId("export").click();
    const file = await (await download).path();
    const exported = JSON.parse(readFileSync(file!, "utf8"));
    expect(exported).toMatchObject({ version: 1, mode: "edit" });
    expect(exported.messages).toHaveLength(2);
    await page.getByRole("button", { name: locale === "en-US" ? "New" : "新建" }).click();
    await page.locator('input[type="file"][accept="application/json,.json"]').setInputFiles(file!);
    await expect(page.getByTestId("notice")).toContainText(words.imported);
    await expect(page.getByTestId("edit-message")).toHaveCount(2);
    await expect(page.getByTestId("run-from").nth(1)).toBeEnabled();
    // A session with files cannot be re-run, and says so.
    const withFiles = {
      ...exported,
      messages: [{ ...exported.messages[0], files: [{ id: "file-x", filename: "a.pdf", bytes: 10 }] }],
    };
    const dir = join(".tmp", "e2e-playground");
    mkdirSync(dir, { recursive: true });
    const filesPath = join(dir, `with-files-${locale}.json`);
    writeFileSync(filesPath, JSON.stringify(withFiles));
    // An import becomes a new saved session a moment later.
    const saved = page.waitForResponse(
      (r) => r.url().endsWith("/playground/sessions") && r.request().method() === "POST",
    );
    await page.locator('input[type="file"][accept="application/json,.json"]').setInputFiles(filesPath);
    await expect(page.getByTestId("read-only")).toContainText(words.readOnly);
    expect((await saved).status()).toBe(201);
    await expect(page.getByTestId("run-from").first()).toBeDisabled();

    // 5. Reload restores the current session; the history lists it.
    await page.reload();
    await expect(page.getByTestId("read-only")).toBeVisible();
    await page.getByRole("button", { name: words.history }).click();
    await expect(page.getByTestId("history-item").first()).toBeVisible();
    await page.keyboard.press("Escape");

    // 6. Another account imports the export and re-runs it; View code → the Node sample, run against the server
    // with a real key, answers.
    const c = await fresh();
    const secret = c.secret;
    await c.page.goto("/playground");
    await c.page.locator('input[type="file"][accept="application/json,.json"]').setInputFiles(file!);
    await expect(c.page.getByTestId("notice")).toContainText(words.imported);
    await c.page.getByTestId("run-from").nth(1).click();
    await expect(c.page.getByTestId("stop")).toHaveCount(0, { timeout: 30_000 });
    await expect(c.page.getByTestId("edit-content").nth(1)).not.toHaveValue("");
    await c.page.getByRole("button", { name: locale === "en-US" ? "New" : "新建" }).click();
    // "New" keeps the mode (edit here); chat mode has the composer.
    await c.page
      .getByTestId("mode-switch")
      .getByText(locale === "en-US" ? "Chat" : "对话", { exact: true })
      .click();
    await c.page.getByTestId("composer").fill("Say hello");
    await c.page.getByTestId("composer").press("Enter");
    await expect(c.page.getByTestId("stop")).toHaveCount(0, { timeout: 30_000 });
    await c.page.getByTestId("view-code").click();
    await c.page.getByRole("tab", { name: "Node.js" }).click();
    const code = await c.page.getByTestId("code-sample").innerText();
    expect(code).toContain(`baseURL: "${BASE}/v1"`);
    expect(code).not.toContain(secret);
    const samplePath = join(dir, `sample-${locale}.mjs`);
    writeFileSync(samplePath, code);
    const { stdout } = await run(process.execPath, [samplePath], {
      env: { ...process.env, MOONPORT_API_KEY: secret },
      timeout: 60_000,
    });
    expect(stdout.trim().length).toBeGreaterThan(0);
    await c.page.keyboard.press("Escape");

    await c.context.close();
    expect(errors).toEqual([]);
    await context.close();
  });
}

for (const locale of ["en-US", "zh-CN"] as const) {
  test(`playground in ${locale}: upload a PDF and ask about it`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ locale });
    await context.addCookies([{ name: "locale", value: locale, url: BASE }]);
    const page = await context.newPage();
    await signUpFunded(page);

    await page.goto("/playground");
    const dir = join(".tmp", "e2e-playground");
    mkdirSync(dir, { recursive: true });
    const pdf = join(dir, "refund-policy.pdf");
    writeFileSync(pdf, tinyPdf("Refunds are accepted within 30 days of purchase."));
    await page.locator('input[type="file"]:not([accept])').setInputFiles(pdf);
    await expect(page.getByTestId("attached-file")).toContainText("refund-policy.pdf", { timeout: 60_000 });
    await page.getByTestId("composer").fill("How many days do I have to ask for a refund?");
    const sent = page.waitForRequest((r) => r.url().endsWith("/playground/chat") && r.method() === "POST");
    await page.getByTestId("composer").press("Enter");
    // The file's extracted text went to the model as a system message before the question (the file-QA way).
    const messages = ((await sent).postDataJSON() as { messages: { role: string; content: string }[] }).messages;
    expect(messages.at(-2)).toEqual({ role: "system", content: expect.stringContaining("within 30 days") });
    expect(messages.at(-1)).toMatchObject({ role: "user", content: "How many days do I have to ask for a refund?" });
    await expect(page.getByTestId("stop")).toHaveCount(0, { timeout: 60_000 });
    await expect(assistantTexts(page).last()).toContainText("30");
    await expect(page.getByTestId("message-system")).toContainText("refund-policy.pdf");
    await context.close();
  });
}

for (const locale of ["en-US", "zh-CN"] as const) {
  test(`playground in ${locale}: parameter rules show on their fields and hold the run`, async ({ browser }) => {
    const context = await browser.newContext({ locale });
    await context.addCookies([{ name: "locale", value: locale, url: BASE }]);
    const page = await context.newPage();
    await signUpFunded(page);
    await page.goto("/playground");
    // SQL from a question runs at temperature 0: several choices would all be the same.
    await page.getByRole("button", { name: locale === "en-US" ? "Templates" : "模板" }).click();
    await page.getByTestId("template-sqlWriter").click();
    await page.getByTestId("param-n").fill("2");
    await expect(
      page.getByText(
        locale === "en-US" ? "n must be 1 when the temperature is 0." : "temperature 为 0 时 n 必须为 1。",
      ),
    ).toBeVisible();
    await expect(page.getByTestId("run")).toBeDisabled();
    await expect(page.getByTestId("send")).toBeDisabled();
    await page.getByTestId("param-n").fill("1");
    // Six stop sequences, then one over 32 bytes.
    const stop = page.getByLabel(locale === "en-US" ? "Stop sequences" : "停止序列", { exact: true });
    await stop.fill("a,b,c,d,e,f");
    await expect(
      page.getByText(
        locale === "en-US" ? "At most 5 stop sequences, separated by commas." : "最多 5 个停止序列，用逗号分隔。",
      ),
    ).toBeVisible();
    await expect(page.getByTestId("run")).toBeDisabled();
    await stop.fill("停".repeat(11));
    await expect(
      page.getByText(
        locale === "en-US" ? "Each stop sequence can be at most 32 bytes." : "每个停止序列最多 32 个字节。",
      ),
    ).toBeVisible();
    await stop.fill("END");
    await expect(page.getByTestId("run")).toBeEnabled();
    await context.close();
  });
}
