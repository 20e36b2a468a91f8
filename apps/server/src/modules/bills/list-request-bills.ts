import { EDITION_TIME_ZONE, REQUEST_DETAILS_DAYS, type RequestDetails } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, desc, eq } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { AppError } from "../../lib/app-error.ts";
import { localDate } from "../../lib/edition-time.ts";
import { billLineColumns, keysetPast, localDaysWhere, pad2 } from "./bill-days.ts";

const rb = schema.requestBills;

/** The first local day request details reach: 30 days before today (edition zone). */
function requestDetailsFrom(now: Date, timeZone: string): string {
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
  const rows = await opts.ctx.db
    .select(billLineColumns(tz))
    .from(rb)
    .leftJoin(schema.projects, eq(schema.projects.id, rb.projectId))
    .where(and(localDaysWhere(org.id, opts.from, opts.to, tz), keysetPast(after, "desc")))
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
