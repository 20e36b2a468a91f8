/**
 * Migrations that move data, run as a deployment meets them: the earlier migrations, rows written under them, then
 * the migration under test (each applies every earlier migration to a fresh PGlite: seconds on a loaded host).
 */
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterEach, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR } from "./client.ts";

const files = fs
  .readdirSync(MIGRATIONS_DIR)
  .filter((f) => f.endsWith(".sql"))
  .sort();

async function apply(db: PGlite, file: string) {
  for (const statement of fs.readFileSync(path.join(MIGRATIONS_DIR, file), "utf8").split("--> statement-breakpoint")) {
    if (statement.trim()) await db.exec(statement);
  }
}

let db: PGlite | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

describe("0010: request_bills keyed by organization and time, budgets from project_spend_days", () => {
  it("backfills each project's spend per local day of its edition and leaves one B-tree for the timeline", async () => {
    db = new PGlite();
    const target = files.find((f) => f.startsWith("0010_"))!;
    for (const f of files.filter((f) => f < target)) await apply(db, f);
    await db.exec(`insert into organizations (id, name, edition, currency, created_by)
      values ('org_cn', 'A', 'cn', 'CNY', 'u'), ('org_gl', 'B', 'global', 'USD', 'u')`);
    const bill = (id: string, org: string, project: string, at: string, consumption: number) =>
      db!.exec(`insert into request_bills (id, request_id, org_id, project_id, api_key_id, model, product_name,
        product_type, consumption, status, created_at)
        values ('${id}', 'r', '${org}', '${project}', 'k', 'm', 'm', 'model_inference', ${consumption}, 'ok', '${at}')`);
    // 15:59 and 16:01 UTC are two local days in Asia/Shanghai and one in UTC.
    await bill("b1", "org_cn", "p_cn", "2026-11-27T15:59:00Z", 10);
    await bill("b2", "org_cn", "p_cn", "2026-11-27T16:01:00Z", 20);
    await bill("b3", "org_cn", "p_cn", "2026-11-28T01:00:00Z", 5);
    await bill("b4", "org_gl", "p_gl", "2026-11-27T15:59:00Z", 30);
    await bill("b5", "org_gl", "p_gl", "2026-11-27T16:01:00Z", 40);
    await apply(db, target);

    const spend = await db.query(
      `select project_id, day, consumption::text as c from project_spend_days order by 1, 2`,
    );
    expect(spend.rows).toEqual([
      { project_id: "p_cn", day: "2026-11-27", c: "10" },
      { project_id: "p_cn", day: "2026-11-28", c: "25" },
      { project_id: "p_gl", day: "2026-11-27", c: "70" },
    ]);
    const indexes = await db.query<{ indexdef: string }>(
      `select indexdef from pg_indexes where tablename = 'request_bills' and indexdef like '%btree%' order by 1`,
    );
    expect(indexes.rows.map((r) => r.indexdef.replace(/^.* USING /, ""))).toEqual([
      "btree (context_cache_id) WHERE (context_cache_id IS NOT NULL)",
      "btree (org_id, created_at, id)",
    ]);
    // The key is the idempotence guard: the same line at the same time cannot be written twice.
    await expect(bill("b1", "org_cn", "p_cn", "2026-11-27T15:59:00Z", 10)).rejects.toThrow(/request_bills_pkey/);
  }, 60_000);
});

describe("0011: voucher tiers become floors", () => {
  it("moves redemption-set overrides to the floor and keeps operators' overrides", async () => {
    db = new PGlite();
    const target = files.find((f) => f.startsWith("0011_"))!;
    for (const f of files.filter((f) => f < target)) await apply(db, f);
    // org_v: raised to Tier2 by a code. org_o: the operator set Tier4 after redeeming a Tier2 code. org_c: the
    // CLI's demo-key set Tier1. org_l: redeemed a Tier1 code while its recharge was already higher (no override).
    await db.exec(`insert into organizations (id, name, edition, currency, created_by, tier_override) values
      ('org_v', 'V', 'global', 'USD', 'u', 2), ('org_o', 'O', 'global', 'USD', 'u', 4),
      ('org_c', 'C', 'cn', 'CNY', 'u', 1), ('org_l', 'L', 'cn', 'CNY', 'u', null)`);
    const code = (id: string, org: string, minTier: number) =>
      db!.exec(`insert into redemption_codes (id, code_hash, batch_id, edition, amount, voucher_type, voucher_days,
        min_tier, expires_at, created_by, redeemed_by_org, redeemed_at)
        values ('${id}', '${id}', 'b', 'global', 1, 'activity', 30, ${minTier}, '2027-01-01', 'op', '${org}',
        '2026-11-01T00:00:00Z')`);
    await code("rc1", "org_v", 2);
    await code("rc2", "org_o", 2);
    await code("rc3", "org_l", 1);
    await db.exec(`insert into operator_actions (id, actor, action, target, created_at) values
      ('a1', 'op', 'org.set_limits', 'org_o', '2026-11-02T00:00:00Z'),
      ('a2', 'cli', 'org.set_tier', 'org_c', '2026-11-02T00:00:00Z'),
      ('a3', 'op', 'org.set_limits', 'org_v', '2026-10-01T00:00:00Z')`);
    await apply(db, target);

    const orgs = await db.query(`select id, tier_override, tier_floor from organizations order by id`);
    expect(orgs.rows).toEqual([
      { id: "org_c", tier_override: 1, tier_floor: null },
      { id: "org_l", tier_override: null, tier_floor: 1 },
      { id: "org_o", tier_override: 4, tier_floor: 2 },
      { id: "org_v", tier_override: null, tier_floor: 2 },
    ]);
  }, 60_000);
});

