import { z } from "zod";
import { Currency } from "../edition.ts";
import { MonthPeriod, vmsg } from "../validation.ts";
import { Nanos, paged } from "./common.ts";

/** docs/product-spec.md §9: a billing date range covers at most 31 days; request details reach back 30 days. */
export const BILL_RANGE_MAX_DAYS = 31;
export const REQUEST_DETAILS_DAYS = 30;
/** docs/product-spec.md §9: monthly bills are exportable from August 2024, after 07:00 on the 5th of the next month. */
export const EXPORT_FIRST_MONTH = "2024-08";
export const EXPORT_READY_DAY = 5;
export const EXPORT_READY_AT = "07:00";
/** docs/product-spec.md §5: balance alert threshold (whole currency units) and recipients. */
export const ALERT_THRESHOLD_MAX = 1_000_000;
export const ALERT_RECIPIENTS_MAX = 5;

const DATE_RE = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** Whole days from a to b ("YYYY-MM-DD"), b − a. */
export function daysBetween(a: string, b: string): number {
  const t = (d: string) => Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10)));
  return Math.round((t(b) - t(a)) / 86_400_000);
}

function isDate(v: string): boolean {
  const m = DATE_RE.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCDate() === Number(m[3]) && Number(m[1]) >= 1970 && Number(m[1]) <= 9998;
}

export const LocalDay = z.string({ error: vmsg("required") }).refine(isDate, vmsg("date_format"));

/** A local-date range in the edition's zone, both ends included, at most 31 days. */
function checkRange(q: { from: string; to: string }, c: z.RefinementCtx) {
  if (!isDate(q.from) || !isDate(q.to)) return;
  const span = daysBetween(q.from, q.to);
  if (span < 0) c.addIssue({ code: "custom", path: ["to"], message: vmsg("date_order") });
  else if (span + 1 > BILL_RANGE_MAX_DAYS)
    c.addIssue({ code: "custom", path: ["to"], message: vmsg("date_range_max", { max: BILL_RANGE_MAX_DAYS }) });
}

const Range = z.object({ from: LocalDay, to: LocalDay });
export const BillRangeQuery = Range.superRefine(checkRange);
export type BillRangeQuery = z.infer<typeof BillRangeQuery>;

const Sums = {
  requests: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  cachedTokens: z.number().int(),
  consumption: Nanos,
  cashDeduction: Nanos,
  voucherDeduction: Nanos,
};

/** Daily Bill: one row per local day and product; `final` once the day was closed at 07:00 the next day. */
export const DailyBillRow = z.object({
  date: z.string(),
  productName: z.string(),
  productType: z.string(),
  ...Sums,
  final: z.boolean(),
});
export type DailyBillRow = z.infer<typeof DailyBillRow>;

export const BillTotals = z.object(Sums);
export type BillTotals = z.infer<typeof BillTotals>;

export const DailyBills = z.object({
  currency: Currency,
  timeZone: z.string(),
  from: z.string(),
  to: z.string(),
  items: z.array(DailyBillRow),
  totals: BillTotals,
});
export type DailyBills = z.infer<typeof DailyBills>;

/** Product Bill: one row per product and model over the range. */
export const ProductBillRow = z.object({
  productName: z.string(),
  productType: z.string(),
  model: z.string(),
  ...Sums,
});
export type ProductBillRow = z.infer<typeof ProductBillRow>;

export const ProductBills = z.object({
  currency: Currency,
  timeZone: z.string(),
  from: z.string(),
  to: z.string(),
  items: z.array(ProductBillRow),
  totals: BillTotals,
});
export type ProductBills = z.infer<typeof ProductBills>;

export const RequestDetailsQuery = Range.extend({
  /** opaque keyset cursor from the previous page */
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
}).superRefine(checkRange);
export type RequestDetailsQuery = z.input<typeof RequestDetailsQuery>;

