/**
 * Operations, end to end on the real process: graceful shutdown finishes in-flight requests and keeps PGlite
 * data, a second process on the same DATA_DIR is refused, and the CLI tells the operator to stop the server.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { MeWithOrgs } from "@moonport/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PASSWORD, uniqueUsername } from "./auth-helpers.ts";
import { testEnv } from "./env.ts";
import {
  accepting,
  freePort,
  killAll,
  run as runIn,
  session,
  startServer as startIn,
} from "./support/server-process.ts";
import { waitFor } from "./support/wait.ts";

let dataDir: string;
const run = (script: string, args: string[], env: Record<string, string>) =>
  runIn(script, args, { DATA_DIR: dataDir, ...env });
const startServer = (port: number) => startIn(port, { DATA_DIR: dataDir });

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-ops-"));
});
afterAll(() => {
  killAll();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

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
