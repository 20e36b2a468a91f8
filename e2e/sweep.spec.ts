import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { SPEC_ROUTES } from "./docs-routes.ts";
import { PASSWORD, signUpByPhone, uniquePhone, uniqueUsername } from "./support.ts";

/**
 * Sweep: every public page (home, sign-in, sign-up, every docs route) and every console screen, in both locales
 * and both themes, at 390 px: no console error, no page error (React's hydration errors #418/#520 arrive as
 * either) and nothing wider than the viewport.
 *
 * The theme is the stored choice (localStorage `theme`), opposite to the OS setting the browser reports, which is
 * what made the prerendered HTML and the first client render disagree (#418).
 *
 * Runtime: docs pages are all prerendered by one layout, so every route is visited in both locales in the dark
 * theme, and a sample of routes (one per section, plus /docs and the not-found page) in the light theme; the
 * home page and the sign-in/up pages get all four combinations (home also at desktop width). Console screens
 * share one shell and differ by data, not by theme: every screen is visited in zh-CN light and en-US dark, which
 * covers both locales and both themes in half the time of all four pairs (the whole sweep stays under 4 min).
 *
 * The public site's other pages are in the docs sweep too: the blog's index and post, an unknown path outside
 * /docs (the site's 404 page) and a malformed address (its 400 page); and a docs page is reloaded with a sidebar
 * group collapsed, the state the prerendered HTML cannot know (a reload that hydrated badly threw #422).
 */

const LOCALES = ["zh-CN", "en-US"] as const;
const THEMES = ["light", "dark"] as const;
type Locale = (typeof LOCALES)[number];
type Theme = (typeof THEMES)[number];
const MOBILE = { width: 390, height: 844 };
const NOT_FOUND_PATH = "/docs/no-such-page";
/** Pages answered with an error status on purpose: Chromium logs the document's status as a console error. */
const ERROR_STATUS_PATHS = [NOT_FOUND_PATH, "/no-such-page", "/docs/%E0%A4%A"];
const BLOG_PATHS = ["/blog", "/blog/introducing-moonport"];

const DOCS_SAMPLE = [
  "/docs",
  "/docs/overview",
  "/docs/api/chat",
  "/docs/guide/utilize-the-streaming-output-feature-of-kimi-api",
  "/docs/pricing/chat",
  "/docs/pricing/limits",
  "/docs/agreement/userprivacy",
  NOT_FOUND_PATH,
];

async function openContext(
  browser: Browser,
  baseURL: string,
  opts: {
    locale: Locale;
    theme: Theme;
    width?: number;
    storageState?: Awaited<ReturnType<BrowserContext["storageState"]>>;
  },
) {
  const context = await browser.newContext({
    viewport: opts.width ? { width: opts.width, height: 900 } : MOBILE,
    // The OS says the opposite of the stored choice, so a render that ignored the choice would show.
    colorScheme: opts.theme === "dark" ? "light" : "dark",
    storageState: opts.storageState,
  });
  await context.addCookies([{ name: "locale", value: opts.locale, url: baseURL }]);
  await context.addInitScript((theme) => window.localStorage.setItem("theme", theme), opts.theme);
  return context;
}

/** Collects console errors and page errors from the moment the page exists. */
function watch(page: Page) {
  const problems: string[] = [];
  page.on("console", (msg) => {
    if (msg.type() !== "error") return;
    // Error pages are meant to answer 404/400; Chromium logs its own document's status as an error.
    if (ERROR_STATUS_PATHS.some((p) => msg.location().url.endsWith(p)) && /\b40[04]\b/.test(msg.text())) return;
    problems.push(`console: ${msg.text()} (${msg.location().url})`);
  });
  page.on("pageerror", (err) => problems.push(`pageerror: ${err.message}`));
  return problems;
}

async function check(page: Page, problems: string[], path: string, ready: (page: Page) => Promise<void>) {
  problems.length = 0;
  await page.goto(path);
  await ready(page);
  // Hydration errors and late requests surface shortly after the page is interactive.
  await page.waitForTimeout(150);
  const width = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    inner: window.innerWidth,
    scheme: document.documentElement.getAttribute("data-mantine-color-scheme"),
  }));
  return { path, problems: [...problems], width };
}

const docsReady = async (page: Page) => {
  await expect(page.locator("html")).toHaveAttribute("data-docs-ready", /.+/);
};
const idle = async (page: Page) => {
  await page.waitForLoadState("networkidle");
};

type Result = Awaited<ReturnType<typeof check>>;

function expectClean(results: Result[], theme: Theme) {
  const failures = results.flatMap((r) => [
    ...r.problems.map((p) => `${r.path}: ${p}`),
    ...(r.width.scroll > r.width.inner ? [`${r.path}: ${r.width.scroll}px wide in a ${r.width.inner}px viewport`] : []),
    ...(r.width.scheme !== theme ? [`${r.path}: shows ${r.width.scheme} although ${theme} was chosen`] : []),
  ]);
  expect(failures).toEqual([]);
}

