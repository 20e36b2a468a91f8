/**
 * project_spend_days, what budgets read (modules/billing/project-spend.ts): the bill writer adds each batch's
 * amounts per project and local day of the organization's edition, in the batch's transaction, so the table always
 * equals request_bills summed the same way: across local midnight, across editions, and through replays and
 * checked retries that must add nothing twice.
 */
import { newTimeOrderedId, schema } from "@moonport/db";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BillRowWrite, commitEntries, type QueuedEntry } from "../src/metering/bill-writer.ts";
import type { JournalEntry } from "../src/metering/journal.ts";
import { seedAccount } from "./gateway-fixtures.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Account = Awaited<ReturnType<typeof seedAccount>>;

function entry(a: Account, createdAt: number, consumption: number): JournalEntry {
  return {
    requestId: `req-${createdAt}`,
    orgId: a.orgId,
    projectId: a.projectId,
    apiKeyId: a.keyId,
    status: "ok",
    latencyMs: 5,
    createdAt,
    lines: [
      {
        id: newTimeOrderedId("bill"),
        model: "moonshot-v1-8k",
        productName: "moonshot-v1-8k",
        productType: "model_inference",
        inputTokens: 10,
        outputTokens: 10,
        cachedTokens: 0,
        toolCalls: 0,
        consumption: String(consumption),
      },
    ],
  };
}

async function spendDays(projectId: string) {
  const rows = await t.ctx.db
    .select({ day: schema.projectSpendDays.day, consumption: schema.projectSpendDays.consumption })
    .from(schema.projectSpendDays)
    .where(eq(schema.projectSpendDays.projectId, projectId))
    .orderBy(schema.projectSpendDays.day);
  return Object.fromEntries(rows.map((r) => [r.day, r.consumption]));
}

/** request_bills summed per local day of the edition's zone, as the console's usage screens sum them. */
async function billDays(projectId: string, timeZone: string) {
  const r = await t.ctx.db.execute(
    sql`select to_char(created_at at time zone ${timeZone}, 'YYYY-MM-DD') as day, sum(consumption)::text as sum
      from request_bills where project_id = ${projectId} group by 1 order by 1`,
  );
  const rows = (r as unknown as { rows: { day: string; sum: string }[] }).rows;
  return Object.fromEntries(rows.map((x) => [x.day, BigInt(x.sum)]));
}

const MODES: BillRowWrite[] = ["insert", "copy"];

describe("project spend per local day", () => {
  for (const how of MODES) {
    it(`adds each batch's amounts to the project's local days, once (${how})`, async () => {
      const cn = await seedAccount(t.ctx, { cash: "100", edition: "cn" });
      const global = await seedAccount(t.ctx, { cash: "100", edition: "global" });
      // 15:59 and 16:01 UTC: two local days in Asia/Shanghai (UTC+8), one in UTC.
      const before = Date.UTC(2026, 10, 27, 15, 59);
      const after = Date.UTC(2026, 10, 27, 16, 1);
      const batch = [
        entry(cn, before, 1_000),
        entry(cn, after, 2_000),
        entry(cn, after + 1, 3_000),
        entry(global, before, 4_000),
        entry(global, after, 5_000),
      ];
      const fresh: QueuedEntry[] = batch.map((e) => ({ entry: e, local: false, fresh: true }));
      await commitEntries(t.ctx.db, fresh, how);
      expect(await spendDays(cn.projectId)).toEqual({ "2026-11-27": 1_000n, "2026-11-28": 5_000n });
      expect(await spendDays(global.projectId)).toEqual({ "2026-11-27": 9_000n });

      // A replay of the same entries with one new one: only the new one adds.
      const replay = [...batch, entry(cn, after + 2, 7_000)].map((e) => ({ entry: e, local: false }));
      const result = await commitEntries(t.ctx.db, replay, how);
      expect(result.filter((r) => r.applied)).toHaveLength(1);
      expect(await spendDays(cn.projectId)).toEqual({ "2026-11-27": 1_000n, "2026-11-28": 12_000n });
      expect(await spendDays(cn.projectId)).toEqual(await billDays(cn.projectId, "Asia/Shanghai"));
      expect(await spendDays(global.projectId)).toEqual(await billDays(global.projectId, "UTC"));

      // A batch that fails (a "fresh" line that is already there) adds nothing; its checked retry adds the rest.
      const more = entry(cn, after + 3, 11_000);
      const failing = [batch[0]!, more].map((e) => ({ entry: e, local: false, fresh: true }));
      await expect(commitEntries(t.ctx.db, failing, how)).rejects.toThrow();
      expect(await spendDays(cn.projectId)).toEqual({ "2026-11-27": 1_000n, "2026-11-28": 12_000n });
      await commitEntries(
        t.ctx.db,
        failing.map((i) => ({ ...i, fresh: false })),
        how,
      );
      expect(await spendDays(cn.projectId)).toEqual({ "2026-11-27": 1_000n, "2026-11-28": 23_000n });
      expect(await spendDays(cn.projectId)).toEqual(await billDays(cn.projectId, "Asia/Shanghai"));
    });
  }
});
