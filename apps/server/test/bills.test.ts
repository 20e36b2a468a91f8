/**
 * Billing details (Daily Bill, Product Bill, Request Details), the daily-bill finalization job and monthly bill
 * exports (XLSX and CSV, summed back to the nano-unit), against the real app and database.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { schema } from "@moonport/db";
import { eq, sql } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportableAt, latestExportableMonth } from "../src/modules/bills/exports.ts";
import { finalizeBillDays, lastFinalDay } from "../src/modules/bills/finalize-bill-days.ts";
import { createApiKey } from "../src/modules/keys/create-api-key.ts";
import { insertBill, signUp, type TestUser } from "./console-helpers.ts";
import { createTestApp, type TestApp } from "./helpers.ts";

/** A clock the test sets to exact instants. */
function settableClock(iso: string) {
  let now = new Date(iso).getTime();
  return {
    now: () => new Date(now),
    set: (s: string) => {
      now = new Date(s).getTime();
    },
  };
}

// Shanghai (cn edition) local times as UTC instants.
const SH = (local: string) => new Date(`${local}+08:00`).toISOString();

const clock = settableClock(SH("2027-03-10T12:00:00"));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "moonport-bills-"));
let t: TestApp;
let admin: TestUser;
let keyId: string;

async function bill(
  at: string,
  consumption: bigint,
  model = "moonshot-v1-8k",
  extra: Partial<{ productType: string }> = {},
) {
  await insertBill(t, {
    orgId: admin.orgId,
    projectId: admin.defaultProjectId,
    apiKeyId: keyId,
    model,
    consumption,
    createdAt: new Date(SH(at)),
    ...extra,
  });
}

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: dataDir, SESSION_TTL_HOURS: "2160" }, { clock });
  admin = await signUp(t);
  keyId = (
    await createApiKey({
      db: t.ctx.db,
      orgId: admin.orgId,
      projectId: admin.defaultProjectId,
      name: "k",
      createdBy: admin.userId,
    })
  ).id;
  await bill("2027-03-08T09:00:00", 1_000_000_001n);
  await bill("2027-03-08T23:59:59", 2n);
  await bill("2027-03-09T00:00:00", 300_000_000n, "kimi-k2");
  await bill("2027-03-09T10:00:00", 7n, "moonshot-v1-8k", { productType: "$web_search" });
  await bill("2027-03-10T08:00:00", 123_456_789n);
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const O = () => `/api/orgs/${admin.orgId}`;