for (const locale of LOCALES) {
  for (const theme of THEMES) {
    test(`public pages (home, contact sales, sign-in, sign-up) in ${locale}, ${theme}: no errors, no overflow`, async ({
      browser,
      baseURL,
    }) => {
      const results: Result[] = [];
      for (const width of [undefined, 1280]) {
        const context = await openContext(browser, baseURL!, { locale, theme, width });
        const page = await context.newPage();
        const problems = watch(page);
        results.push(await check(page, problems, "/", idle));
        results.push(await check(page, problems, "/contact-sales", idle));
        if (!width) {
          results.push(await check(page, problems, "/signin", idle));
          results.push(await check(page, problems, "/signup", idle));
        }
        await context.close();
      }
      expectClean(results, theme);
    });

    test(`docs pages in ${locale}, ${theme} at 390 px: no errors, no overflow`, async ({ browser, baseURL }) => {
      test.setTimeout(120_000);
      const paths = theme === "dark" ? ["/docs", ...SPEC_ROUTES.map((r) => `/docs/${r}`)] : DOCS_SAMPLE;
      const context = await openContext(browser, baseURL!, { locale, theme });
      const page = await context.newPage();
      const problems = watch(page);
      const results: Result[] = [];
      for (const path of paths) {
        // The not-found page has no article to become interactive; it is done when the network is.
        results.push(await check(page, problems, path, path === NOT_FOUND_PATH ? idle : docsReady));
      }
      for (const path of [...BLOG_PATHS, ...ERROR_STATUS_PATHS.slice(1)])
        results.push(await check(page, problems, path, idle));
      // Groups collapsed (the current page's among them), then the page loaded again: the first render must match
      // the HTML whatever the session stored.
      await page.evaluate(() => sessionStorage.setItem("docs-sidebar-folders", '{"guide":false,"api":false}'));
      results.push({
        ...(await check(page, problems, "/docs/api/chat", docsReady)),
        path: "/docs/api/chat (reloaded)",
      });
      await context.close();
      expectClean(results, theme);
    });
  }
}

test("console screens in both locales and both themes at 390 px: no errors, no overflow", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const setup = await browser.newPage();
  await signUpByPhone(setup, { phone: uniquePhone(), username: uniqueUsername("sweep"), password: PASSWORD });
  const me = await (await setup.request.get("/api/me")).json();
  const orgId = me.currentOrganizationId as string;
  const cookies = await setup.context().cookies(baseURL!);
  const h = { "x-csrf-token": cookies.find((c) => c.name === "mp_csrf")?.value ?? "", origin: baseURL! };
  expect((await setup.request.post(`/api/dev/orgs/${orgId}/grant`, { data: { amount: "50" }, headers: h })).ok()).toBe(
    true,
  );
  const project = await (
    await setup.request.post(`/api/orgs/${orgId}/projects`, { data: { name: "production" }, headers: h })
  ).json();
  await setup.request.post(`/api/orgs/${orgId}/api-keys`, {
    data: { name: "backend", projectId: project.id },
    headers: h,
  });
  const storageState = await setup.context().storageState();
  await setup.close();

  const paths = [
    "/console/overview",
    ...["general", "members", "projects", "api-keys", "limits", "authentication"].map(
      (t) => `/console/organization/${t}`,
    ),
    "/console/projects",
    ...["overview", "settings", "members", "api-keys", "billing"].map((t) => `/console/projects/${project.id}/${t}`),
    "/console/api-keys",
    "/console/limits",
    "/console/consumption",
    "/console/bills",
    "/console/exports",
    "/console/alerts",
    "/console/files",
    "/console/context-caching",
    "/console/profile",
    "/console/billing",
    "/console/billing/recharge",
    "/console/billing/vouchers",
    "/console/billing/invoices",
    "/console/billing/refunds",
    "/console/feedback",
    "/playground",
    "/playground?mode=riddle",
    ...["picker", "functions", "mcp"].map((tab) => `/playground?tools=${tab}`),
  ];
  const failures: string[] = [];
  for (const [locale, theme] of [
    ["zh-CN", "light"],
    ["en-US", "dark"],
  ] as const) {
    const context = await openContext(browser, baseURL!, { locale, theme, storageState });
    const page = await context.newPage();
    const problems = watch(page);
    const results: Result[] = [];
    for (const path of paths) results.push(await check(page, problems, path, idle));
    await context.close();
    try {
      expectClean(results, theme);
    } catch {
      failures.push(
        ...results
          .filter((r) => r.problems.length || r.width.scroll > r.width.inner || r.width.scheme !== theme)
          .map((r) => `${locale} ${theme} ${JSON.stringify(r)}`),
      );
    }
  }
  expect(failures).toEqual([]);
});
