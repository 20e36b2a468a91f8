/**
 * A payment the sandbox provider charged ends `success`, credited exactly once, whatever crashes in between: the
 * real server is killed with SIGKILL after a card charge and before the provider's notification is processed,
 * and a new process on the same data finishes it. The sandbox's secret outlives the process, so the queued
 * notification still verifies and the bound card still pays. PGlite (DATA_DIR) and PostgreSQL (DATABASE_URL).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BillingOverview, MeWithOrgs, Payment, PaymentCard, parseMoney } from "@moonport/contracts";
import { type Database, openDatabase, schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listLedgerEntries } from "../src/modules/billing/index.ts";
import { NOTIFY_JOB } from "../src/modules/payments/sandbox-psp.ts";
import { PASSWORD, uniqueUsername } from "./auth-helpers.ts";
import { openTestDatabase } from "./helpers.ts";
import { CARD_CUSTOMER, INVOICE_INFO } from "./support/fixtures.ts";
import { freePort, killAll, type Proc, session, startServer } from "./support/server-process.ts";
import { waitFor } from "./support/wait.ts";

let dataDir: string;
let pg: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-payrestart-"));
  // On the PostgreSQL pass the spawned server uses a throwaway database of its own; on PGlite its DATA_DIR.
  const test = await openTestDatabase();
  if (test.url) pg = test;
  else await test.database.close();
});
afterAll(async () => {
  killAll();
  if (pg) {
    await pg.database.close();
    await pg.drop();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Reads the database while the server is down (PGlite is one process at a time) or beside it (PostgreSQL). */
async function inspect<T>(read: (db: Database["db"]) => Promise<T>): Promise<T> {
  if (pg) return read(pg.database.db);
  const database = await openDatabase({ kind: "pglite", dataDir, owner: "payment-restart test" });
  try {
    return await read(database.db);
  } finally {
    await database.close();
  }
}

describe("a sandbox card payment across kill -9", () => {
  it("ends success, credited once, after a crash before its notification; the card still pays", async () => {
    const port = await freePort();
    const env = { DATA_DIR: dataDir, ...(pg ? { DATABASE_URL: pg.url! } : {}) };
    let server: Proc = await startServer(port, env);
    const base = `http://127.0.0.1:${port}`;
    const c = await session(port, "en-US");
    const signup = await c.post("/api/auth/signup/password", {
      username: uniqueUsername("payrestart"),
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    expect(signup.status, JSON.stringify(signup.body)).toBe(200);
    const orgId = MeWithOrgs.parse(signup.body).currentOrganizationId!;
    const info = await c.request("PUT", `/api/orgs/${orgId}/invoice-info`, INVOICE_INFO);
    expect(info.status, JSON.stringify(info.body)).toBe(200);
    const tokenized = await fetch(`${base}/sandbox-psp/v1/tokens`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ number: "4242 4242 4242 4242", cvc: "123", expMonth: 12, expYear: 2099 }),
    });
    const { token } = (await tokenized.json()) as { token: string };
    const bound = await c.post(`/api/orgs/${orgId}/cards`, { token, customer: CARD_CUSTOMER });
    expect(bound.status, JSON.stringify(bound.body)).toBe(201);
    const cardId = PaymentCard.parse(bound.body).id;
    const pay = async () => {
      const res = await c.post(`/api/orgs/${orgId}/payments`, {
        amount: "10",
        payType: "credit_card",
        cardId,
        agreement: true,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return Payment.parse(res.body).id;
    };

    // The charge answers before its notification is processed (the job runner polls every second); SIGKILL at
    // once. Should the poll win the race, the payment is simply done: charge again, up to a few times.
    const paid: string[] = [];
    let crashed: string | null = null;
    for (let attempt = 0; attempt < 5 && !crashed; attempt++) {
      if (attempt > 0) server = await startServer(port, env);
      const id = await pay();
      server.child.kill("SIGKILL");
      await server.exited;
      paid.push(id);
      const state = await inspect(async (db) => {
        const [p] = await db.select().from(schema.payments).where(eq(schema.payments.id, id));
        const jobs = await db.select().from(schema.jobs).where(eq(schema.jobs.name, NOTIFY_JOB));
        return { status: p!.status, jobs };
      });
      if (state.status === "waiting") {
        // The crash left exactly what the bug needs: a charged order and its unprocessed, unclaimed notification.
        expect(state.jobs).toHaveLength(1);
        expect(state.jobs[0]!.lockedBy).toBeNull();
        crashed = id;
      }
    }
    expect(crashed, "no attempt crashed before the notification was processed").not.toBeNull();

    server = await startServer(port, env);
    const status = async (id: string) =>
      Payment.parse((await c.request("GET", `/api/orgs/${orgId}/payments/${id}`)).body).status;
    await waitFor("the crashed payment to succeed", async () => (await status(crashed!)) === "success", {
      timeoutMs: 30_000,
      intervalMs: 200,
    });
    // The card bound before the crash still pays.
    const after = await pay();
    paid.push(after);
    await waitFor("the next payment to succeed", async () => (await status(after)) === "success", {
      timeoutMs: 30_000,
      intervalMs: 200,
    });
    const overview = BillingOverview.parse((await c.request("GET", `/api/orgs/${orgId}/billing/overview`)).body);
    expect(overview.cash).toBe((parseMoney("10") * BigInt(paid.length)).toString());
    server.child.kill("SIGKILL");
    await server.exited;

    // Credited once each, by the ledger; no notification left failing.
    await inspect(async (db) => {
      for (const id of paid) {
        const credits = await listLedgerEntries({ db, reference: id, kind: "recharge" });
        expect(credits, id).toHaveLength(1);
        expect(credits[0]!.cashDelta).toBe(parseMoney("10"));
      }
      const left = await db.select().from(schema.jobs).where(eq(schema.jobs.name, NOTIFY_JOB));
      expect(left).toHaveLength(0);
    });
  }, 300_000);
});
