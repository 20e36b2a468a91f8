#!/usr/bin/env node
/**
 * Lighthouse on the public pages: the home page, /docs/overview, one guide and the chat price page, in each locale,
 * against a running instance, in Debian's Chromium. Prints the four category scores per page and exits non-zero
 * when accessibility, best practices or SEO is below 100, or performance below LIGHTHOUSE_MIN (performance
 * depends on the machine's load; the other three do not).
 *
 *   npm run lighthouse                       # starts a built instance on LIGHTHOUSE_PORT (default 3400)
 *   LIGHTHOUSE_URL=http://localhost:3000 npm run lighthouse   # audits an instance that is already running
 *
 * Options (environment): LIGHTHOUSE_ROUTES (comma-separated paths, default the four above), CHROMIUM_PATH (default /usr/bin/chromium), LIGHTHOUSE_MIN (performance, default 95),
 * LIGHTHOUSE_FORM_FACTOR (mobile | desktop, default mobile: Lighthouse's own default, the stricter one),
 * LIGHTHOUSE_REPORTS (a folder: each page's full JSON report is written there, to trace a metric afterwards).
 */
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { startInstance } from "./start-instance.mjs";

const MIN = Number(process.env.LIGHTHOUSE_MIN ?? 95);
const ROUTES = process.env.LIGHTHOUSE_ROUTES?.split(",") ?? [
  "/",
  "/docs/overview",
  "/docs/guide/start-using-kimi-api",
  "/docs/pricing/chat",
];
const METRICS = [
  "first-contentful-paint",
  "largest-contentful-paint",
  "total-blocking-time",
  "cumulative-layout-shift",
  "speed-index",
];
const PAGES = ["zh-CN", "en-US"].flatMap((locale) => ROUTES.map((route) => [locale, route]));
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];

const server = process.env.LIGHTHOUSE_URL
  ? { base: process.env.LIGHTHOUSE_URL.replace(/\/$/, ""), stop: () => {} }
  : await startInstance({ port: Number(process.env.LIGHTHOUSE_PORT ?? 3400) });

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});

let failed = false;
try {
  const desktop = process.env.LIGHTHOUSE_FORM_FACTOR === "desktop";
  console.log(`Lighthouse ${desktop ? "desktop" : "mobile"} against ${server.base} (target ≥ ${MIN})\n`);
  console.log(["page".padEnd(44), ...CATEGORIES.map((c) => c.padStart(15))].join(""));
  for (const [locale, route] of PAGES) {
    const result = await lighthouse(
      `${server.base}${route}`,
      {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: CATEGORIES,
        // The locale cookie picks the language the server answers in (docs/product-spec.md §2).
        extraHeaders: { Cookie: `locale=${locale}` },
      },
      desktop ? desktopConfig : undefined,
    );
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`no result for ${route}`);
    if (process.env.LIGHTHOUSE_REPORTS) {
      fs.mkdirSync(process.env.LIGHTHOUSE_REPORTS, { recursive: true });
      const name = `${locale}${route.replace(/\//g, "_")}.json`;
      fs.writeFileSync(path.join(process.env.LIGHTHOUSE_REPORTS, name), JSON.stringify(lhr));
    }
    const scores = CATEGORIES.map((c) => Math.round((lhr.categories[c]?.score ?? 0) * 100));
    if (scores.some((s, i) => s < (CATEGORIES[i] === "performance" ? MIN : 100))) failed = true;
    console.log([`${locale} ${route}`.padEnd(44), ...scores.map((s) => String(s).padStart(15))].join(""));
    // The metrics behind the performance score, so a drop can be traced without rerunning.
    console.log(
      `    ${METRICS.map((m) => `${m.replace(/-/g, " ")} ${lhr.audits[m]?.displayValue ?? "?"}`).join(" · ")}`,
    );
    for (const c of CATEGORIES) {
      const cat = lhr.categories[c];
      if (!cat || (cat.score ?? 0) >= 1) continue;
      for (const ref of cat.auditRefs) {
        const audit = lhr.audits[ref.id];
        if (ref.weight > 0 && audit && audit.score !== null && audit.score < 0.9) {
          console.log(`    ${c}: ${audit.id} (${audit.displayValue ?? audit.score})`);
          for (const item of audit.details?.items?.slice(0, 5) ?? []) {
            if (item.node?.selector) console.log(`      ${item.node.selector}: ${item.node.snippet?.slice(0, 120)}`);
          }
        }
      }
    }
  }
} finally {
  await chrome.kill();
  server.stop();
}
if (failed) {
  console.error(`\nSome score is below target (performance ${MIN}, the others 100).`);
  process.exit(1);
}
