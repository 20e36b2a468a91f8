/**
 * Scale-out, end to end: three real server processes on one PostgreSQL database and one Redis, behind HAProxy on
 * loopback. Load goes through the balancer (autocannon) and one instance is SIGKILLed in the middle of it. Then:
 *
 *  - every response the client got with usage is billed exactly once (its request id, tokens and price), nothing
 *    is billed twice, and bills, ledger and balance agree to the nano-unit; the killed instance's journal is
 *    settled when it is started again on the same journal directory (what a supervisor does);
 *  - a rate limit holds in aggregate across the instances (RPM counted in Redis);
 *  - a revoked key is refused by every instance within a second.
 *
 * Runs in the PostgreSQL + Redis pass of `npm test` (scripts/test-all.sh). Without HAProxy it skips with a
 * message, except under CI=true, where it fails (.ci/run installs the Debian package).
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseMoney } from "@moonport/contracts";
import { type Database, openDatabase, randomString, schema } from "@moonport/db";
// @ts-expect-error autocannon ships no type declarations (the type below covers what this test reads)
import autocannonUntyped from "autocannon";
import { eq } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listLedgerEntries } from "../src/modules/billing/index.ts";
import { disableApiKey } from "../src/modules/keys/disable-api-key.ts";
import { setOrgRateLimits } from "../src/modules/orgs/set-org-rate-limits.ts";
import { testEnv } from "./env.ts";
import { orgMoney, type SeededAccount, seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp } from "./helpers.ts";
import { waitFor } from "./support/wait.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

function findBinary(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter), "/usr/sbin", "/usr/local/sbin", "/sbin"];
  for (const dir of dirs) {
    const file = path.join(dir, name);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {}
  }
  return undefined;
}

const HAPROXY = findBinary("haproxy");
const UNDER_CI = process.env.CI === "true";
const services = Boolean(testEnv.databaseUrl && testEnv.redisUrl);
const skipReason = !services
  ? "needs PostgreSQL and Redis (TEST_DATABASE_URL and TEST_REDIS_URL: the PostgreSQL + Redis pass of npm test)"
  : !HAPROXY && !UNDER_CI
    ? "haproxy is not installed (apt-get install -y haproxy); under CI=true this fails instead"
    : null;
if (skipReason && services) console.warn(`scale-out test skipped: ${skipReason}`);

// autocannon ships no type declarations; only the fields read below are typed.
type AutocannonResult = { errors: number; timeouts: number; non2xx: number; requests: { total: number } };
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = autocannonUntyped as Autocannon;

async function adminQuery(text: string) {
  const c = new pg.Client({ connectionString: testEnv.databaseUrl });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
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

interface Instance {
  name: string;
  port: number;
  metricsPort: number;
  journalDir: string;
  child?: ChildProcess;
  output: string;
}

const children = new Set<ChildProcess>();
let workDir: string;
let database: Database;
let dropDatabase: () => Promise<void>;
let databaseUrl: string;
let control: TestApp;
let lbPort: number;
const instances: Instance[] = [];
const redisPrefix = `moonport-scale-${randomString(8, "abcdefghijklmnopqrstuvwxyz")}`;

function serverEnv(inst: Instance): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !["NODE_OPTIONS", "VITEST", "DATABASE_URL", "REDIS_URL"].includes(k)) env[k] = v;
  }
  return {
    ...env,
    NODE_ENV: "test",
    SERVE_WEB: "false",
    LOG_LEVEL: "info",
    HOST: "127.0.0.1",
    PORT: String(inst.port),
    DATABASE_URL: databaseUrl,
    REDIS_URL: testEnv.redisUrl!,
    REDIS_KEY_PREFIX: redisPrefix,
    DATA_DIR: path.join(workDir, inst.name),
    BILLING_JOURNAL_DIR: inst.journalDir,
    TRUST_PROXY: "true",
    // Every connection comes from the balancer.
    MAX_CONNECTIONS_PER_IP: "0",
    SIMULATOR_DELAY_MS: "1",
    METRICS_PORT: String(inst.metricsPort),
  };
}

async function startInstance(inst: Instance): Promise<void> {
  inst.output = "";
  const child = spawn(process.execPath, ["--import", "./scripts/ts-register.mjs", "apps/server/src/main.ts"], {
    cwd: ROOT,
    env: serverEnv(inst),
    stdio: ["ignore", "pipe", "pipe"],
  });
  inst.child = child;
  children.add(child);
  child.on("exit", () => children.delete(child));
  child.stdout!.on("data", (d: Buffer) => {
    inst.output += d.toString();
  });
  child.stderr!.on("data", (d: Buffer) => {
    inst.output += d.toString();
  });
  await waitFor(
    `${inst.name} to answer /readyz`,
    async () => {
      if (child.exitCode !== null) throw new Error(`${inst.name} exited (${child.exitCode}):\n${inst.output}`);
      try {
        const res = await fetch(`http://127.0.0.1:${inst.port}/readyz`);
        return res.status === 200;
      } catch {
        return false;
      }
    },
    { timeoutMs: 90_000, intervalMs: 100 },
  );
}

/** HAProxy in front of the instances: round robin, health-checked on /readyz every 200 ms. */
function haproxyConfig(): string {
  return `global
  maxconn 4096

defaults
  mode http
  timeout connect 1s
  timeout client 30s
  timeout server 30s
  # Retry only when the connection to an instance could not be made (the request never reached it): a
  # request an instance received may have been billed, and must not be sent to a second one.
  retries 2
  retry-on conn-failure
  option redispatch

frontend moonport
  bind 127.0.0.1:${lbPort}
  default_backend instances

backend instances
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
  # A dead instance refuses connections (a failed check at once, and retry-on sends the request elsewhere); the
  # generous check timeout keeps a merely slow instance on a loaded machine in rotation.
  timeout check 3s
  default-server inter 300ms fall 2 rise 1
${instances.map((i) => `  server ${i.name} 127.0.0.1:${i.port} check`).join("\n")}
`;
}