describe("0012: refunded card orders undo their invoices", () => {
  it("voids the invoice of an order refunded in full and credits a partly refunded one", async () => {
    db = new PGlite();
    const target = files.find((f) => f.startsWith("0012_"))!;
    for (const f of files.filter((f) => f < target)) await apply(db, f);
    await db.exec(`insert into organizations (id, name, edition, currency, created_by)
      values ('org_g', 'G', 'global', 'USD', 'u')`);
    // Three $10 card orders: one refunded in full, one by $4, and one whose refund failed.
    const order = (id: string) =>
      db!.exec(`insert into payments (id, org_id, amount, currency, pay_type, provider, created_by, status)
        values ('${id}', 'org_g', 10000000000, 'USD', 'credit_card', 'sandbox', 'u', 'success');
        insert into order_invoices (payment_id, org_id, invoice_no, bill_to, net, tax, tax_rate_bp)
        values ('${id}', 'org_g', 'INV-${id}', '{}', 9170000000, 830000000, 900)`);
    const refund = (id: string, payment: string, amount: number, status: string) =>
      db!.exec(`insert into refunds (id, org_id, payment_id, amount, currency, requested_by, email, locale, status,
        finished_at) values ('${id}', 'org_g', '${payment}', ${amount}, 'USD', 'u', 'a@b.c', 'en-US', '${status}',
        '2026-11-20T10:00:00Z')`);
    for (const p of ["p1", "p2", "p3"]) await order(p);
    await refund("r1", "p1", 10000000000, "refunded");
    await refund("r2", "p2", 4000000000, "refunded");
    await refund("r3", "p3", 10000000000, "failed");
    await apply(db, target);

    const credits = await db.query<{ credit_no: string | null }>(
      `select refund_id, payment_id, kind, credit_no, amount::text, net::text, tax::text from order_invoice_credits
        order by refund_id`,
    );
    expect(credits.rows).toEqual([
      {
        refund_id: "r1",
        payment_id: "p1",
        kind: "void",
        credit_no: null,
        amount: "10000000000",
        net: "9170000000",
        tax: "830000000",
      },
      // $4 at 9 %: net $3.67 (4 / 1.09 = 3.669…), GST $0.33, as splitTax splits it.
      expect.objectContaining({
        refund_id: "r2",
        payment_id: "p2",
        kind: "credit_note",
        amount: "4000000000",
        net: "3670000000",
        tax: "330000000",
      }),
    ]);
    expect(credits.rows[1]!.credit_no).toMatch(/^CN-20261120-[0-9A-F]{6}$/);
  }, 60_000);
});

describe("org_balances migration: balances move out of organizations", () => {
  it("gives every organization its balance row with the cash and cumulative recharge it had", async () => {
    db = new PGlite();
    const target = files.find((f) => f.endsWith("_org_balances.sql"))!;
    for (const f of files.filter((f) => f < target)) await apply(db, f);
    // org_a: recharged and in arrears after a batch; org_b: never touched (defaults).
    await db.exec(`insert into organizations (id, name, edition, currency, created_by, cash_balance,
      cumulative_recharge) values ('org_a', 'A', 'cn', 'CNY', 'u', -1500, 50000000000)`);
    await db.exec(`insert into organizations (id, name, edition, currency, created_by)
      values ('org_b', 'B', 'global', 'USD', 'u')`);
    await apply(db, target);

    const balances = await db.query(
      `select org_id, cash_balance::text as cash, cumulative_recharge::text as recharge from org_balances order by 1`,
    );
    expect(balances.rows).toEqual([
      { org_id: "org_a", cash: "-1500", recharge: "50000000000" },
      { org_id: "org_b", cash: "0", recharge: "0" },
    ]);
    const columns = await db.query(
      `select column_name from information_schema.columns where table_name = 'organizations'
        and column_name in ('cash_balance', 'cumulative_recharge')`,
    );
    expect(columns.rows).toEqual([]);
    // The row goes with its organization.
    await db.exec(`delete from organizations where id = 'org_b'`);
    expect((await db.query(`select org_id from org_balances`)).rows).toEqual([{ org_id: "org_a" }]);
  }, 60_000);
});
