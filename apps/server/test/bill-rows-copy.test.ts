/**
 * The bill writer's two ways of writing bill rows (metering/bill-writer.ts): "copy" (a binary COPY, on either driver) must
 * store exactly what "insert" (one jsonb parameter inside the batch's write statement) stores, including text that
 * COPY's format has to escape, and a batch whose COPY fails must leave nothing behind.
 */
import { type CopyColumn, CopyEncoder, type CopyValue, copyRows, newTimeOrderedId, schema } from "@moonport/db";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BillRowWrite, commitEntries, type QueuedEntry } from "../src/metering/bill-writer.ts";
import type { JournalEntry } from "../src/metering/journal.ts";
import { grantVoucher, orgMoney, seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const TRICKY = ["plain", "tab\there", "line\nbreak", "back\\slash \\N", "cr\rlf\r\n", "中文 ✓", ""];

function entries(a: { orgId: string; projectId: string; keyId: string }, tag: string): JournalEntry[] {
  return TRICKY.map((text, i) => ({
    requestId: `${tag}-${i}-${text}`,
    orgId: a.orgId,
    projectId: a.projectId,
    apiKeyId: a.keyId,
    status: "ok",
    latencyMs: 10 + i,
    createdAt: Date.UTC(2026, 10, 27, 1, 2, 3, i),
    lines: [
      {
        id: newTimeOrderedId("bill"),
        model: "moonshot-v1-8k",
        productName: "moonshot-v1-8k",
        productType: "model_inference",
        inputTokens: 100 + i,
        outputTokens: 20 + i,
        cachedTokens: i,
        toolCalls: 0,
        consumption: String(1_234_567 + i),
        ...(i % 2 ? { contextCacheId: `cache-${text}` } : {}),
      },
    ],
  }));
}

async function rowsOf(orgId: string) {
  const rows = await t.ctx.db
    .select()
    .from(schema.requestBills)
    .where(eq(schema.requestBills.orgId, orgId))
    .orderBy(asc(schema.requestBills.latencyMs));
  // What must match between the two ways; ids and the org differ by construction.
  return rows.map(({ id: _id, orgId: _org, projectId: _p, apiKeyId: _k, requestId, ...rest }) => ({
    ...rest,
    requestId: requestId.replace(/^[a-z]+-/, ""),
  }));
}

async function commitAll(a: { orgId: string; projectId: string; keyId: string }, how: BillRowWrite) {
  const items: QueuedEntry[] = entries(a, how).map((entry) => ({ entry, local: false, fresh: true }));
  return commitEntries(t.ctx.db, items, how);
}

describe("bill rows by COPY", () => {
  it("stores exactly what the insert stores, text that needs escaping included, with the same balances", async () => {
    const byInsert = await seedAccount(t.ctx, { cash: "100" });
    const byCopy = await seedAccount(t.ctx, { cash: "100" });
    // A voucher on each, so the cash/voucher split is exercised too.
    const expires = new Date(Date.now() + 86_400_000);
    await grantVoucher(t.ctx, byInsert.orgId, "0.005", expires);
    await grantVoucher(t.ctx, byCopy.orgId, "0.005", expires);

    const a = await commitAll(byInsert, "insert");
    const b = await commitAll(byCopy, "copy");
    expect(b.map(({ orgId: _o, projectId: _p, ...r }) => r)).toEqual(a.map(({ orgId: _o, projectId: _p, ...r }) => r));

    const inserted = await rowsOf(byInsert.orgId);
    const copied = await rowsOf(byCopy.orgId);
    expect(copied).toHaveLength(TRICKY.length);
    expect(copied).toEqual(inserted);
    expect(copied.map((r) => r.requestId)).toEqual(TRICKY.map((text, i) => `${i}-${text}`));
    expect(copied.filter((r) => r.contextCacheId).map((r) => r.contextCacheId)).toEqual(
      TRICKY.filter((_, i) => i % 2).map((text) => `cache-${text}`),
    );
    expect(copied.some((r) => r.voucherDeduction > 0n)).toBe(true);

    const mi = await orgMoney(t.ctx.db, byInsert.orgId);
    const mc = await orgMoney(t.ctx.db, byCopy.orgId);
    expect(mc.cash).toBe(mi.cash);
    expect(mc.ledgerCash).toBe(mc.cash);
  });

  it("rolls the whole batch back when its COPY fails, and a checked retry bills each line once", async () => {
    const acc = await seedAccount(t.ctx, { cash: "100" });
    const batch = entries(acc, "x").map((entry) => ({ entry, local: false, fresh: true }));
    await commitEntries(t.ctx.db, batch.slice(0, 1), "copy");
    const before = await orgMoney(t.ctx.db, acc.orgId);
    // The first entry claims to be fresh but is in the table: the COPY violates the primary key.
    await expect(commitEntries(t.ctx.db, batch, "copy")).rejects.toThrow();
    const after = await orgMoney(t.ctx.db, acc.orgId);
    expect(after).toEqual(before);
    // Retried as the bill writer does after a failure: checked, so the present line is skipped.
    const retried = await commitEntries(
      t.ctx.db,
      batch.map((i) => ({ ...i, fresh: false })),
      "copy",
    );
    expect(retried.filter((r) => r.applied)).toHaveLength(TRICKY.length - 1);
    const final = await orgMoney(t.ctx.db, acc.orgId);
    expect(final.bills.count).toBe(TRICKY.length);
    expect(final.ledgerCash).toBe(final.cash);
  });
});

describe("copyRows on this pass's driver", () => {
  it("stores exactly the values given: any text, the ends of each integer range, NULLs, times around 2000", async () => {
    const columns: CopyColumn[] = [
      { name: "t", type: "text" },
      { name: "i", type: "int4" },
      { name: "b", type: "int8" },
      { name: "ts", type: "timestamptz" },
    ];
    const rows: CopyValue[][] = [
      [
        "tab\tline\nback\\slash \\N cr\r",
        2_147_483_647,
        9_223_372_036_854_775_807n,
        Date.UTC(2026, 10, 27, 8, 30, 1, 999),
      ],
      ["中文 ✓ 😀", -2_147_483_648, -9_223_372_036_854_775_808n, Date.UTC(1999, 11, 31, 23, 59, 59, 1)],
      ["", 0, 0n, 0],
      [null, null, null, null],
      ["x".repeat(100_000), 1, 1n, Date.UTC(1970, 0, 1)],
      // Around the encoder's short-ASCII path: non-ASCII after an ASCII start, DEL, exactly 64 and 65 characters.
      ["moonshot-v1-8k é", 2, 2n, 0],
      ["del \x7f end", 3, 3n, 0],
      ["a".repeat(64), 4, 4n, 0],
      [`${"b".repeat(64)}ü`, 5, 5n, 0],
    ];
    const table = `copy_rows_${Date.now().toString(36)}`;
    await t.ctx.db.execute(sql.raw(`create table ${table} (t text, i integer, b bigint, ts timestamptz)`));
    try {
      await t.ctx.db.transaction((tx) => copyRows(tx, table, CopyEncoder.of(columns, rows)));
      const got = await t.ctx.db.execute(sql.raw(`select t, i, b::text as b, ts from ${table} order by i nulls last`));
      const stored = (
        got as unknown as { rows: { t: string | null; i: number | null; b: string | null; ts: Date | string | null }[] }
      ).rows;
      const expected = [...rows].sort((x, y) => (x[1] === null ? 1 : y[1] === null ? -1 : Number(x[1]) - Number(y[1])));
      expect(
        stored.map((r) => [
          r.t,
          r.i,
          r.b === null ? null : BigInt(r.b),
          r.ts === null ? null : new Date(r.ts).getTime(),
        ]),
      ).toEqual(expected);
      // A failed COPY (a NUL byte, which PostgreSQL text cannot hold) fails its transaction and stores nothing.
      await expect(
        t.ctx.db.transaction((tx) => copyRows(tx, table, CopyEncoder.of(columns, [["a\u0000b", 9, 9n, 0]]))),
      ).rejects.toThrow();
      const count = await t.ctx.db.execute(sql.raw(`select count(*)::int as n from ${table}`));
      expect((count as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe(rows.length);
    } finally {
      await t.ctx.db.execute(sql.raw(`drop table ${table}`));
    }
  });
});
