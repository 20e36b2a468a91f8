#!/usr/bin/env node
/**
 * Lighthouse on the signed-in playground (/playground) in both locales, mobile and desktop. A fresh account is
 * signed up through the development SMS outbox, so the instance needs DEV_SEAMS. Accessibility and best practices
 * must be at least LIGHTHOUSE_PLAYGROUND_MIN (95); performance and SEO are printed (a client-only console page).
 *
 *   npm run lighthouse:playground      # starts a built instance (DEV_SEAMS) on LIGHTHOUSE_PORT, else E2E_PORT,
 *                                      # else 3401: your own port when several checkouts share the machine
 *   LIGHTHOUSE_URL=http://localhost:4500 npm run lighthouse:playground   # an instance already running (DEV_SEAMS)
 */
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { startInstance } from "./start-instance.mjs";

const server = process.env.LIGHTHOUSE_URL
  ? { base: process.env.LIGHTHOUSE_URL.replace(/\/$/, ""), stop: () => {} }
  : await startInstance({
      port: Number(process.env.LIGHTHOUSE_PORT ?? process.env.E2E_PORT ?? 3401),
      env: {
        DEV_SEAMS: "true",
        SIGNUPS_PER_IP_PER_HOUR: "1000",
        SIGNUPS_PER_IP_PER_DAY: "1000",
        SMS_PER_IP_PER_HOUR: "1000",
      },
    });
const BASE = server.base;
const MIN = Number(process.env.LIGHTHOUSE_PLAYGROUND_MIN ?? 95);
const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];

/** Cookies of a fresh signed-in account (the session and CSRF cookies the browser would hold). */
async function signIn() {
  const jar = new Map();
  const call = async (path, init = {}) => {
    const res = await fetch(`${BASE}${path}`, {
      ...init,
      headers: {
        origin: BASE,
        "content-type": "application/json",
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
        ...(jar.has("mp_csrf") ? { "x-csrf-token": jar.get("mp_csrf") } : {}),
        ...init.headers,
      },
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair.indexOf("=");
      jar.set(pair.slice(0, i), pair.slice(i + 1));
    }
    return res;
  };
  await call("/healthz");
  const phone = `136${String(Date.now()).slice(-8)}`;
  await call("/api/auth/sms", { method: "POST", body: JSON.stringify({ phone, purpose: "signup" }) });
  const [msg] = await (await call(`/api/dev/sms-outbox?phone=${encodeURIComponent(`+86${phone}`)}`)).json();
  const res = await call("/api/auth/signup/phone", {
    method: "POST",
    body: JSON.stringify({
      phone,
      code: msg.code,
      username: `lh_${phone.slice(-8)}`,
      password: "Str0ng!pass",
      confirmPassword: "Str0ng!pass",
    }),
  });
  if (!res.ok) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}

let chrome;
let failed = false;
try {
  console.log(["page".padEnd(28), ...CATEGORIES.map((c) => c.padStart(15))].join(""));
  for (const locale of ["zh-CN", "en-US"]) {
    for (const desktop of [false, true]) {
      // A fresh account and a fresh browser per audit: in a browser reused after an audit the session cookie
      // sent in the headers is no longer honoured, and a signed-out audit would score the sign-in page instead.
      const cookie = await signIn();
      await chrome?.kill();
      chrome = await chromeLauncher.launch({
        chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
        chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
      });
      const result = await lighthouse(
        `${BASE}/playground`,
        {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: CATEGORIES,
          extraHeaders: { Cookie: `${cookie}; locale=${locale}` },
        },
        desktop ? desktopConfig : undefined,
      );
      const lhr = result.lhr;
      // The sign-in form has a link to sign-up: an audit of it is not an audit of the playground.
      if (JSON.stringify(lhr.audits["color-contrast"]?.details ?? {}).includes("/signup?next=")) {
        throw new Error(`${locale} ${desktop ? "desktop" : "mobile"}: the audit saw the sign-in page`);
      }
      const scores = CATEGORIES.map((c) => Math.round((lhr.categories[c]?.score ?? 0) * 100));
      if (scores[1] < MIN || scores[2] < MIN) failed = true;
      console.log(
        [`${locale} ${desktop ? "desktop" : "mobile"}`.padEnd(28), ...scores.map((s) => String(s).padStart(15))].join(
          "",
        ),
      );
      for (const c of ["accessibility", "best-practices"]) {
        for (const ref of lhr.categories[c].auditRefs) {
          const audit = lhr.audits[ref.id];
          if (ref.weight > 0 && audit && audit.score !== null && audit.score < 1) {
            console.log(`    ${c}: ${audit.id}`);
            for (const item of audit.details?.items?.slice(0, 5) ?? []) {
              if (item.node?.selector) console.log(`      ${item.node.selector}: ${item.node.snippet?.slice(0, 140)}`);
            }
          }
        }
      }
    }
  }
} finally {
  await chrome?.kill();
  server.stop();
}
if (failed) {
  console.error(`\nAccessibility or best practices below ${MIN}.`);
  process.exit(1);
}
