import fs from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import OpenAI from "openai";
import { PASSWORD, signUpByPhone, uniquePhone, uniqueUsername } from "./support.ts";

/**
 * Resources → Files: upload a real PDF in the console, watch it get extracted, read its text, then ask about it in
 * a chat through the official SDK with the file's content as the system message (the simulator quotes the passage),
 * and delete it with confirmation. Screenshots of the screen in both locales and themes at 390 px go to
 * .tmp/shots/.
 */
test.setTimeout(180_000);

const PDF = "apps/server/test/fixtures/files/policy.pdf";
const SHOTS = ".tmp/shots";

async function csrfHeaders(page: Page, baseURL: string) {
  const cookies = await page.context().cookies(baseURL);
  return { "x-csrf-token": cookies.find((c) => c.name === "mp_csrf")?.value ?? "", origin: baseURL };
}

test("upload a PDF, see it extracted, ask about it through the SDK, delete it", async ({ page, baseURL }) => {
  await signUpByPhone(page, { phone: uniquePhone(), username: uniqueUsername("files"), password: PASSWORD });
  const me = await (await page.request.get("/api/me")).json();
  const orgId = me.currentOrganizationId as string;

  await page.goto("/console/files");
  await expect(page.getByTestId("files-capacity-count")).toContainText("0 / 1,000");
  await page.getByTestId("files-input").setInputFiles(PDF);
  await expect(page.getByTestId("files-upload-message")).toContainText("policy.pdf");
  const row = page.getByTestId("file-row").filter({ hasText: "policy.pdf" });
  await expect(row).toBeVisible();
  // The list refreshes itself while the text is extracted.
  await expect(row.getByTestId("file-status")).toHaveText(/Ready|可用/, { timeout: 60_000 });
  await expect(page.getByTestId("files-capacity-count")).toContainText("1 / 1,000");

  await row.getByRole("button").last().click();
  await page.getByRole("menuitem", { name: /View extracted text|查看解析文本/ }).click();
  await expect(page.getByTestId("files-content")).toContainText(
    "Hotel costs are reimbursed up to 150 dollars per night",
  );
  await page.keyboard.press("Escape");

  // Search narrows the list.
  await page.getByRole("textbox", { name: /Search|搜索/ }).fill("nothing-like-this");
  await expect(page.getByTestId("empty-state")).toBeVisible();
  await page.getByRole("textbox", { name: /Search|搜索/ }).fill("policy");
  await expect(row).toBeVisible();

  // Ask about the file in a chat through the SDK, with its extracted text as the system message.
  const h = await csrfHeaders(page, baseURL!);
  await page.request.post(`/api/dev/orgs/${orgId}/grant`, { data: { amount: "10" }, headers: h });
  const projects = await (await page.request.get(`/api/orgs/${orgId}/projects?page=1&pageSize=10`)).json();
  const key = await (
    await page.request.post(`/api/orgs/${orgId}/api-keys`, {
      data: { name: "files-e2e", projectId: projects.items[0].id },
      headers: h,
    })
  ).json();
  const client = new OpenAI({ apiKey: key.secret, baseURL: `${baseURL}/v1`, maxRetries: 0 });
  const file = (await client.files.list()).data.find((f) => f.filename === "policy.pdf");
  expect(file?.status).toBe("ok");
  const content = await (await client.files.content(file!.id)).text();
  const completion = await client.chat.completions.create({
    model: "moonshot-v1-8k",
    messages: [
      { role: "system", content },
      { role: "user", content: "How much are hotel costs reimbursed per night?" },
    ],
  });
  expect(completion.choices[0]!.message.content).toContain(
    "Hotel costs are reimbursed up to 150 dollars per night in large cities.",
  );

  // Screenshots: both locales, both themes, 390 px.
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 390, height: 844 });
  for (const locale of ["en-US", "zh-CN"] as const) {
    for (const theme of ["light", "dark"] as const) {
      await page.context().addCookies([{ name: "locale", value: locale, url: baseURL! }]);
      await page.evaluate((t) => window.localStorage.setItem("theme", t), theme);
      await page.goto("/console/files");
      await expect(page.getByTestId("file-row").first()).toBeVisible();
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: `${SHOTS}/files-${locale}-${theme}.png`, fullPage: true });
    }
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  // Delete with confirmation.
  await page.getByTestId("file-row").first().getByRole("button").last().click();
  await page.getByRole("menuitem", { name: /Delete|删除/ }).click();
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /Delete|删除/ })
    .click();
  await expect(page.getByTestId("file-row")).toHaveCount(0);
  await expect(page.getByTestId("files-capacity-count")).toContainText("0 / 1,000");
  expect((await client.files.list()).data).toEqual([]);
});

test("the Files screen refuses an empty file with the §8 message and stores nothing", async ({ page }) => {
  await signUpByPhone(page, { phone: uniquePhone(), username: uniqueUsername("files"), password: PASSWORD });
  await page.goto("/console/files");
  await page
    .getByTestId("files-input")
    .setInputFiles({ name: "empty.txt", mimeType: "text/plain", buffer: Buffer.alloc(0) });
  await expect(page.getByTestId("files-upload-message")).toHaveText(
    /File upload failed: The file is empty|文件上传失败：文件为空/,
  );
  await expect(page.getByTestId("empty-state")).toBeVisible();
});
