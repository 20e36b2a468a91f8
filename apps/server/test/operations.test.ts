/**
 * Operations, end to end on the real process: graceful shutdown finishes in-flight requests and keeps PGlite
 * data, a second process on the same DATA_DIR is refused, and the CLI tells the operator to stop the server.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { MeWithOrgs } from "@moonport/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD, uniqueUsername } from "./auth-helpers.ts";
import { testEnv } from "./env.ts";
import { waitFor } from "./support/wait.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
let dataDir: string;
const running = new Set<ChildProcess>();

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-ops-"));
});
afterAll(() => {
  for (const p of running) p.kill("SIGKILL");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Whether something accepts TCP connections on the port (the server's listener is open). */
function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

interface Proc {
  child: ChildProcess;
  lines: string[];
  stderr: () => string;
  exited: Promise<number | null>;
  waitForLine(pred: (line: string) => boolean, timeoutMs?: number): Promise<string>;
}

function run(script: string, args: string[], env: Record<string, string>): Proc {
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    // The spawned process must use its own PGlite directory, never a database or Redis of the test run.
    if (v !== undefined && !["DATABASE_URL", "REDIS_URL", "NODE_OPTIONS", "VITEST"].includes(k)) childEnv[k] = v;
  }
  const child = spawn(process.execPath, ["--import", "./scripts/ts-register.mjs", script, ...args], {
    cwd: ROOT,
    env: { ...childEnv, DATA_DIR: dataDir, SERVE_WEB: "false", LOG_LEVEL: "info", NODE_ENV: "test", ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  running.add(child);
  const lines: string[] = [];
  let err = "";
  const waiters: { pred: (l: string) => boolean; resolve: (l: string) => void }[] = [];
  let buf = "";
  child.stdout!.on("data", (d: Buffer) => {
    buf += d.toString();
    let i = buf.indexOf("\n");
    while (i !== -1) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      lines.push(line);
      for (const w of [...waiters]) {
        if (w.pred(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
      i = buf.indexOf("\n");
    }
  });
  child.stderr!.on("data", (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return {
    child,
    lines,
    stderr: () => err,
    exited,
    waitForLine(pred, timeoutMs = 60_000) {
      const found = lines.find(pred);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`timed out waiting for a log line; stderr:\n${err}\nstdout:\n${lines.join("\n")}`)),
          timeoutMs,
        );
        waiters.push({
          pred,
          resolve: (l) => {
            clearTimeout(timer);
            resolve(l);
          },
        });
      });
    },
  };
}

async function startServer(port: number): Promise<Proc> {
  const p = run("apps/server/src/main.ts", [], { PORT: String(port), HOST: "127.0.0.1" });
  await Promise.race([
    p.waitForLine((l) => l.includes("Server listening"), 90_000),
    p.exited.then((code) => {
      throw new Error(`server exited early (${code}): ${p.stderr()}`);
    }),
  ]);
  return p;
}

/** A tiny browser: CSRF cookie first, then same-origin JSON requests with the token header. */
async function session(port: number) {
  const base = `http://127.0.0.1:${port}`;
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const [k, v] = pair!.split("=");
      jar.set(k!, v ?? "");
    }
  };
  keep(await fetch(`${base}/healthz`));
  const headers = () => ({
    origin: base,
    "content-type": "application/json",
    "x-csrf-token": jar.get("mp_csrf") ?? "",
    cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
  });
  return {
    headers,
    async post(url: string, body: unknown) {
      const res = await fetch(base + url, { method: "POST", headers: headers(), body: JSON.stringify(body) });
      keep(res);
      return { status: res.status, body: await res.json() };
    },
  };
}

// The spawned server always uses PGlite in a temp directory, so the PostgreSQL pass of the suite skips it.
describe.skipIf(testEnv.databaseUrl)("operations", () => {
  it("finishes an in-flight request on SIGTERM, keeps the data across a restart and refuses a second process", async () => {
    const port = await freePort();
    const first = await startServer(port);
    // No operator yet: the one-time setup link is in the log.
    const setupLine = await first.waitForLine((l) => l.includes("/setup?token="));
    expect(JSON.parse(setupLine).setupUrl).toMatch(new RegExp(`^http://localhost:${port}/setup\\?token=`));

    // A sign-up whose body is still arriving when SIGTERM comes.
    const c = await session(port);
    const username = uniqueUsername("durable");
    const payload = JSON.stringify({ username, password: PASSWORD, confirmPassword: PASSWORD });
    const half = Math.floor(payload.length / 2);
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/api/auth/signup/password",
          headers: { ...c.headers(), "content-length": Buffer.byteLength(payload) },
        },
        (res) => {
          let body = "";
          res.on("data", (d) => {
            body += d;
          });
          res.on("end", () => resolve({ status: res.statusCode!, body }));
        },
      );
      req.on("error", reject);
      req.write(payload.slice(0, half));
      first
        .waitForLine((l) => l.includes("incoming request") && l.includes("/api/auth/signup/password"))
        .then(async () => {
          first.child.kill("SIGTERM");
          await first.waitForLine((l) => l.includes("shutting down"));
          // Finish the body only once the server has stopped taking new connections: the request is then
          // truly in flight during the shutdown.
          await waitFor("the listener to close", async () => !(await accepting(port)), { timeoutMs: 20_000 });
          req.end(payload.slice(half));
        }, reject);
    });
    const done = await response;
    expect(done.status, done.body).toBe(200);
    expect(MeWithOrgs.parse(JSON.parse(done.body)).username).toBe(username);
    expect(await first.exited).toBe(0);
    expect(first.lines.some((l) => l.includes("closed cleanly"))).toBe(true);
    // Structured logs: every request line is JSON with the request id.
    const requestLines = first.lines.filter((l) => l.includes("incoming request")).map((l) => JSON.parse(l));
    expect(requestLines.length).toBeGreaterThan(0);
    for (const l of requestLines) expect(l.reqId).toMatch(/^req_/);

    const second = await startServer(port);
    // Still no operator: a fresh one-time link, not the old one.
    const secondSetup = JSON.parse(await second.waitForLine((l) => l.includes("/setup?token="))).setupUrl;
    expect(secondSetup).not.toBe(JSON.parse(setupLine).setupUrl);
    const again = await session(port);
    const signin = await again.post("/api/auth/signin", { username, password: PASSWORD });
    expect(signin.status).toBe(200);
    expect(MeWithOrgs.parse(signin.body).username).toBe(username);

    // A second server on the same directory is refused with a clear message.
    const third = run("apps/server/src/main.ts", [], { PORT: String(await freePort()), HOST: "127.0.0.1" });
    expect(await third.exited).not.toBe(0);
    expect(third.stderr()).toContain(`The data directory ${dataDir} is in use by process ${second.child.pid}`);

    // So is the operator command line, telling the operator what to do.
    const cli = run("apps/server/src/cli.ts", ["list-users"], {});
    expect(await cli.exited).toBe(3);
    expect(cli.stderr()).toContain("stop the server");

    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    const after = run("apps/server/src/cli.ts", ["list-users"], {});
    expect(await after.exited).toBe(0);
    expect(after.lines.join("\n")).toContain(username);
  }, 240_000);
});
