/**
 * A built Moonport instance for the audit scripts (lighthouse.mjs, lighthouse-playground.mjs): the server on `port`
 * with a throw-away PGlite data directory, stopped (and its data removed) by `stop()`. `env` adds settings (the
 * playground audit needs DEV_SEAMS to sign an account up through the development SMS outbox).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function waitFor(url, ms) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} did not answer within ${ms} ms`);
}

export async function startInstance({ port, env = {} }) {
  if (!fs.existsSync(path.join(ROOT, "apps/web/build/client"))) {
    throw new Error("no web build: run `npm run build` first");
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-lighthouse-"));
  const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn", NODE_ENV: "test", ...env },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const base = `http://localhost:${port}`;
  try {
    await waitFor(`${base}/readyz`, 60_000);
  } catch (err) {
    child.kill("SIGTERM");
    throw err;
  }
  return {
    base,
    stop: () => {
      child.kill("SIGTERM");
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
