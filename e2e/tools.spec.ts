import { mkdirSync } from "node:fs";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page, test } from "@playwright/test";
import { MCP_TOKEN, startMcpServer } from "./mcp-test-server.ts";
import { signUpFunded } from "./support.ts";

/**
 * Tools in the playground, in both locales: the picker (all / none / counts), a custom function tool created
 * (a field error first, in the user's language) and test-run, an MCP server (a real SDK server on loopback, which
 * the e2e server allow-lists) added with a wrong token (the unauthorized message) and then the right one, and a
 * chat whose model calls an official, a custom and an MCP tool, each call shown with its id, arguments, result and
 * final state before the model's answer. SCREENSHOTS=1 also captures the screens in both themes and widths.
 */

const PORT = Number(process.env.E2E_PORT ?? 3100);
const BASE = `http://localhost:${PORT}`;
const SHOTS = ".tmp/shots/tools";

// One MCP server per worker, on a port the system picks: the two locales may run at once (fullyParallel).
let mcp: http.Server;
let mcpPort: number;
test.beforeAll(async () => {
  mcp = await startMcpServer(0);
  mcpPort = (mcp.address() as AddressInfo).port;
});
test.afterAll(async () => {
  mcp.closeAllConnections();
  await new Promise((r) => mcp.close(r));
});

const FUNCTION = {
  name: "moon_distance",
  description: "Distance from the Earth to the Moon in a unit such as km or miles",
  parameters: JSON.stringify(
    { type: "object", properties: { unit: { type: "string", enum: ["km", "mi"] } }, required: ["unit"] },
    null,
    2,
  ),
  exampleInput: '{ "unit": "km" }',
  code: 'function handler(args) {\n  return { distance: args.unit === "km" ? 384400 : 238855, unit: args.unit };\n}',
};

const WORDS = {
  "en-US": {
    nameRule: /Start with a letter or underscore/,
    unauthorized: /refused the credentials \(unauthorized\)/,
    connected: "Connected",
    error: "Error",
    success: "Success",
    questions: [
      ["What is the date today?", "date"],
      ["How far away is the Moon? Use the moon_distance tool.", "moon_distance"],
      ["Shout this text for me: hello world", "shout"],
    ],
    followUp: /Based on the result of/,
  },
  "zh-CN": {
    nameRule: /须以字母或下划线开头/,
    unauthorized: /拒绝了凭据（未授权）/,
    connected: "已连接",
    error: "错误",
    success: "成功",
    questions: [
      ["今天是几号？请用 date 工具。", "date"],
      ["月球有多远？请用 moon_distance 工具。", "moon_distance"],
      ["请用 shout 工具把这段 text 变成大写：hello world", "shout"],
    ],
    followUp: /的返回结果/,
  },
} as const;

async function shoot(page: Page, name: string, locale: string) {
  if (!process.env.SCREENSHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  for (const theme of ["light", "dark"] as const) {
    await page.evaluate((t) => document.documentElement.setAttribute("data-mantine-color-scheme", t), theme);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 860 });
      await page.mouse.move(1, 1);
      await page.waitForTimeout(350);
      await page.screenshot({ path: `${SHOTS}/${name}-${locale}-${theme}-${width}.png`, fullPage: true });
    }
  }
  await page.evaluate(() => document.documentElement.setAttribute("data-mantine-color-scheme", "light"));
  await page.setViewportSize({ width: 1280, height: 860 });
}

