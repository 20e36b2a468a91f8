import { defineConfig } from "@playwright/test";

// E2E_PORT lets several checkouts run their browser suites side by side.
const PORT = Number(process.env.E2E_PORT ?? 3100);
/** The local mail server the app sends to over SMTP (e2e/mail-catcher.ts); specs read it at MAIL_CATCHER_URL. */
const MAIL_HTTP_PORT = PORT + 1;
const MAIL_SMTP_PORT = PORT + 2;
process.env.MAIL_CATCHER_URL = `http://127.0.0.1:${MAIL_HTTP_PORT}`;

/**
 * End-to-end specs run against a built, running instance on a fresh PGlite directory, in Debian's Chromium
 * (never a downloaded browser).
 */
export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  // CI runs the suite on two busy cores beside the server it tests: a hydration or a list can take longer than
  // Playwright's 5 s default there (two CI runs failed on that, never on a wrong value).
  expect: { timeout: 10_000 },
  // Most of a journey's time is waiting (tier-0 rate limits, mail, simulated streams), not CPU: two workers
  // overlap those waits. Specs share one server, so each works in its own new organization.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // Test by test, not file by file: the long journeys of one file (both locales or editions) run side by side
  // instead of leaving one worker to finish the suite alone.
  fullyParallel: true,
  reporter: [["list"]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    // With the theme's respectReducedMotion, dialogs open without a transition, so a click never straddles one: on
    // a loaded CI host a dialog sat still for two frames while scaling in, Playwright pressed its button, the
    // dialog grew, and the release landed beside it (no click, the dialog stayed open: invoices.spec.ts twice).
    reducedMotion: "reduce",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
    screenshot: "only-on-failure",
  },
  // The suite's one operator is created through the one-time /setup link before any spec runs, so that two
  // workers never race for that link (e2e/operator.setup.ts).
  projects: [
    // In file order on one worker: the wrong-token test needs the setup page before the operator exists.
    { name: "operator", testMatch: /operator\.setup\.ts$/, fullyParallel: false },
    { name: "e2e", testMatch: /\.spec\.ts$/, dependencies: ["operator"] },
  ],
  webServer: [
    {
      command: `MAIL_CATCHER_SMTP_PORT=${MAIL_SMTP_PORT} MAIL_CATCHER_HTTP_PORT=${MAIL_HTTP_PORT} node --import tsx e2e/mail-catcher.ts`,
      url: `http://127.0.0.1:${MAIL_HTTP_PORT}/healthz`,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    // OUTBOUND_ALLOW_HOSTS: e2e/tools.spec.ts's MCP server listens on 127.0.0.1 (the SSRF guard refuses loopback).
    {
      command: `rm -rf .tmp/e2e-data-${PORT} && DATA_DIR=.tmp/e2e-data-${PORT} PORT=${PORT} LOG_LEVEL=warn SIMULATOR_DELAY_MS=${process.env.E2E_SIMULATOR_DELAY_MS ?? 30} DEV_SEAMS=true SIGNUPS_PER_IP_PER_HOUR=1000 SIGNUPS_PER_IP_PER_DAY=1000 SMS_PER_IP_PER_HOUR=1000 MAIL_TRANSPORT=smtp SMTP_HOST=127.0.0.1 SMTP_PORT=${MAIL_SMTP_PORT} SALES_EMAIL=sales@moonport.test SUPPORT_EMAIL=support@moonport.test CONTACT_SALES_PER_IP_PER_HOUR=1000 OUTBOUND_ALLOW_HOSTS=127.0.0.1 node --import ./scripts/ts-register.mjs apps/server/src/main.ts`,
      url: `http://localhost:${PORT}/readyz`,
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
});
