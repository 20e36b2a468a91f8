import { type BrowserContext, expect, type Page, test } from "@playwright/test";

/**
 * The public site as a new reader meets it: docs sidebar state across a reload, the site's error pages, the blog,
 * the other edition's link on the home page, search pressed before the page is interactive, and page titles.
 */

const LOCALES = ["zh-CN", "en-US"] as const;
type Locale = (typeof LOCALES)[number];

async function useLocale(context: BrowserContext, baseURL: string, locale: Locale) {
  await context.addCookies([{ name: "locale", value: locale, url: baseURL }]);
}

/** Console and page errors from the moment the page exists; Chromium's own line about a 404/400 document aside. */
function watch(page: Page) {
  const problems: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    if (/the server responded with a status of 40[04]/.test(msg.text()) && !/\/assets\//.test(msg.location().url)) {
      return;
    }
    problems.push(`console: ${msg.text()}`);
  });
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  return problems;
}

const docsReady = (page: Page) => expect(page.locator("html")).toHaveAttribute("data-docs-ready", /.+/);

test("reloading a docs page with a sidebar group collapsed hydrates cleanly and keeps the group collapsed", async ({
  page,
}) => {
  const problems = watch(page);
  await page.goto("/docs/overview");
  await docsReady(page);
  const guide = page.locator('aside button[data-folder="guide"]');
  await expect(guide).toHaveAttribute("aria-expanded", "true");
  await guide.click();
  await expect(guide).toHaveAttribute("aria-expanded", "false");
  for (let i = 0; i < 3; i++) {
    await page.reload();
    await docsReady(page);
    await expect(guide).toHaveAttribute("aria-expanded", "false");
    // Hydration errors (#418, #422) arrive shortly after the page is interactive.
    await page.waitForTimeout(300);
  }
  expect(problems).toEqual([]);
});

test("the group holding the current page is open even when the reader had collapsed it", async ({ page }) => {
  const problems = watch(page);
  await page.goto("/docs/api/chat");
  await docsReady(page);
  const api = page.locator('aside button[data-folder="api"]');
  await api.click();
  await expect(api).toHaveAttribute("aria-expanded", "false");
  await page.reload();
  await docsReady(page);
  await expect(api).toHaveAttribute("aria-expanded", "true");
  await expect(page.locator('aside a[aria-current="page"]')).toBeVisible();
  // Another page of the same group, reached from elsewhere, also shows its entry.
  await api.click();
  await expect(api).toHaveAttribute("aria-expanded", "false");
  await page.goto("/docs/api/files");
  await docsReady(page);
  await expect(page.locator('aside a[aria-current="page"]')).toBeVisible();
  expect(problems).toEqual([]);
});

for (const locale of LOCALES) {
  test(`an unknown page answers 404 with the site's chrome and the broken-link report in ${locale}`, async ({
    page,
    context,
    baseURL,
  }) => {
    await useLocale(context, baseURL!, locale);
    const problems = watch(page);
    for (const path of ["/no-such-page", "/some/deeper/path", "/console/no/such/screen"]) {
      const res = await page.goto(path);
      expect(res!.status()).toBe(404);
      await page.waitForLoadState("networkidle");
      await expect(page.getByTestId("docs-not-found")).toBeVisible();
      await expect(page.getByTestId("language-switch")).toBeVisible();
      await expect(page.getByTestId("theme-switch")).toBeVisible();
      const report = page.getByTestId("report-issue");
      await expect(report).toHaveText(
        locale === "en-US" ? "Submit an issue about broken link →" : "提交失效链接问题 →",
      );
      await expect(report).toHaveAttribute("href", /title=Broken\+link/);
      await expect(page.getByTestId("docs-feedback")).toBeVisible();
      await expect(page.getByTestId("docs-not-found")).toContainText(path);
    }
    // A client-only route is still the app's, not a 404.
    const signin = await page.goto("/signin");
    expect(signin!.status()).toBe(200);
    await expect(page.getByTestId("docs-not-found")).toHaveCount(0);
    expect(problems).toEqual([]);
  });

  test(`a malformed address shows the error page with the URL report, never JSON, in ${locale}`, async ({
    page,
    context,
    baseURL,
  }) => {
    await useLocale(context, baseURL!, locale);
    const problems = watch(page);
    for (const path of ["/docs/%E0%A4%A", "/%E0%A4%A", "/blog/%ZZ"]) {
      const res = await page.goto(path);
      expect(res!.status()).toBe(400);
      expect(res!.headers()["content-type"]).toContain("text/html");
      await page.waitForLoadState("networkidle");
      await expect(page.getByTestId("bad-url")).toBeVisible();
      await expect(page.getByTestId("language-switch")).toBeVisible();
      await expect(page.getByTestId("report-issue")).toHaveText(
        locale === "en-US" ? "Submit an issue about error in url →" : "提交页面错误问题 →",
      );
    }
    expect(problems).toEqual([]);
  });
}

