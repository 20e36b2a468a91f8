import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { EDITION_TIME_ZONE, type Locale } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, asc, eq, type SQL } from "drizzle-orm";
import ExcelJS from "exceljs";
import type { AppContext } from "../../context.ts";
import { daysInMonth } from "../../lib/edition-time.ts";
import { billLineColumns, keysetPast, localDaysWhere } from "./bill-days.ts";

const rb = schema.requestBills;
const BATCH = 5000;

/** Column headings of the export, in the language of the admin who asked for it. */
const HEADINGS: Record<Locale, string[]> = {
  "en-US": [
    "Request ID",
    "Time (UTC)",
    "Date",
    "Project",
    "Model",
    "Product name",
    "Product type",
    "Input tokens",
    "Output tokens",
    "Cache tokens",
    "Consumption",
    "Recharge deduction",
    "Gift deduction",
  ],
  "zh-CN": [
    "请求 ID",
    "时间（UTC）",
    "日期",
    "项目",
    "模型",
    "产品名称",
    "产品类型",
    "输入 tokens",
    "输出 tokens",
    "缓存 tokens",
    "消费金额",
    "充值扣减",
    "赠送扣减",
  ],
};
const TOTAL: Record<Locale, string> = { "en-US": "Total", "zh-CN": "合计" };

/** Exact decimal with nine places: what the CSV carries, and the XLSX numbers are parsed from. */
function nanosText(n: bigint): string {
  const neg = n < 0n;
  const a = neg ? -n : n;
  return `${neg ? "-" : ""}${a / 1_000_000_000n}.${(a % 1_000_000_000n).toString().padStart(9, "0")}`;
}

const csvCell = (v: string | number) => {
  const s = String(v);
  // Quote, and defuse spreadsheet formulas in text cells (a model or project name starting with = + - @).
  const safe = /^[=+\-@\t\r]/.test(s) && typeof v === "string" && !/^-?\d/.test(s) ? `'${s}` : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** One keyset batch of the month's bill lines, oldest first (the file's row order). */
function readBillLines(db: AppContext["db"], timeZone: string, where: SQL, after: { at: string; id: string } | null) {
  return db
    .select(billLineColumns(timeZone))
    .from(rb)
    .leftJoin(schema.projects, eq(schema.projects.id, rb.projectId))
    .where(and(where, keysetPast(after, "asc")))
    .orderBy(asc(rb.createdAt), asc(rb.id))
    .limit(BATCH);
}
type Row = Awaited<ReturnType<typeof readBillLines>>[number];

/**
 * The `bills.export` job: writes every bill row of the month (local days of the edition's zone) to an XLSX
 * (streamed, one sheet of rows with a total line) or a CSV, reading request_bills in keyset batches, then stores
 * the file and marks the export `success`. Totals are summed in bigint nano-units. A failure is retried by the
 * runner; the last attempt marks the export `failed`.
 */