describe("Daily Bill and Product Bill", () => {
  it("sums per local day and product, live and provisional before the 07:00 job", async () => {
    const res = await admin.client.get(`${O()}/bills/daily?from=2027-03-08&to=2027-03-10`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.currency).toBe("CNY");
    expect(res.body.timeZone).toBe("Asia/Shanghai");
    const byDay = (d: string) => res.body.items.filter((r: { date: string }) => r.date === d);
    expect(byDay("2027-03-08")).toHaveLength(1);
    expect(byDay("2027-03-08")[0].consumption).toBe("1000000003");
    expect(byDay("2027-03-09")).toHaveLength(2); // kimi-k2 inference and a web-search line
    expect(res.body.items[0].date).toBe("2027-03-10");
    expect(res.body.items.every((r: { final: boolean }) => !r.final)).toBe(true);
    expect(res.body.totals.consumption).toBe((1_000_000_003n + 300_000_007n + 123_456_789n).toString());
  });

  it("finalizes closed days into daily_bills at 07:00 of the next day, and stays real-time after", async () => {
    expect(lastFinalDay(new Date(SH("2027-03-10T06:59:59")), "Asia/Shanghai")).toBe("2027-03-08");
    expect(lastFinalDay(new Date(SH("2027-03-10T07:00:00")), "Asia/Shanghai")).toBe("2027-03-09");
    const before = await admin.client.get(`${O()}/bills/products?from=2027-03-08&to=2027-03-10`);

    // The periodic job: the first 07:00 after now (03-11 07:00 Shanghai) closes through 03-10.
    await t.ctx.jobs.runDue();
    clock.set(SH("2027-03-11T07:00:00"));
    await t.ctx.jobs.runDue();
    const [state] = await t.ctx.db.select().from(schema.billStates).where(eq(schema.billStates.orgId, admin.orgId));
    expect(state?.closedThrough).toBe("2027-03-10");
    const agg = await t.ctx.db.select().from(schema.dailyBills).where(eq(schema.dailyBills.orgId, admin.orgId));
    expect(agg.reduce((s, r) => s + r.consumption, 0n)).toBe(1_000_000_003n + 300_000_007n + 123_456_789n);

    // A bill of today (03-11) shows at once, provisional; the closed days are final.
    await bill("2027-03-11T07:30:00", 5n);
    const daily = await admin.client.get(`${O()}/bills/daily?from=2027-03-08&to=2027-03-11`);
    const final = Object.fromEntries(daily.body.items.map((r: { date: string; final: boolean }) => [r.date, r.final]));
    expect(final).toEqual({ "2027-03-08": true, "2027-03-09": true, "2027-03-10": true, "2027-03-11": false });
    expect(daily.body.totals.consumption).toBe((1_000_000_003n + 300_000_007n + 123_456_789n + 5n).toString());

    // Aggregates read exactly what the live sums read.
    const after = await admin.client.get(`${O()}/bills/products?from=2027-03-08&to=2027-03-10`);
    expect(after.body).toEqual(before.body);
    expect(after.body.items[0]).toMatchObject({ model: "moonshot-v1-8k", productType: "model_inference" });

    // Re-running the close writes the same rows (idempotent).
    await t.ctx.db
      .update(schema.billStates)
      .set({ closedThrough: "2027-03-07" })
      .where(eq(schema.billStates.orgId, admin.orgId));
    expect(await finalizeBillDays({ ctx: t.ctx, edition: "cn", now: clock.now() })).toBe(3);
    const again = await t.ctx.db.select().from(schema.dailyBills).where(eq(schema.dailyBills.orgId, admin.orgId));
    expect(again.length).toBe(agg.length);
  });

  it("refuses ranges over 31 days, reversed and malformed dates, in the caller's language", async () => {
    const cases: [string, string, string][] = [
      ["from=2027-01-01&to=2027-02-01", "The date range can be at most 31 days.", "日期范围最多 31 天。"],
      ["from=2027-03-10&to=2027-03-09", "The end date cannot be before the start date.", "结束日期不能早于开始日期。"],
      ["from=2027-02-30&to=2027-03-01", "Enter a date as YYYY-MM-DD.", "请按 YYYY-MM-DD 格式输入日期。"],
      ["to=2027-03-01", "This field is required.", "此项为必填项。"],
    ];
    for (const [q, en, zh] of cases) {
      for (const tab of ["daily", "products", "requests"]) {
        admin.client.locale = "en-US";
        const a = await admin.client.get(`${O()}/bills/${tab}?${q}`);
        expect(a.status).toBe(400);
        expect(a.body.error.code).toBe("validation_failed");
        expect(a.body.error.details.map((d: { message: string }) => d.message)).toContain(en);
        admin.client.locale = "zh-CN";
        const z = await admin.client.get(`${O()}/bills/${tab}?${q}`);
        expect(z.body.error.details.map((d: { message: string }) => d.message)).toContain(zh);
      }
    }
    admin.client.locale = "en-US";
    // 31 days exactly is fine.
    expect((await admin.client.get(`${O()}/bills/daily?from=2027-02-09&to=2027-03-11`)).status).toBe(200);
  });
});

