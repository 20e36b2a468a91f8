import {
  type BillExport,
  type BillExportList,
  EDITION_TIME_ZONE,
  EXPORT_FIRST_MONTH,
  EXPORT_READY_AT,
  EXPORT_READY_DAY,
  type ExportFormat,
} from "@moonport/contracts";
import { newId, schema } from "@moonport/db";
import { and, count, desc, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { localDate, zonedInstant } from "../../lib/edition-time.ts";
import { withTransaction } from "../../lib/transaction.ts";
import { pad2 } from "./bill-days.ts";

export const EXPORT_JOB = "bills.export";
/** Exports waiting or running per organization; more would only queue work nobody is waiting for. */
const MAX_PENDING_EXPORTS = 5;

const nextMonth = (month: string) => {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return m === 12 ? { year: y + 1, month: 1 } : { year: y, month: m + 1 };
};

/** When a month's bill becomes exportable: 07:00 on the 5th of the next month in the edition's zone. */
export function exportableAt(month: string, timeZone: string): number {
  const [hour, minute] = EXPORT_READY_AT.split(":").map(Number) as [number, number];
  return zonedInstant({ ...nextMonth(month), day: EXPORT_READY_DAY, hour, minute, second: 0 }, timeZone);
}

/** The newest month exportable at `now`. */
export function latestExportableMonth(now: Date, timeZone: string): string {
  const today = localDate(now, timeZone);
  let y = today.year;
  let m = today.month - 1;
  if (m === 0) {
    y--;
    m = 12;
  }
  let month = `${y}-${pad2(m)}`;
  if (now.getTime() < exportableAt(month, timeZone)) {
    m--;
    if (m === 0) {
      y--;
      m = 12;
    }
    month = `${y}-${pad2(m)}`;
  }
  return month;
}

function toWire(r: typeof schema.billExports.$inferSelect): BillExport {
  return {
    id: r.id,
    month: r.month,
    format: r.format,
    fileName: r.fileName,
    status: r.status,
    createdTime: r.createdAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
    sizeBytes: r.sizeBytes,
    rowCount: r.rowCount,
  };
}

/** Queues the export of one month's bills; the `bills.export` job produces the file. */
export async function createBillExport(opts: {
  ctx: AppContext;
  access: OrgAccess;
  month: string;
  format: ExportFormat;
}): Promise<BillExport> {
  const { ctx, access } = opts;
  const tz = EDITION_TIME_ZONE[access.org.edition];
  if (opts.month < EXPORT_FIRST_MONTH) {
    throw new AppError("export_too_early", {
      params: { month: EXPORT_FIRST_MONTH },
      details: [{ path: "month", message: "export_too_early" }],
    });
  }
  const readyAt = exportableAt(opts.month, tz);
  if (ctx.clock.now().getTime() < readyAt) {
    const n = nextMonth(opts.month);
    throw new AppError("export_not_ready", {
      params: { month: opts.month, date: `${n.year}-${pad2(n.month)}-${pad2(EXPORT_READY_DAY)}`, timeZone: tz },
      details: [{ path: "month", message: "export_not_ready" }],
    });
  }
  return withTransaction({ db: ctx.db, log: ctx.log }, async (tx) => {
    const [pending] = await tx
      .select({ n: count() })
      .from(schema.billExports)
      .where(and(eq(schema.billExports.orgId, access.org.id), eq(schema.billExports.status, "pending")));
    if ((pending?.n ?? 0) >= MAX_PENDING_EXPORTS) {
      throw new AppError("limit_reached", { params: { reason: `${MAX_PENDING_EXPORTS} exports in progress` } });
    }
    const id = newId("exp");
    const [row] = await tx
      .insert(schema.billExports)
      .values({
        id,
        orgId: access.org.id,
        month: opts.month,
        format: opts.format,
        fileName: `bill-${opts.month}-${id.slice(-6)}.${opts.format}`,
        createdBy: access.userId,
        createdAt: ctx.clock.now(),
      })
      .returning();
    await ctx.jobs.enqueue({ name: EXPORT_JOB, payload: { exportId: id }, maxAttempts: 5 }, { tx });
    return toWire(row!);
  });
}

export async function listBillExports(opts: {
  ctx: AppContext;
  access: OrgAccess;
  page: number;
  pageSize: number;
}): Promise<BillExportList> {
  const { db } = opts.ctx;
  const where = eq(schema.billExports.orgId, opts.access.org.id);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(schema.billExports)
      .where(where)
      .orderBy(desc(schema.billExports.createdAt), desc(schema.billExports.id))
      .limit(opts.pageSize)
      .offset((opts.page - 1) * opts.pageSize),
    db.select({ n: count() }).from(schema.billExports).where(where),
  ]);
  const tz = EDITION_TIME_ZONE[opts.access.org.edition];
  return {
    items: rows.map(toWire),
    total: total?.n ?? 0,
    page: opts.page,
    pageSize: opts.pageSize,
    latestExportable: latestExportableMonth(opts.ctx.clock.now(), tz),
    firstExportable: EXPORT_FIRST_MONTH,
  };
}

/** The stored file of a successful export of the caller's organization. */
export async function openBillExport(opts: { ctx: AppContext; access: OrgAccess; exportId: string }) {
  const [row] = await opts.ctx.db
    .select()
    .from(schema.billExports)
    .where(and(eq(schema.billExports.id, opts.exportId), eq(schema.billExports.orgId, opts.access.org.id)));
  if (!row) throw new AppError("not_found");
  if (row.status !== "success" || !row.storageKey) {
    throw new AppError("export_unavailable", { params: { status: row.status } });
  }
  try {
    return { fileName: row.fileName, format: row.format, stream: await opts.ctx.exportFiles.open(row.storageKey) };
  } catch {
    throw new AppError("export_unavailable", { params: { status: "missing" } });
  }
}
