import fs from "node:fs";
import { expect, test } from "@playwright/test";
import OpenAI from "openai";
import { signUpFunded } from "./support.ts";

/**
 * Context caching as a developer meets it: upload a PDF in the console and see it extracted, ask about it through
 * the official SDK, cache its text with plain HTTP (the SDKs have no caching methods), use the cache in a chat, and
 * find the cache with its calls, spend and savings in the console, next to the savings calculator and its two
 * warnings. Screenshots of the screen in both locales and themes, at 1280 and 390 px, go to .tmp/shots/.
 */
test.setTimeout(180_000);

const PDF = "apps/server/test/fixtures/files/policy.pdf";
const SHOTS = ".tmp/shots";

test("upload, ask, cache, use the cache, see it in the console", async ({ page, baseURL }) => {
  const { secret } = await signUpFunded(page);
  await page.goto("/console/files");
  await page.getByTestId("files-input").setInputFiles(PDF);
  const row = page.getByTestId("file-row").filter({ hasText: "policy.pdf" });
  await expect(row.getByTestId("file-status")).toHaveText(/Ready|可用/, { timeout: 60_000 });

  const client = new OpenAI({ apiKey: secret, baseURL: `${baseURL}/v1`, maxRetries: 0 });
  const file = (await client.files.list()).data.find((f) => f.filename === "policy.pdf")!;
  const content = await (await client.files.content(file.id)).text();
  const question = "How much are hotel costs reimbursed per night?";
  const asked = await client.chat.completions.create({
    model: "moonshot-v1-8k",
    messages: [
      { role: "system", content },
      { role: "user", content: question },
    ],
  });
  expect(asked.choices[0]!.message.content).toContain("150 dollars per night");

  const v1 = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${baseURL}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { res, body: (await res.json()) as Record<string, unknown> };
  };
  const created = await v1("POST", "/caching", {
    model: "moonshot-v1",
    messages: [{ role: "system", content }],
    name: "travel policy",
    tags: ["policy"],
    ttl: 3600,
  });
  expect(created.res.status).toBe(200);
  expect(created.body.status).toBe("pending");
  await expect
    .poll(async () => (await v1("GET", `/caching/${created.body.id}`)).body.status, { timeout: 30_000 })
    .toBe("ready");

  const used = await v1("POST", "/chat/completions", {
    model: "moonshot-v1-8k",
    messages: [
      { role: "cache", content: "tag=policy;reset_ttl=3600" },
      { role: "user", content: question },
    ],
  });
  expect(used.res.status).toBe(200);
  expect(used.res.headers.get("msh-context-cache-id")).toBe(created.body.id);
  expect(JSON.stringify(used.body)).toContain("150 dollars per night");

  await page.goto("/console/context-caching");
  const cacheRow = page.getByTestId("cache-row").filter({ hasText: String(created.body.id) });
  await expect(cacheRow.getByTestId("cache-status")).toHaveText(/Ready|可用/);
  await expect(cacheRow).toContainText("travel policy");
  await expect(page.getByTestId("summary-calls")).toHaveText("1");
  await expect(cacheRow.getByTestId("cache-savings")).toHaveText(/[¥$]/);

  // The calculator: a plan that pays off, one that would exceed a tier-0 TPM, one that costs more with a cache.
  await page.getByTestId("calc-tokens").fill("100000");
  await page.getByTestId("calc-calls").fill("50");
  await page.getByTestId("calc-minutes").fill("60");
  await expect(page.getByTestId("calc-savings")).toHaveText(/^[¥$]\d/);
  await expect(page.getByTestId("calc-cost-warning")).toHaveCount(0);
  await expect(page.getByTestId("calc-rate-warning")).toBeVisible();
  await page.getByTestId("calc-calls").fill("1");
  await expect(page.getByTestId("calc-cost-warning")).toBeVisible();
  await page.getByTestId("calc-calls").fill("50");

  fs.mkdirSync(SHOTS, { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    for (const locale of ["en-US", "zh-CN"] as const) {
      for (const theme of ["light", "dark"] as const) {
        await page.context().addCookies([{ name: "locale", value: locale, url: baseURL! }]);
        await page.evaluate((t) => window.localStorage.setItem("theme", t), theme);
        await page.goto("/console/context-caching");
        await expect(page.getByTestId("cache-row").first()).toBeVisible();
        await page.waitForLoadState("networkidle");
        await page.screenshot({ path: `${SHOTS}/caching-${locale}-${theme}-${width}.png`, fullPage: true });
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow).toBeLessThanOrEqual(0);
      }
    }
  }
});
