import { type AdminOrganizationPage, tierFor } from "@moonport/contracts";
import { type Db, schema } from "@moonport/db";
import { count, desc, eq, ilike, or, type SQL, sql } from "drizzle-orm";
import { getOrganizationBalances } from "../billing/index.ts";

/** `%` and `_` typed by the operator are matched literally. */
export function likePattern(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The back office's organization list (operator only; the route checks that): newest first, filtered by name
 * (substring, any case) or exact id, with each organization's balance (cash + unexpired vouchers) and tier.
 */
export async function listOrganizations(opts: {
  db: Db;
  q: string;
  page: number;
  pageSize: number;
  now: Date;
}): Promise<AdminOrganizationPage> {
  const { db } = opts;
  const o = schema.organizations;
  const where: SQL | undefined = opts.q ? or(ilike(o.name, likePattern(opts.q)), eq(o.id, opts.q)) : undefined;
  const [total] = await db.select({ n: count() }).from(o).where(where);
  const rows = await db
    .select({
      org: o,
      // Correlated subqueries name the outer row in full: drizzle leaves a single-table select's columns bare.
      members: sql<number>`(select count(*) from org_members m where m.org_id = organizations.id)::int`,
    })
    .from(o)
    .where(where)
    .orderBy(desc(o.createdAt), desc(o.id))
    .limit(opts.pageSize)
    .offset((opts.page - 1) * opts.pageSize);
  const balances = await getOrganizationBalances({ db, orgIds: rows.map((r) => r.org.id), now: opts.now });
  return {
    items: rows.map(({ org, members }) => {
      const b = balances.get(org.id);
      const cash = b?.cash ?? 0n;
      const voucherTotal = b?.voucher ?? 0n;
      const cumulativeRecharge = b?.cumulativeRecharge ?? 0n;
      const tier = tierFor({ ...org, cumulativeRecharge });
      return {
        id: org.id,
        name: org.name,
        edition: org.edition,
        currency: org.currency,
        personal: org.personal,
        createdAt: org.createdAt.toISOString(),
        members: Number(members),
        balance: {
          cash: cash.toString(),
          voucher: voucherTotal.toString(),
          total: (cash + voucherTotal).toString(),
        },
        cumulativeRecharge: cumulativeRecharge.toString(),
        tier: { tier: tier.tier, name: tier.name },
      };
    }),
    total: total?.n ?? 0,
    page: opts.page,
    pageSize: opts.pageSize,
  };
}