async function startHaproxy() {
  const cfg = path.join(workDir, "haproxy.cfg");
  fs.writeFileSync(cfg, haproxyConfig());
  let output = "";
  const child = spawn(HAPROXY!, ["-db", "-f", cfg], { stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  await waitFor(
    "HAProxy to route to every instance",
    async () => {
      if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode}):\n${output}`);
      try {
        return (await fetch(`http://127.0.0.1:${lbPort}/readyz`)).status === 200;
      } catch {
        return false;
      }
    },
    { timeoutMs: 15_000, intervalMs: 100 },
  );
}

function chatBody(n: number) {
  return JSON.stringify({
    model: "moonshot-v1-8k",
    max_tokens: 8,
    messages: [{ role: "user", content: `Request ${n}: say something short` }],
  });
}

async function post(port: number, key: string, n = 0) {
  return fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: chatBody(n),
  });
}

beforeAll(async () => {
  if (skipReason) return;
  if (!HAPROXY) throw new Error("haproxy is not installed; CI=true requires it (apt-get install -y haproxy)");
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-scale-"));
  // A fresh, empty database: the three instances start together and race to migrate it (one migrates under an
  // advisory lock, the others wait and find nothing to do).
  const name = `moonport_t_${randomString(10, "abcdefghijklmnopqrstuvwxyz")}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(testEnv.databaseUrl!);
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
  dropDatabase = () => adminQuery(`drop database if exists ${name} with (force)`);
  // Seven distinct free ports (the OS may hand a just-released port out again).
  const ports = new Set<number>();
  while (ports.size < 7) ports.add(await freePort());
  const [lb, ...rest] = [...ports] as [number, ...number[]];
  lbPort = lb;
  for (const [i, name] of ["a", "b", "c"].entries()) {
    const journalDir = path.join(workDir, `journal-${name}`);
    instances.push({ name, port: rest[2 * i]!, metricsPort: rest[2 * i + 1]!, journalDir, output: "" });
  }
  await Promise.all(instances.map(startInstance));
  // An in-process app on the same database and Redis: seeds accounts and revokes keys the way the console does
  // (the revocation travels to the instances through Redis).
  database = await openDatabase({ kind: "postgres", url: databaseUrl, poolSize: 5 });
  control = await createTestApp({ REDIS_URL: testEnv.redisUrl!, REDIS_KEY_PREFIX: redisPrefix }, { database });
  await startHaproxy();
}, 180_000);

afterAll(async () => {
  for (const c of children) c.kill("SIGKILL");
  await control?.close();
  await database?.close();
  await dropDatabase?.();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
}, 60_000);

describe.skipIf(skipReason !== null)("three instances behind HAProxy on PostgreSQL + Redis", () => {
  let load: SeededAccount;

  it("bill every answered request exactly once when an instance is killed mid-load", async () => {
    // Kept small: the other server test file running beside this one has timing bounds of its own.
    const AMOUNT = 240;
    load = await seedAccount(control.ctx, { cash: "1000", tierOverride: 5 });
    const before = await orgMoney(control.ctx.db, load.orgId);
    const answered = new Map<string, { prompt: number; completion: number }>();
    let failures = 0;
    const statuses = new Map<number, number>();
    let n = 0;
    const run = autocannon({
      url: `http://127.0.0.1:${lbPort}`,
      connections: 8,
      // A fixed number of requests rather than a duration: a run that stops on time drops the answers still in
      // flight, which would look like billed requests nobody was answered.
      amount: AMOUNT,
      timeout: 10,
      requests: [
        {
          method: "POST",
          path: "/v1/chat/completions",
          headers: { authorization: `Bearer ${load.key}`, "content-type": "application/json" },
          setupRequest: (req: Record<string, unknown>) => ({ ...req, body: chatBody(n++) }),
          onResponse: (status: number, body: string, _ctx: unknown, headers: Record<string, string>) => {
            if (status !== 200) {
              failures++;
              statuses.set(status, (statuses.get(status) ?? 0) + 1);
              return;
            }
            const usage = (JSON.parse(body) as { usage: { prompt_tokens: number; completion_tokens: number } }).usage;
            const id = headers["msh-request-id"];
            expect(id).toBeTruthy();
            expect(answered.has(id!)).toBe(false);
            answered.set(id!, { prompt: usage.prompt_tokens, completion: usage.completion_tokens });
          },
        },
      ],
    });
    // Kill instance b once load is flowing: whatever it had in flight may fail for the client.
    await waitFor("load to flow", () => answered.size >= 30, { timeoutMs: 20_000 });
    const victim = instances[1]!;
    victim.child!.kill("SIGKILL");
    const result = await run;
    // Requests b had in flight when it died end with a 502 from HAProxy or a closed connection (which autocannon
    // does not count as an answer, an error or a request): those are what the client saw fail.
    const lost = AMOUNT - answered.size - failures;
    const unsuccessful = failures + lost;
    console.info(
      `scale-out load: ${answered.size} of ${AMOUNT} answered with usage, ${failures} other statuses ${JSON.stringify(Object.fromEntries(statuses))}, ` +
        `${lost} lost in flight (${result.errors} connection errors); killed instance ${victim.name}`,
    );
    // After the kill HAProxy stops routing to b within its health-check interval: a handful fail at most.
    expect(unsuccessful).toBeLessThanOrEqual(24);
    expect(answered.size).toBeGreaterThanOrEqual(AMOUNT - 24);

    // A supervisor restarts b on its journal directory: it settles what it journaled but had not committed.
    await startInstance(victim);
    for (const inst of instances) {
      // Each live instance commits within ~100 ms of a settle; asking for the balance drains its writer.
      const res = await fetch(`http://127.0.0.1:${inst.port}/v1/users/me/balance`, {
        headers: { authorization: `Bearer ${load.key}` },
      });
      expect(res.status).toBe(200);
    }

    const bills = await control.ctx.db
      .select({
        requestId: schema.requestBills.requestId,
        input: schema.requestBills.inputTokens,
        output: schema.requestBills.outputTokens,
        status: schema.requestBills.status,
      })
      .from(schema.requestBills)
      .where(eq(schema.requestBills.orgId, load.orgId));
    const byRequest = new Map<string, typeof bills>();
    for (const b of bills) byRequest.set(b.requestId, [...(byRequest.get(b.requestId) ?? []), b]);
    // Nothing billed twice.
    for (const [id, rows] of byRequest) expect(rows, `bills of ${id}`).toHaveLength(1);
    // Every answer with usage billed once, with the tokens the client was told.
    for (const [id, usage] of answered) {
      const rows = byRequest.get(id);
      expect(rows, `bill of answered request ${id}`).toHaveLength(1);
      expect(rows![0]!.input).toBe(usage.prompt);
      expect(rows![0]!.output).toBe(usage.completion);
    }
    // Bills for requests the client did not see answered: only ones b had in flight when it died.
    const unanswered = [...byRequest.keys()].filter((id) => !answered.has(id));
    console.info(`scale-out bills: ${byRequest.size} requests billed, ${unanswered.length} of them not answered`);
    expect(unanswered.length).toBeLessThanOrEqual(unsuccessful);

    // Each instance counted what it answered (main.ts serves the metrics on their own loopback port); a and c
    // ran through the whole load, so together they answered everything b did not.
    let counted = 0;
    for (const inst of [instances[0]!, instances[2]!]) {
      const text = await (await fetch(`http://127.0.0.1:${inst.metricsPort}/metrics`)).text();
      const line = text
        .split("\n")
        .find((l) =>
          l.startsWith(
            'moonport_http_requests_total{route="/v1/chat/completions",method="POST",model="moonshot-v1-8k",status="200"}',
          ),
        );
      expect(line, `instance ${inst.name} metrics`).toBeDefined();
      counted += Number(line!.split(" ").pop());
    }
    expect(counted).toBeGreaterThanOrEqual(answered.size / 2);
    expect(counted).toBeLessThanOrEqual(answered.size);

    // Money: bills, ledger and balance agree to the nano-unit.
    const after = await orgMoney(control.ctx.db, load.orgId);
    expect(after.bills.count).toBe(byRequest.size);
    expect(after.ledgerCash).toBe(after.cash);
    expect(before.cash - after.cash).toBe(after.bills.cash);
    expect(after.bills.consumption).toBe(after.bills.cash + after.bills.voucher);
    const charges = await listLedgerEntries({ db: control.ctx.db, orgId: load.orgId, kind: "charge" });
    expect(charges.reduce((s, l) => s + l.cashDelta, 0n)).toBe(-after.bills.cash);
    expect(parseMoney("1000") - after.cash).toBe(after.bills.cash);
  }, 120_000);

  it("enforce one RPM limit across all instances", async () => {
    const acct = await seedAccount(control.ctx, { cash: "100", tierOverride: 1 });
    await setOrgRateLimits({
      db: control.ctx.db,
      orgId: acct.orgId,
      override: { rpm: 12, concurrency: 100 },
      actor: "test",
    });
    // 36 requests, round-robin over three instances: each would admit 12 if it counted alone.
    const statuses = await Promise.all(
      Array.from({ length: 36 }, (_, i) => post(lbPort, acct.key, i).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(12);
    expect(statuses.filter((s) => s === 429)).toHaveLength(24);
  }, 60_000);

  it("refuse a revoked key on every instance within a second", async () => {
    const acct = await seedAccount(control.ctx, { cash: "100", tierOverride: 1 });
    // Warm each instance's key cache directly.
    for (const inst of instances) expect((await post(inst.port, acct.key)).status).toBe(200);
    const t0 = performance.now();
    await disableApiKey({ db: control.ctx.db, keyEvents: control.ctx.keyEvents, orgId: acct.orgId, keyId: acct.keyId });
    const refusedAfter = await Promise.all(
      instances.map((inst) =>
        waitFor(
          `instance ${inst.name} to refuse the revoked key`,
          async () => ((await post(inst.port, acct.key)).status === 401 ? performance.now() - t0 : false),
          { timeoutMs: 3000, intervalMs: 20 },
        ),
      ),
    );
    for (const ms of refusedAfter) expect(ms).toBeLessThan(1000);
    expect((await post(lbPort, acct.key)).status).toBe(401);
  }, 60_000);
});