export async function runBillExport(opts: { ctx: AppContext; exportId: string; lastAttempt: boolean }) {
  const { ctx } = opts;
  const [exp] = await ctx.db.select().from(schema.billExports).where(eq(schema.billExports.id, opts.exportId));
  if (exp?.status !== "pending") return;
  try {
    const [org] = await ctx.db.select().from(schema.organizations).where(eq(schema.organizations.id, exp.orgId));
    if (!org) throw new Error("organization gone");
    const [creator] = await ctx.db
      .select({ locale: schema.alertSettings.locale })
      .from(schema.alertSettings)
      .where(eq(schema.alertSettings.orgId, exp.orgId));
    const locale: Locale = (creator?.locale as Locale | undefined) ?? (org.edition === "cn" ? "zh-CN" : "en-US");
    const tz = EDITION_TIME_ZONE[org.edition];
    const [y, m] = exp.month.split("-").map(Number) as [number, number];
    const where = localDaysWhere(
      org.id,
      `${exp.month}-01`,
      `${exp.month}-${String(daysInMonth(y, m)).padStart(2, "0")}`,
      tz,
    );
    const scratch = await ctx.exportFiles.scratchPath(`${exp.id}.${exp.format}`);
    const totals = { input: 0, output: 0, cached: 0, consumption: 0n, cash: 0n, voucher: 0n, rows: 0 };
    const add = (r: Row) => {
      totals.rows++;
      totals.input += r.inputTokens;
      totals.output += r.outputTokens;
      totals.cached += r.cachedTokens;
      totals.consumption += r.consumption;
      totals.cash += r.cashDeduction;
      totals.voucher += r.voucherDeduction;
    };
    const cells = (r: Row) => [
      r.requestId,
      r.at,
      r.date,
      r.projectName ?? r.projectId,
      r.model,
      r.productName,
      r.productType,
      r.inputTokens,
      r.outputTokens,
      r.cachedTokens,
    ];

    async function* batches() {
      let after: { at: string; id: string } | null = null;
      for (;;) {
        const rows = await readBillLines(ctx.db, tz, where, after);
        if (!rows.length) return;
        yield rows;
        const last = rows.at(-1)!;
        after = { at: last.at, id: last.id };
        if (rows.length < BATCH) return;
      }
    }

    if (exp.format === "xlsx") {
      const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: scratch, useStyles: true });
      const ws = wb.addWorksheet(exp.month);
      ws.columns = HEADINGS[locale].map((header, i) => ({
        header,
        width: i === 0 ? 34 : i < 7 ? 18 : 16,
        style: i >= 10 ? { numFmt: "0.000000000" } : {},
      }));
      for await (const rows of batches()) {
        for (const r of rows) {
          add(r);
          ws.addRow([
            ...cells(r),
            Number(nanosText(r.consumption)),
            Number(nanosText(r.cashDeduction)),
            Number(nanosText(r.voucherDeduction)),
          ]).commit();
        }
      }
      ws.addRow([
        TOTAL[locale],
        "",
        "",
        "",
        "",
        "",
        "",
        totals.input,
        totals.output,
        totals.cached,
        Number(nanosText(totals.consumption)),
        Number(nanosText(totals.cash)),
        Number(nanosText(totals.voucher)),
      ]).commit();
      ws.commit();
      await wb.commit();
    } else {
      const out = createWriteStream(scratch);
      const write = async (line: string) => {
        if (!out.write(line)) await once(out, "drain");
      };
      // A byte-order mark so spreadsheet programs read the UTF-8 (Chinese headings, project names) right.
      await write(`\uFEFF${HEADINGS[locale].map(csvCell).join(",")}\r\n`);
      for await (const rows of batches()) {
        for (const r of rows) {
          add(r);
          await write(
            `${[...cells(r), nanosText(r.consumption), nanosText(r.cashDeduction), nanosText(r.voucherDeduction)].map(csvCell).join(",")}\r\n`,
          );
        }
      }
      await write(
        `${[TOTAL[locale], "", "", "", "", "", "", totals.input, totals.output, totals.cached, nanosText(totals.consumption), nanosText(totals.cash), nanosText(totals.voucher)].map(csvCell).join(",")}\r\n`,
      );
      out.end();
      await once(out, "finish");
    }
    const key = `exports/${org.id}/${exp.id}.${exp.format}`;
    const size = await ctx.exportFiles.put(key, scratch);
    await ctx.db
      .update(schema.billExports)
      .set({
        status: "success",
        storageKey: key,
        sizeBytes: size,
        rowCount: totals.rows,
        totalConsumption: totals.consumption,
        finishedAt: ctx.clock.now(),
      })
      .where(and(eq(schema.billExports.id, exp.id), eq(schema.billExports.status, "pending")));
  } catch (err) {
    if (opts.lastAttempt) {
      await ctx.db
        .update(schema.billExports)
        .set({
          status: "failed",
          error: String((err as Error).message ?? err).slice(0, 500),
          finishedAt: ctx.clock.now(),
        })
        .where(eq(schema.billExports.id, exp.id));
    }
    throw err;
  }
}
