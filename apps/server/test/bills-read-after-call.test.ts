/**
 * A console page opened right after an API call shows that call: the routes that read bills (`readsBills`,
 * http/route.ts) commit this instance's queued bills first, though the bill writer itself waits up to 500 ms to
 * fill a batch. Also: the wait is bounded when the database cannot commit, and members who may not read a page
 * do not bring the commit forward.
 */
import { schema } from "@moonport/db";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BillWriter } from "../src/metering/bill-writer.ts";
import { grantBalance } from "../src/modules/billing/grant-balance.ts";
import { createApiKey } from "../src/modules/keys/create-api-key.ts";
import { addOrgMember, signUp, type TestUser } from "./console-helpers.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

const U = 1_000_000_000n;
let t: TestApp;
let admin: TestUser;
let secret: string;

async function chat() {
  const res = await t.app.inject({
    method: "POST",
    url: "/v1/chat/completions",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    payload: JSON.stringify({ model: "moonshot-v1-8k", messages: [{ role: "user", content: "hi" }] }),
  });
  expect(res.statusCode).toBe(200);
  // Bills carry the gateway's request id, the one the response names in Msh-Request-Id.
  return { id: String(res.headers["msh-request-id"]) };
}

const queued = () => t.ctx.meter.stats.billQueueDepth();
/** Today in the cn edition's zone (the test user's), as the console pages ask for it. */
const today = () => new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Shanghai" }).format(new Date());

beforeAll(async () => {
  t = await createTestApp();
  admin = await signUp(t);
  await grantBalance({ ctx: t.ctx, orgId: admin.orgId, amount: 100n * U, note: "test", createdBy: admin.userId });
  // Tier 0 allows a few requests a minute; this test makes several.
  await t.ctx.db.update(schema.organizations).set({ tierOverride: 3 }).where(eq(schema.organizations.id, admin.orgId));
  secret = (
    await createApiKey({
      db: t.ctx.db,
      orgId: admin.orgId,
      projectId: admin.defaultProjectId,
      name: "k",
      createdBy: admin.userId,
    })
  ).key;
});
afterAll(() => t.close());

describe("reading bills right after a call", () => {
  it("shows the call on every page that reads bills, though its batch was not due yet", async () => {
    expect(BillWriter.FLUSH_MS).toBeGreaterThanOrEqual(100);
    const O = `/api/orgs/${admin.orgId}`;
    const P = `${O}/projects/${admin.defaultProjectId}`;
    const day = `from=${today()}&to=${today()}`;
    const pages: [string, (body: Record<string, unknown>) => void][] = [
      [`${O}/bills/requests?${day}`, (b) => expect((b.items as unknown[]).length).toBeGreaterThan(0)],
      [`${O}/bills/daily?${day}`, (b) => expect((b.items as unknown[]).length).toBeGreaterThan(0)],
      [`${O}/consumption`, (b) => expect(JSON.stringify(b)).toMatch(/[1-9]/)],
      [`${P}/billing?month=${today().slice(0, 7)}`, (b) => expect(JSON.stringify(b)).toMatch(/[1-9]/)],
    ];
    for (const [url, check] of pages) {
      await chat();
      // Queued, not committed: the writer waits for more bills or for FLUSH_MS.
      expect(queued(), url).toBeGreaterThan(0);
      const res = await admin.client.get(url);
      expect(res.status, url).toBe(200);
      expect(queued(), url).toBe(0);
      check(res.body as Record<string, unknown>);
    }
  });

  it("leaves the queue alone for a caller the page refuses", async () => {
    const member = await signUp(t);
    await addOrgMember(t, admin.orgId, member, "member");
    await chat();
    expect(queued()).toBeGreaterThan(0);
    // Request Details are for organization admins.
    const res = await member.client.get(`/api/orgs/${admin.orgId}/bills/requests?from=${today()}&to=${today()}`);
    expect(res.status).toBe(403);
    expect(queued()).toBeGreaterThan(0);
    await t.ctx.meter.flush();
  });

  it("answers within its bound while the database does not commit, and shows the bill once it does", async () => {
    const { id } = await chat();
    // Every transaction waits until released: the batch commit hangs as on a stalled database.
    const db = t.ctx.db as unknown as { transaction: (...a: unknown[]) => Promise<unknown> };
    const transaction = db.transaction;
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => {
      release = resolve;
    });
    db.transaction = async (...a: unknown[]) => {
      await stalled;
      return transaction.apply(t.ctx.db, a);
    };
    const url = `/api/orgs/${admin.orgId}/bills/requests?from=${today()}&to=${today()}`;
    const requestIds = (body: unknown) => (body as { items: { requestId: string }[] }).items.map((i) => i.requestId);
    try {
      const started = Date.now();
      const res = await admin.client.get(url);
      expect(res.status).toBe(200);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(requestIds(res.body)).not.toContain(id);
    } finally {
      db.transaction = transaction;
      release();
    }
    const after = await admin.client.get(url);
    expect(requestIds(after.body)).toContain(id);
  });
});