for (const locale of ["en-US", "zh-CN"] as const) {
  const w = WORDS[locale];

  test(`tools in ${locale}: picker, custom function, MCP server, a chat calling all three kinds`, async ({
    browser,
  }) => {
    test.setTimeout(300_000);
    const context = await browser.newContext({ locale, viewport: { width: 1280, height: 860 } });
    await context.addCookies([{ name: "locale", value: locale, url: BASE }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await signUpFunded(page);
    await page.goto("/playground");

    // 1. The picker: twelve official tools (13 functions), all and none, with the counts.
    await page.getByTestId("tools-open").click();
    const count = page.getByTestId("tools-picker-count");
    await expect(count).toHaveText(locale === "en-US" ? "0 of 13 tools enabled" : "已启用 0 / 13 个工具");
    await page.getByTestId("tools-all").click();
    await expect(count).toHaveText(locale === "en-US" ? "13 of 13 tools enabled" : "已启用 13 / 13 个工具");
    await page.getByTestId("tools-none").click();
    await expect(count).toHaveText(locale === "en-US" ? "0 of 13 tools enabled" : "已启用 0 / 13 个工具");
    await shoot(page, "picker", locale);

    // 2. A custom function tool: a bad name is refused on its field in the user's language, then saved, test-run.
    await page.getByTestId("tools-tab-functions").click();
    await page.getByTestId("function-new").click();
    const editor = page.getByTestId("function-editor");
    const fields = editor.locator("input, textarea:not([aria-hidden])");
    await fields.nth(0).fill("9lives");
    await fields.nth(1).fill(FUNCTION.description);
    await fields.nth(2).fill(FUNCTION.parameters);
    await fields.nth(3).fill(FUNCTION.exampleInput);
    await fields.nth(4).fill(FUNCTION.code);
    await page.getByTestId("function-save").click();
    await expect(editor).toContainText(w.nameRule);
    await fields.nth(0).fill(FUNCTION.name);
    await page.getByTestId("function-test-run").click();
    const result = page.getByTestId("test-run-result");
    await expect(result).toHaveAttribute("data-state", "success");
    await expect(page.getByTestId("test-run-output")).toHaveText('{"distance":384400,"unit":"km"}');
    await shoot(page, "editor", locale);
    await page.getByTestId("function-save").click();
    await expect(editor).toHaveCount(0);
    await expect(page.getByTestId("function-row")).toContainText(FUNCTION.name);

    // 3. An MCP server: a wrong token gives the unauthorized message; the right one connects and syncs its tool.
    await page.getByTestId("tools-tab-mcp").click();
    await page.getByTestId("mcp-add").click();
    await page.getByTestId("mcp-name").fill("Shouter");
    await page.getByTestId("mcp-url").fill(`http://127.0.0.1:${mcpPort}/bearer/mcp`);
    await page.getByTestId("mcp-auth").click();
    await page.getByRole("option", { name: locale === "en-US" ? "Bearer token" : "Bearer 令牌" }).click();
    await page.getByTestId("mcp-token").fill("wrong-token");
    await page.getByRole("button", { name: locale === "en-US" ? "Save and sync" : "保存并同步" }).click();
    const row = page.getByTestId("mcp-row").filter({ hasText: "Shouter" });
    await expect(row.getByTestId("mcp-status")).toHaveText(w.error, { timeout: 20_000 });
    await expect(row.getByTestId("mcp-error")).toContainText(w.unauthorized);
    await row.getByRole("button", { name: locale === "en-US" ? "Edit" : "编辑" }).click();
    // The stored token is never shown: the field is empty and says it is set.
    await expect(page.getByTestId("mcp-token")).toHaveValue("");
    await page.getByTestId("mcp-token").fill(MCP_TOKEN);
    await page.getByRole("button", { name: locale === "en-US" ? "Save and sync" : "保存并同步" }).click();
    await expect(row.getByTestId("mcp-status")).toHaveText(w.connected, { timeout: 20_000 });
    await expect(row).toContainText("shout");
    await shoot(page, "mcp", locale);

    // 4. Enable one tool of each kind.
    await page.getByTestId("tools-tab-picker").click();
    await expect(count).toHaveText(locale === "en-US" ? "0 of 15 tools enabled" : "已启用 0 / 15 个工具");
    for (const name of ["date", "moon_distance", "shout"]) await page.getByTestId(`tool-switch-${name}`).click();
    await expect(count).toHaveText(locale === "en-US" ? "3 of 15 tools enabled" : "已启用 3 / 15 个工具");
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("tools-open")).toContainText("3");

    // 5. A chat: each question makes the model call one kind of tool; the call runs, its result goes back, and
    // the model answers. (A new organization may run 3 requests a minute: the loop waits out the limit.)
    for (const [i, [question, tool]] of w.questions.entries()) {
      await page.getByTestId("composer").fill(question);
      await page.getByTestId("composer").press("Enter");
      const call = page.getByTestId("tool-call").nth(i);
      await expect(call).toHaveAttribute("data-name", tool, { timeout: 30_000 });
      await expect(call).toHaveAttribute("data-state", "success", { timeout: 90_000 });
      await expect(call.getByTestId("tool-call-state")).toHaveText(w.success);
      await expect(call.getByTestId("tool-call-id")).toHaveText(`${tool}:0`);
      // The model's answer after the call, built from the tool's result.
      const answers = page.getByTestId("message-assistant");
      await expect(answers).toHaveCount(2 * (i + 1), { timeout: 90_000 });
      await expect(answers.nth(2 * i + 1).getByTestId("message-content")).toContainText(w.followUp, {
        timeout: 90_000,
      });
      await expect(page.getByTestId("stop")).toHaveCount(0, { timeout: 30_000 });
    }
    const results = page.getByTestId("tool-call-result");
    await expect(results.nth(0)).toContainText(String(new Date().getUTCFullYear()));
    await expect(results.nth(1)).toHaveText('{"distance":384400,"unit":"km"}');
    await expect(results.nth(2)).not.toBeEmpty();
    await shoot(page, "chat", locale);

    // The session remembers the enabled tools: a reload shows the same count and the same calls.
    await page.waitForTimeout(1500);
    await page.reload();
    await expect(page.getByTestId("tools-open")).toContainText("3");
    await expect(page.getByTestId("tool-call")).toHaveCount(3);
    expect(errors).toEqual([]);
    await context.close();
  });
}
