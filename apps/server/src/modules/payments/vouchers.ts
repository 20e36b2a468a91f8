import type { Voucher, VoucherPage } from "@moonport/contracts";
import { schema } from "@moonport/db";
import { and, count, desc, eq, gt, lte, type SQL, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { redeemCode } from "../billing/index.ts";

const v = schema.vouchers;
// What expiry wrote off is not "used": used = amount − remaining − written off.
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

export async function listVouchers(opts: {
  ctx: AppContext;
  access: OrgAccess;
  query: { page: number; pageSize: number; status?: "effective" | "expired" };
}): Promise<VoucherPage> {
  const { ctx, query } = opts;
  const now = ctx.clock.now();
  const where: SQL[] = [eq(v.orgId, opts.access.org.id)];
  if (query.status === "effective") where.push(gt(v.expiresAt, now));
  if (query.status === "expired") where.push(lte(v.expiresAt, now));
  const [total] = await ctx.db
    .select({ n: count() })
    .from(v)
    .where(and(...where));
  const rows = await ctx.db
    .select(columns)
    .from(v)
    .where(and(...where))
    .orderBy(desc(v.createdAt), desc(v.id))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  return { items: rows.map((r) => view(r, now)), total: total?.n ?? 0, page: query.page, pageSize: query.pageSize };
}

export async function redeemVoucher(opts: {
  ctx: AppContext;
  access: OrgAccess;
  code: string;
}): Promise<{ voucher: Voucher; tier: number }> {
  const { ctx, access } = opts;
  const now = ctx.clock.now();
  const { voucherId, tier } = await redeemCode({
    ctx,
    orgId: access.org.id,
    code: opts.code,
    now,
    userId: access.userId,
  });
  const [row] = await ctx.db.select(columns).from(v).where(eq(v.id, voucherId));
  return { voucher: view(row!, now), tier };
}
