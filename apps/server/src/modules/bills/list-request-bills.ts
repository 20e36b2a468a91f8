import { EDITION_TIME_ZONE, REQUEST_DETAILS_DAYS, type RequestDetails } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, desc, eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { localDate } from "../../lib/edition-time.ts";
import type { OrgAccess } from "../orgs/access.ts";
import { localDaysWhere, pad2, zoneSql } from "./bill-days.ts";

const rb = schema.requestBills;

/** The first local day request details reach: 30 days before today (edition zone). */
export function requestDetailsFrom(now: Date, timeZone: string): string {
  const today = localDate(now, timeZone);
  const d = new Date(Date.UTC(today.year, today.month - 1, today.day - REQUEST_DETAILS_DAYS));
  return `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;
}

// Keyset cursor: the last row's created_at (microseconds, UTC text from SQL, so no precision is lost in JS) and id.
function encodeCursor(at: string, id: string) {
  return Buffer.from(`${at}|${id}`).toString("base64url");
}
function decodeCursor(cursor: string): { at: string; id: string } {
  const [at, id] = Buffer.from(cursor, "base64url").toString().split("|");
  if (!at || !id || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$/.test(at)) {
    throw new AppError("bad_request", { params: { reason: "cursor" } });
  }
  return { at, id };
}

/**
 * Request Details: the organization's bill rows of local days [from, to], newest first, by keyset pagination on
 * (created_at, id) over the (org_id, created_at, id) index of request_bills — page 1,000 costs what page 1 costs.
 */
export async function listRequestBills(
  opts: { ctx: AppContext; access: OrgAccess } & { from: string; to: string; cursor?: string; limit: number },
): Promise<RequestDetails> {
  const { org } = opts.access;
  const tz = EDITION_TIME_ZONE[org.edition];
  const earliest = requestDetailsFrom(opts.ctx.clock.now(), tz);
  if (opts.from < earliest) {
    throw new AppError("bills_too_old", {
      params: { days: REQUEST_DETAILS_DAYS, from: earliest },
      details: [{ path: "from", message: "bills_too_old" }],
    });
  }
  const after = opts.cursor ? decodeCursor(opts.cursor) : null;
  const atText = sql<string>`to_char(${rb.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US')`;
  const rows = await opts.ctx.db
    .select({
      id: rb.id,
      requestId: rb.requestId,
      model: rb.model,
      productName: rb.productName,
      productType: rb.productType,
      projectId: rb.projectId,
      projectName: schema.projects.name,
      createdAt: rb.createdAt,
      at: atText,
      date: sql<string>`to_char(${rb.createdAt} at time zone ${zoneSql(tz)}, 'YYYY-MM-DD')`,
      inputTokens: rb.inputTokens,
      outputTokens: rb.outputTokens,
      cachedTokens: rb.cachedTokens,
      consumption: rb.consumption,
      cashDeduction: rb.cashDeduction,
      voucherDeduction: rb.voucherDeduction,
    })
    .from(rb)
    .leftJoin(schema.projects, eq(schema.projects.id, rb.projectId))
    .where(
      and(
        localDaysWhere(org.id, opts.from, opts.to, tz),
        after
          ? sql`(${rb.createdAt}, ${rb.id}) < ((${after.at}::timestamp at time zone 'UTC'), ${after.id})`
          : undefined,
      ),
    )
    .orderBy(desc(rb.createdAt), desc(rb.id))
    .limit(opts.limit + 1);
  const page = rows.slice(0, opts.limit);
  const last = page.at(-1);
  return {
    currency: org.currency,
    timeZone: tz,
    items: page.map((r) => ({
      id: r.id,
      requestId: r.requestId,
      model: r.model,
      productName: r.productName,
      productType: r.productType,
      projectId: r.projectId,
      projectName: r.projectName ?? r.projectId,
      time: r.createdAt.toISOString(),
      date: r.date,
      inputTokens: r.inputTokens,
      outputTokens: r.outputTokens,
      cachedTokens: r.cachedTokens,
      consumption: r.consumption.toString(),
      cashDeduction: r.cashDeduction.toString(),
      voucherDeduction: r.voucherDeduction.toString(),
    })),
    nextCursor: rows.length > opts.limit && last ? encodeCursor(last.at, last.id) : null,
  };
}