export const RequestBillRow = z.object({
  id: z.string(),
  requestId: z.string(),
  model: z.string(),
  productName: z.string(),
  productType: z.string(),
  projectId: z.string(),
  projectName: z.string(),
  time: z.string(),
  /** local date in the edition's zone */
  date: z.string(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  cachedTokens: z.number().int(),
  consumption: Nanos,
  cashDeduction: Nanos,
  voucherDeduction: Nanos,
});
export type RequestBillRow = z.infer<typeof RequestBillRow>;

export const RequestDetails = z.object({
  currency: Currency,
  timeZone: z.string(),
  items: z.array(RequestBillRow),
  /** null on the last page */
  nextCursor: z.string().nullable(),
});
export type RequestDetails = z.infer<typeof RequestDetails>;

// ─── exports ───

export const ExportFormat = z.enum(["xlsx", "csv"]);
export type ExportFormat = z.infer<typeof ExportFormat>;

export const CreateBillExportRequest = z.object({
  month: z.string({ error: vmsg("required") }).pipe(MonthPeriod),
  format: ExportFormat.default("xlsx"),
});
export type CreateBillExportRequest = z.input<typeof CreateBillExportRequest>;

export const BillExport = z.object({
  id: z.string(),
  month: z.string(),
  format: ExportFormat,
  fileName: z.string(),
  status: z.enum(["pending", "success", "failed"]),
  createdTime: z.string(),
  finishedAt: z.string().nullable(),
  sizeBytes: z.number().int().nullable(),
  rowCount: z.number().int().nullable(),
});
export type BillExport = z.infer<typeof BillExport>;

export const BillExportList = paged(BillExport).extend({
  /** the latest month exportable now ("YYYY-MM") and the first one */
  latestExportable: z.string(),
  firstExportable: z.string(),
});
export type BillExportList = z.infer<typeof BillExportList>;

export const ExportIdParams = z.object({ orgId: z.string().min(1).max(64), exportId: z.string().min(1).max(64) });

// ─── alerts ───

export const AlertEmail = z
  .string({ error: vmsg("required") })
  .trim()
  .min(1, vmsg("required"))
  .max(254, vmsg("too_long", { max: 254 }))
  .pipe(z.email({ error: vmsg("email") }));

export const UpdateAlertSettingsRequest = z
  .object({
    balanceEnabled: z.boolean({ error: vmsg("invalid_type") }),
    balanceThreshold: z
      .number({ error: vmsg("integer") })
      .int(vmsg("integer"))
      .min(0, vmsg("amount_range", { max: ALERT_THRESHOLD_MAX }))
      .max(ALERT_THRESHOLD_MAX, vmsg("amount_range", { max: ALERT_THRESHOLD_MAX })),
    recipients: z
      .array(AlertEmail, { error: vmsg("invalid_type") })
      .min(1, vmsg("recipients_count", { max: ALERT_RECIPIENTS_MAX }))
      .max(ALERT_RECIPIENTS_MAX, vmsg("recipients_count", { max: ALERT_RECIPIENTS_MAX })),
  })
  .superRefine((v, c) => {
    const seen = new Set<string>();
    v.recipients.forEach((r, i) => {
      const k = r.trim().toLowerCase();
      if (seen.has(k)) c.addIssue({ code: "custom", path: ["recipients", i], message: vmsg("recipients_duplicate") });
      seen.add(k);
    });
  });
export type UpdateAlertSettingsRequest = z.input<typeof UpdateAlertSettingsRequest>;

export const AlertSettings = z.object({
  currency: Currency,
  balanceEnabled: z.boolean(),
  balanceThreshold: z.number().int(),
  recipients: z.array(z.string()),
  /** true while an e-mail would be sent on the next fall below the threshold */
  armed: z.boolean(),
  lastSentAt: z.string().nullable(),
  available: Nanos,
});
export type AlertSettings = z.infer<typeof AlertSettings>;

// ─── development mail outbox ───

export const DevMail = z.object({
  to: z.array(z.string()),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  createdAt: z.string(),
});
export type DevMail = z.infer<typeof DevMail>;
