import { type BillRangeQuery, type DailyBills, EDITION_TIME_ZONE, type ProductBills } from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { addSums, dayGroups, emptySums, groupSums, wireSums } from "./bill-days.ts";

/**
 * Daily Bill: one row per local day and product over at most 31 days (the query schema bounds the range), newest
 * day first; a day is `final` once closed by the 07:00 job, before that it is provisional and live.
 */
export async function getDailyBills(
  opts: { ctx: AppContext; access: OrgAccess } & BillRangeQuery,
): Promise<DailyBills> {
  const { org } = opts.access;
  const tz = EDITION_TIME_ZONE[org.edition];
  const { groups, closedThrough } = await dayGroups(opts.ctx.db, org.id, opts.from, opts.to, tz);
  const rows = groupSums(
    groups,
    (g) => `${g.day}\u0000${g.productType}\u0000${g.productName}`,
    (g) => ({ date: g.day, productName: g.productName, productType: g.productType }),
  )
    .map(([, e]) => ({ ...e.meta, ...wireSums(e.sums), final: closedThrough !== null && e.meta.date <= closedThrough }))
    .sort(
      (a, b) =>
        b.date.localeCompare(a.date) ||
        a.productType.localeCompare(b.productType) ||
        a.productName.localeCompare(b.productName),
    );
  const totals = groups.reduce((t, g) => addSums(t, g), emptySums());
  return { currency: org.currency, timeZone: tz, from: opts.from, to: opts.to, items: rows, totals: wireSums(totals) };
}

/** Product Bill: one row per product and model over the range, largest consumption first. */
export async function getProductBills(
  opts: { ctx: AppContext; access: OrgAccess } & BillRangeQuery,
): Promise<ProductBills> {
  const { org } = opts.access;
  const tz = EDITION_TIME_ZONE[org.edition];
  const { groups } = await dayGroups(opts.ctx.db, org.id, opts.from, opts.to, tz);
  const rows = groupSums(
    groups,
    (g) => `${g.productType}\u0000${g.productName}\u0000${g.model}`,
    (g) => ({ productName: g.productName, productType: g.productType, model: g.model }),
  )
    .sort(([ka, a], [kb, b]) => {
      const d = b.sums.consumption - a.sums.consumption;
      return d > 0n ? 1 : d < 0n ? -1 : ka.localeCompare(kb);
    })
    .map(([, e]) => ({ ...e.meta, ...wireSums(e.sums) }));
  const totals = groups.reduce((t, g) => addSums(t, g), emptySums());
  return { currency: org.currency, timeZone: tz, from: opts.from, to: opts.to, items: rows, totals: wireSums(totals) };
}