describe("Request Details", () => {
  it("pages newest first by keyset, without gaps or repeats among equal timestamps", async () => {
    for (let i = 0; i < 7; i++) await bill("2027-03-11T08:00:00", BigInt(i + 1), "kimi-k2");
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await admin.client.get(
        `${O()}/bills/requests?from=2027-03-10&to=2027-03-11&limit=3${cursor ? `&cursor=${cursor}` : ""}`,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      seen.push(...res.body.items.map((r: { id: string }) => r.id));
      cursor = res.body.nextCursor;
      pages++;
    } while (cursor);
    expect(seen).toHaveLength(9); // 03-10: 1, 03-11: 1 + 7
    expect(new Set(seen).size).toBe(9);
    expect(pages).toBe(3);
    const first = await admin.client.get(`${O()}/bills/requests?from=2027-03-10&to=2027-03-11&limit=1`);
    expect(first.body.items[0]).toMatchObject({ date: "2027-03-11", model: "kimi-k2", projectName: "default" });
    expect(Object.keys(first.body.items[0])).toEqual(
      expect.arrayContaining([
        "requestId",
        "inputTokens",
        "outputTokens",
        "cachedTokens",
        "cashDeduction",
        "voucherDeduction",
        "productName",
        "productType",
        "time",
      ]),
    );
  });

  it("reaches back 30 days only, and refuses a forged cursor", async () => {
    admin.client.locale = "zh-CN";
    const old = await admin.client.get(`${O()}/bills/requests?from=2027-02-08&to=2027-02-20`);
    expect(old.status).toBe(400);
    expect(old.body.error).toMatchObject({ code: "bills_too_old" });
    expect(old.body.error.message).toBe("请求明细仅可查询最近 30 天（2027-02-09 起）。");
    admin.client.locale = "en-US";
    expect((await admin.client.get(`${O()}/bills/requests?from=2027-02-09&to=2027-02-20`)).status).toBe(200);
    const bad = await admin.client.get(`${O()}/bills/requests?from=2027-03-10&to=2027-03-11&cursor=bm9wZQ`);
    expect(bad.status).toBe(400);
  });

  it("is the organization admins': members get 403, other organizations 404", async () => {
    const other = await signUp(t);
    expect((await other.client.get(`${O()}/bills/daily?from=2027-03-10&to=2027-03-11`)).status).toBe(404);
  });
});

