import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { SPEC_ROUTES } from "./docs-routes.ts";

const LOCALES = ["zh-CN", "en-US"] as const;
type Locale = (typeof LOCALES)[number];

async function useLocale(context: BrowserContext, baseURL: string, locale: Locale) {
  await context.addCookies([{ name: "locale", value: locale, url: baseURL }]);
}

async function openDocs(page: Page, path: string) {
  await page.goto(path);
  await docsReady(page);
}

/** The prerendered HTML is visible before hydration; a click before it is lost. Wait until the page is interactive. */
async function docsReady(page: Page) {
  await expect(page.getByTestId("docs-toc")).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("data-docs-ready", /.+/);
}

for (const [locale, query, expected] of [
  ["en-US", "Install an SDK", "Quickstart"],
  ["zh-CN", "安装 SDK", "快速开始"],
] as const) {
  test(`search finds pages and sections by keyboard in ${locale}`, async ({ page, context, baseURL }) => {
    await useLocale(context, baseURL!, locale);
    await openDocs(page, "/docs/overview");
    const indexRequests: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/docs-search/")) indexRequests.push(r.url());
    });
    await page.keyboard.press("/");
    const input = page.getByTestId("docs-search-input");
    await expect(input).toBeFocused();
    await input.fill(query);
    const options = page.getByRole("option");
    await expect(options.first()).toBeVisible();
    await expect(page.getByRole("listbox")).toContainText(expected);
    await page.keyboard.press("ArrowDown");
    await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("Enter");
    await expect(input).toBeHidden();
    // The second entry is a section: its page opens scrolled to that heading.
    await expect(page).toHaveURL(/\/docs\/[^#]+#.+/);
    const hash = decodeURIComponent(new URL(page.url()).hash.slice(1));
    await expect(page.locator(`[id="${hash}"]`)).toBeInViewport();
    // Cmd/Ctrl+K opens it again; Escape closes; the index was fetched once, for this locale.
    await page.keyboard.press("Control+k");
    await expect(input).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(input).toBeHidden();
    expect(indexRequests).toEqual([expect.stringContaining(`/docs-search/${locale}.json`)]);
  });
}

test("search says when nothing matches", async ({ page, context, baseURL }) => {
  await useLocale(context, baseURL!, "en-US");
  await openDocs(page, "/docs/overview");
  await page.keyboard.press("Control+k");
  await page.getByTestId("docs-search-input").fill("zzqxjv");
  await expect(page.getByText("No results found.")).toBeVisible();
});