test("the zh-CN navbar links the blog in a new tab; the blog lists, shows and syndicates its posts", async ({
  page,
  context,
  baseURL,
  request,
}) => {
  await useLocale(context, baseURL!, "zh-CN");
  const problems = watch(page);
  await page.goto("/docs/overview");
  await docsReady(page);
  const link = page.locator("header nav").getByRole("link", { name: "博客" });
  await expect(link).toHaveAttribute("href", "/blog");
  await expect(link).toHaveAttribute("target", "_blank");
  const [tab] = await Promise.all([context.waitForEvent("page"), link.click()]);
  const tabProblems = watch(tab);
  await tab.waitForLoadState("networkidle");
  await expect(tab).toHaveURL(/\/blog$/);
  await expect(tab).toHaveTitle("Moonport 博客");
  const index = tab.getByTestId("blog-index");
  await expect(index.getByRole("heading", { level: 1 })).toHaveText("Moonport 博客");
  await index.getByRole("link", { name: "Moonport 开放平台上线" }).click();
  await expect(tab).toHaveURL(/\/blog\/introducing-moonport$/);
  await expect(tab.getByTestId("blog-post").getByRole("heading", { level: 1 })).toHaveText("Moonport 开放平台上线");
  await expect(tab.getByTestId("blog-post")).toContainText("兼容 OpenAI 的 API");
  // Prerendered: the post's words are in the HTML the server sends.
  const html = await (await request.get("/blog/introducing-moonport", { headers: { cookie: "locale=zh-CN" } })).text();
  expect(html).toContain("兼容 OpenAI 的 API");
  expect(html).toContain('type="application/rss+xml"');
  const feed = await request.get("/blog/rss.xml", { headers: { cookie: "locale=zh-CN" } });
  expect(feed.headers()["content-type"]).toContain("application/xml");
  const xml = await feed.text();
  expect(xml).toContain("<title>Moonport 开放平台上线</title>");
  expect(xml).toContain(`<link>${baseURL}/zh-CN/blog/introducing-moonport</link>`);
  const enFeed = await (await request.get("/blog/rss.xml", { headers: { cookie: "locale=en-US" } })).text();
  expect(enFeed).toContain("<title>Introducing the Moonport platform</title>");
  // An unknown post is the site's 404.
  expect((await tab.goto("/blog/no-such-post"))!.status()).toBe(404);
  await expect(tab.getByTestId("docs-not-found")).toBeVisible();
  expect([...problems, ...tabProblems]).toEqual([]);
});

test("the home page links the other edition when one host serves both", async ({ page, context, baseURL }) => {
  await useLocale(context, baseURL!, "zh-CN");
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  const other = page.getByTestId("other-edition");
  await expect(other).toBeVisible();
  await expect(other).toHaveText("国际站（English）");
  await other.click();
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
  await expect(page.getByTestId("other-edition")).toHaveText("China site (中文)");
});

for (const [key, label] of [
  ["/", "slash"],
  ["Control+k", "Ctrl+K"],
] as const) {
  test(`search pressed (${label}) before the page is interactive opens once it is`, async ({
    page,
    context,
    baseURL,
  }) => {
    await useLocale(context, baseURL!, "zh-CN");
    // Scripts arrive late, as on a slow phone: the prerendered page is on screen well before it hydrates.
    await page.route("**/assets/*.js", async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await page.goto("/docs/overview", { waitUntil: "domcontentloaded" });
    await expect(page.getByRole("button", { name: "搜索" })).toBeVisible();
    expect(await page.locator("html").getAttribute("data-docs-ready")).toBeNull();
    await page.keyboard.press(key);
    await docsReady(page);
    await expect(page.getByTestId("docs-search-input")).toBeVisible();
    await expect(page.getByTestId("docs-search-input")).toBeFocused();
  });
}

test("docs titles name the page once: the zh-CN docs home is not 'Moonport 文档 | Moonport 文档'", async ({
  page,
  context,
  baseURL,
}) => {
  await useLocale(context, baseURL!, "zh-CN");
  await page.goto("/docs");
  await expect(page).toHaveTitle("Moonport 文档");
  await page.goto("/docs/api/partial");
  await expect(page).toHaveTitle("Partial 模式参数 | Moonport 文档");
  await expect(page.locator("article h1").first()).toHaveText("Partial 模式参数");
});
