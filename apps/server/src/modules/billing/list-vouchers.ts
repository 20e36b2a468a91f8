/**
 * An organization's vouchers as the console lists them (modules/payments serves the routes). What expiry wrote off
 * is not "used": used = amount − remaining − written off (the `voucher_expiry` ledger entries).
 */
import type { Voucher, VoucherPage } from "@moonport/contracts";
import type { Db, Tx } from "@moonport/db";
import * as money from "@moonport/db/money-schema";
import { and, count, desc, eq, gt, lte, type SQL, sql } from "drizzle-orm";

const v = money.vouchers;
const writtenOff = sql<string>`coalesce((select -sum(l.voucher_delta) from ledger_entries l where l.kind = 'voucher_expiry' and l.reference = ${v.id}), 0)::text`;

type Row = {
  id: string;
  type: Voucher["type"];
  amount: bigint;
  remaining: bigint;
  createdAt: Date;
  expiresAt: Date;
  writtenOff: string;
};

function view(r: Row, now: Date): Voucher {
  return {
    id: r.id,
    type: r.type,
    amount: r.amount.toString(),
    used: (r.amount - r.remaining - BigInt(r.writtenOff)).toString(),
    status: r.expiresAt.getTime() > now.getTime() ? "effective" : "expired",
    createdAt: r.createdAt.toISOString(),
    expiredAt: r.expiresAt.toISOString(),
  };
}

const columns = {
  id: v.id,
  type: v.type,
  amount: v.amount,
  remaining: v.remaining,
  createdAt: v.createdAt,
  expiresAt: v.expiresAt,
  writtenOff,
};

/** Newest first; `status` keeps the effective (unexpired at `now`) or the expired ones. */
export async function listVouchers(opts: {
  db: Db | Tx;
  orgId: string;
  now: Date;
  page: number;
  pageSize: number;
  status?: "effective" | "expired";
}): Promise<VoucherPage> {
  const { db, now } = opts;
  const where: SQL[] = [eq(v.orgId, opts.orgId)];
  if (opts.status === "effective") where.push(gt(v.expiresAt, now));
  if (opts.status === "expired") where.push(lte(v.expiresAt, now));
  const [total] = await db
    .select({ n: count() })
    .from(v)
    .where(and(...where));
  const rows = await db
    .select(columns)
    .from(v)
    .where(and(...where))
    .orderBy(desc(v.createdAt), desc(v.id))
    .limit(opts.pageSize)
    .offset((opts.page - 1) * opts.pageSize);
  return { items: rows.map((r) => view(r, now)), total: total?.n ?? 0, page: opts.page, pageSize: opts.pageSize };
}

export async function getVoucher(opts: { db: Db | Tx; voucherId: string; now: Date }): Promise<Voucher | null> {
  const [row] = await opts.db.select(columns).from(v).where(eq(v.id, opts.voucherId));
  return row ? view(row, opts.now) : null;
}