test("the language switch sets the one-year cookie and reloads in that language", async ({
  page,
  context,
  baseURL,
}) => {
  await useLocale(context, baseURL!, "zh-CN");
  await openDocs(page, "/docs/overview");
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-CN");
  await page.getByTestId("language-switch").click();
  await page.getByRole("menuitem", { name: "English" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "en-US");
  await expect(page).toHaveURL(/\/docs\/overview$/);
  const cookie = (await context.cookies()).find((c) => c.name === "locale");
  expect(cookie?.value).toBe("en-US");
  const days = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(364);
});

test("the theme switch stores the choice and keeps it across reloads", async ({ page, context, baseURL }) => {
  await useLocale(context, baseURL!, "zh-CN");
  await openDocs(page, "/docs/overview");
  await page.getByTestId("theme-switch").click();
  await page.getByRole("menuitem", { name: "深色" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
  expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("dark");
  await page.reload();
  // The inline head script applies the stored scheme before the first paint, before hydration.
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "dark");
  await docsReady(page);
  await page.getByTestId("theme-switch").click();
  await page.getByRole("menuitem", { name: "浅色" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-mantine-color-scheme", "light");
});

test("clicking a heading copies its link and shows the toast for two seconds", async ({ page, context, baseURL }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  await useLocale(context, baseURL!, "zh-CN");
  await openDocs(page, "/docs/guide/start-using-kimi-api");
  const heading = page.locator("article h2").first();
  const id = await heading.getAttribute("id");
  await heading.click();
  const toast = page.getByTestId("docs-toast");
  await expect(toast).toHaveText("已复制链接");
  const box = await toast.boundingBox();
  const width = page.viewportSize()!.width;
  expect(Math.abs(box!.x + box!.width / 2 - width / 2)).toBeLessThan(4);
  expect(box!.y).toBeLessThan(40);
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    `${baseURL}/docs/guide/start-using-kimi-api#${id}`,
  );
  await expect(toast).toBeHidden({ timeout: 3000 });
});

test("collapsed sidebar sections are remembered for the session only", async ({ page, browser, baseURL }) => {
  await openDocs(page, "/docs/overview");
  const folder = page.locator("aside button[data-folder]").first();
  const name = await folder.getAttribute("data-folder");
  await expect(folder).toHaveAttribute("aria-expanded", "true");
  await folder.click();
  await expect(folder).toHaveAttribute("aria-expanded", "false");
  await page.reload();
  await expect(page.locator(`aside button[data-folder="${name}"]`)).toHaveAttribute("aria-expanded", "false");
  // A new browser session starts from the default collapse level again.
  const other = await browser.newPage({ baseURL });
  await other.goto("/docs/overview");
  await expect(other.getByTestId("docs-toc")).toBeVisible();
  await expect(other.locator(`aside button[data-folder="${name}"]`)).toHaveAttribute("aria-expanded", "true");
  await other.close();
});

test("the announcement banner links to the promotion page and stays dismissed", async ({ page }) => {
  await openDocs(page, "/docs/overview");
  const banner = page.getByTestId("docs-banner");
  await expect(banner.getByRole("link")).toHaveAttribute("href", "/docs/promotion");
  await banner.getByRole("button").click();
  await expect(banner).toBeHidden();
  await page.reload();
  await expect(page.getByTestId("docs-toc")).toBeVisible();
  await expect(page.getByTestId("docs-banner")).toBeHidden();
});

test("previous and next links walk the sidebar order", async ({ page, context, baseURL }) => {
  await useLocale(context, baseURL!, "en-US");
  await openDocs(page, "/docs/overview");
  await expect(page.getByTestId("pager-previous")).toHaveCount(0);
  const next = page.getByTestId("pager-next");
  const target = await next.getAttribute("href");
  await next.click();
  await expect(page).toHaveURL(new RegExp(`${target}$`));
  await expect(page.getByTestId("pager-previous")).toHaveAttribute("href", "/docs/overview");
  await page.getByTestId("pager-previous").click();
  await expect(page).toHaveURL(/\/docs\/overview$/);
});

for (const locale of LOCALES) {
  test(`an unknown docs address answers 404 with the broken-link report in ${locale}`, async ({
    page,
    context,
    baseURL,
  }) => {
    await useLocale(context, baseURL!, locale);
    const res = await page.goto("/docs/no-such-page");
    expect(res?.status()).toBe(404);
    await expect(page.getByTestId("docs-not-found")).toContainText(
      locale === "en-US" ? "Page not found" : "页面不存在",
    );
    await expect(page.getByTestId("report-issue")).toHaveText(
      locale === "en-US" ? "Submit an issue about broken link →" : "提交失效链接问题 →",
    );
  });
}

test("docs pages read without JavaScript and load no console or chart code", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/docs/guide/start-using-kimi-api");
  await expect(page.locator("article h1")).toBeVisible();
  await expect(page.locator("article")).toContainText(`curl ${baseURL}/v1/chat/completions`);
  await context.close();

  const withJs = await browser.newPage({ baseURL });
  const scripts: string[] = [];
  withJs.on("response", (r) => {
    if (r.request().resourceType() === "script") scripts.push(r.url());
  });
  await withJs.goto("/docs/pricing/chat");
  await expect(withJs.locator("html")).toHaveAttribute("data-docs-ready", /.+/);
  expect(scripts.length).toBeGreaterThan(0);
  for (const url of scripts) {
    const body = await (await withJs.request.get(url)).text();
    expect({ url, recharts: body.includes("recharts") }).toEqual({ url, recharts: false });
    expect(url).not.toMatch(/console|playground/i);
  }
  await withJs.close();
});

for (const locale of LOCALES) {
  test(`every documentation route exists in ${locale} and every internal link resolves`, async ({
    request,
    baseURL,
  }) => {
    const headers = { cookie: `locale=${locale}` };
    const pages = new Map<string, string>();
    const missing: string[] = [];
    for (const route of SPEC_ROUTES) {
      const res = await request.get(`/docs/${route}`, { headers, maxRedirects: 0 });
      if (res.status() !== 200) missing.push(route);
      else pages.set(`/docs/${route}`, await res.text());
    }
    expect(missing).toEqual([]);

    const broken: string[] = [];
    const checked = new Map<string, string | null>();
    for (const [from, html] of pages) {
      const article = html.slice(html.indexOf("<article"), html.indexOf("</article>"));
      for (const [, href] of article.matchAll(/href="(\/[^"]*)"/g)) {
        const [path, rawHash] = href!.split("#");
        const hash = rawHash ? decodeURIComponent(rawHash) : undefined;
        if (!checked.has(path!)) {
          const res = await request.get(path!, { headers });
          checked.set(path!, res.status() === 200 ? await res.text() : null);
        }
        const target = checked.get(path!);
        if (target === null) broken.push(`${from} → ${href}`);
        else if (hash && target !== undefined && !target.includes(`id="${hash}"`)) broken.push(`${from} → ${href}`);
      }
    }
    expect(broken).toEqual([]);
    expect(baseURL).toBeTruthy();
  });
}

test("search ranks the streaming page first for 流式, keeps identifiers and highlights the match", async ({
  page,
  context,
  baseURL,
}) => {
  await useLocale(context, baseURL!, "zh-CN");
  await openDocs(page, "/docs/overview");
  await page.keyboard.press("/");
  const input = page.getByTestId("docs-search-input");
  await input.fill("流式");
  const first = page.getByRole("option").first();
  await expect(first).toContainText("流式输出");
  await expect(first.locator("mark").first()).toHaveText("流式");
  await input.fill("include_usage");
  await expect(page.getByRole("listbox")).toContainText("include_usage");
  await expect(page.getByRole("listbox").locator("mark").first()).toHaveText("include_usage");
  await expect(page.getByRole("listbox")).not.toContainText("includeusage");
});

for (const locale of ["zh-CN", "en-US"] as const) {
  test(`the docs navbar has Pricing and the site's logo, and fits 390 px in ${locale}`, async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await useLocale(context, baseURL!, locale);
    const page = await context.newPage();
    // The table of contents is hidden on phones: wait for the page to be interactive instead.
    await page.goto("/docs/pricing/chat");
    await expect(page.locator("html")).toHaveAttribute("data-docs-ready", /.+/);
    await expect(page.getByTestId("language-switch")).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The same crescent mark as the home page and the console.
    await expect(page.locator("header svg path[d^='M40 14']")).toHaveCount(1);
    await page.setViewportSize({ width: 1280, height: 800 });
    const pricing = page.locator("header nav a", { hasText: locale === "en-US" ? "Pricing" : "价格" });
    await expect(pricing).toHaveAttribute("href", "/docs/pricing/chat");
    await expect(pricing).toHaveAttribute("aria-current", "page");
    await context.close();
  });
}