describe("exports", () => {
  it("a month is exportable after 07:00 on the 5th of the next month (edition zone)", async () => {
    expect(new Date(exportableAt("2027-02", "Asia/Shanghai")).toISOString()).toBe(SH("2027-03-05T07:00:00"));
    expect(latestExportableMonth(new Date(SH("2027-03-05T06:59:59")), "Asia/Shanghai")).toBe("2027-01");
    expect(latestExportableMonth(new Date(SH("2027-03-05T07:00:00")), "Asia/Shanghai")).toBe("2027-02");
    expect(latestExportableMonth(new Date(SH("2027-01-02T00:00:00")), "Asia/Shanghai")).toBe("2026-11");

    const count = async () => (await t.ctx.db.select().from(schema.billExports)).length;
    const n0 = await count();
    admin.client.locale = "zh-CN";
    const early = await admin.client.post(`${O()}/bill-exports`, { month: "2027-03", format: "xlsx" });
    expect(early.status).toBe(409);
    expect(early.body.error.message).toBe("2027-03 的账单可在 2027-04-05 07:00（Asia/Shanghai）之后导出。");
    admin.client.locale = "en-US";
    const before = await admin.client.post(`${O()}/bill-exports`, { month: "2024-07", format: "csv" });
    expect(before.body.error).toMatchObject({
      code: "export_too_early",
      message: "Bills can be exported from 2024-08 onward.",
    });
    const bad = await admin.client.post(`${O()}/bill-exports`, { month: "2027-13", format: "pdf" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual(["format", "month"]);
    expect(await count()).toBe(n0);
  });

  it("exports a month as XLSX and CSV whose sums equal the bill rows to the nano-unit", async () => {
    clock.set(SH("2027-04-05T07:00:00"));
    const rows = await t.ctx.db
      .select()
      .from(schema.requestBills)
      .where(
        sql`${schema.requestBills.orgId} = ${admin.orgId} and ${schema.requestBills.createdAt} >= ${SH("2027-03-01T00:00:00")}::timestamptz and ${schema.requestBills.createdAt} < ${SH("2027-04-01T00:00:00")}::timestamptz`,
      );
    const want = rows.reduce((s, r) => s + r.consumption, 0n);
    const wantCash = rows.reduce((s, r) => s + r.cashDeduction, 0n);

    const x = await admin.client.post(`${O()}/bill-exports`, { month: "2027-03", format: "xlsx" });
    expect(x.status, JSON.stringify(x.body)).toBe(201);
    expect(x.body.status).toBe("pending");
    const c = await admin.client.post(`${O()}/bill-exports`, { month: "2027-03", format: "csv" });
    const notYet = await admin.client.get(`${O()}/bill-exports/${x.body.id}/download`);
    expect(notYet.status).toBe(409);
    expect(notYet.body.error.code).toBe("export_unavailable");

    await t.ctx.jobs.runDue();
    const list = await admin.client.get(`${O()}/bill-exports`);
    expect(list.body.latestExportable).toBe("2027-03");
    const byId = Object.fromEntries(list.body.items.map((e: { id: string }) => [e.id, e]));
    expect(byId[x.body.id]).toMatchObject({ status: "success", rowCount: rows.length, fileName: x.body.fileName });
    expect(byId[c.body.id]).toMatchObject({ status: "success", rowCount: rows.length });

    const dl = await admin.client.get(`${O()}/bill-exports/${x.body.id}/download`);
    expect(dl.status).toBe(200);
    expect(dl.headers["content-disposition"]).toContain(x.body.fileName);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(dl.raw.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    const toNanos = (v: unknown) => BigInt(Math.round(Number(v) * 1e9));
    let sum = 0n;
    let cash = 0n;
    let total = 0n;
    ws.eachRow((row, i) => {
      if (i === 1) return;
      if (row.getCell(1).value === "Total" || row.getCell(1).value === "合计") total = toNanos(row.getCell(11).value);
      else {
        sum += toNanos(row.getCell(11).value);
        cash += toNanos(row.getCell(12).value);
      }
    });
    expect(sum).toBe(want);
    expect(cash).toBe(wantCash);
    expect(total).toBe(want);
    expect(ws.rowCount).toBe(rows.length + 2);

    const csv = await admin.client.get(`${O()}/bill-exports/${c.body.id}/download`);
    expect(csv.headers["content-type"]).toContain("text/csv");
    const lines = csv.raw.payload
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    const parse = (s: string) => {
      const [w, f = ""] = s.split(".");
      return BigInt(w!) * 1_000_000_000n + BigInt(f.padEnd(9, "0"));
    };
    const body = lines.slice(1, -1).map((l) => l.split(","));
    expect(body).toHaveLength(rows.length);
    expect(body.reduce((s, cols) => s + parse(cols[10]!), 0n)).toBe(want);
    expect(parse(lines.at(-1)!.split(",")[10]!)).toBe(want);
  });

  it("another organization cannot download it; a failing export ends failed after its attempts", async () => {
    const other = await signUp(t);
    const [exp] = await t.ctx.db
      .select()
      .from(schema.billExports)
      .where(eq(schema.billExports.orgId, admin.orgId))
      .limit(1);
    const res = await other.client.get(`/api/orgs/${other.orgId}/bill-exports/${exp!.id}/download`);
    expect(res.status).toBe(404);

    // The organization's storage is unwritable: each attempt fails, the runner backs off, the last marks it failed.
    const created = await admin.client.post(`${O()}/bill-exports`, { month: "2027-02", format: "csv" });
    const orig = t.ctx.exportFiles.put;
    t.ctx.exportFiles.put = async () => {
      throw new Error("disk full");
    };
    try {
      for (let i = 0; i < 5; i++) {
        await t.ctx.jobs.runDue();
        const [job] = await t.ctx.db
          .select()
          .from(schema.jobs)
          .where(sql`${schema.jobs.payload}->>'exportId' = ${created.body.id}`);
        expect(job?.attempts).toBe(i + 1);
        if (i < 4) {
          expect(job?.status).toBe("pending");
          expect(job!.runAt.getTime() - clock.now().getTime()).toBe(1000 * 2 ** i);
          clock.set(job!.runAt.toISOString());
        } else expect(job?.status).toBe("failed");
      }
    } finally {
      t.ctx.exportFiles.put = orig;
    }
    const list = await admin.client.get(`${O()}/bill-exports`);
    expect(list.body.items.find((e: { id: string }) => e.id === created.body.id).status).toBe("failed");
  });
});
