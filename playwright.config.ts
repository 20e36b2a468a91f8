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
  workers: 1,
  reporter: [["list"]],
  use: {
    baseURL: `http://localhost:${PORT}`,
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
