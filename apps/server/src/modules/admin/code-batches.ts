import { type AdminCodeBatch, type AdminCodeBatchRequest, parseMoney } from "@moonport/contracts";
import { type Db, schema } from "@moonport/db";
import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { generateRedemptionCodes } from "../billing/index.ts";
import { recordOperatorAction } from "./record-operator-action.ts";

const DAY_MS = 86_400_000;
const rc = schema.redemptionCodes;

function batchSelect(now: Date) {
  return {
    batchId: rc.batchId,
    edition: sql<"cn" | "global">`min(${rc.edition})`,
    amount: sql<string>`min(${rc.amount})::text`,
    voucherType: sql<AdminCodeBatch["voucherType"]>`min(${rc.voucherType})`,
    minTier: sql<number | null>`min(${rc.minTier})`,
    count: count(),
    redeemed: sql<number>`count(${rc.redeemedAt})::int`,
    usable: sql<number>`count(*) filter (where ${rc.redeemedAt} is null and ${rc.expiresAt} > ${now.toISOString()}::timestamptz)::int`,
    expiresAt: sql<string>`to_char(max(${rc.expiresAt}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
    createdAt: sql<string>`to_char(min(${rc.createdAt}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`,
    createdBy: sql<string>`min(${rc.createdBy})`,
  };
}

export async function listCodeBatches(opts: { db: Db; page: number; pageSize: number; now: Date }) {
  const [[total], rows] = await Promise.all([
    opts.db.select({ n: sql<number>`count(distinct ${rc.batchId})::int` }).from(rc),
    opts.db
      .select(batchSelect(opts.now))
      .from(rc)
      .groupBy(rc.batchId)
      .orderBy(desc(sql`min(${rc.createdAt})`))
      .limit(opts.pageSize)
      .offset((opts.page - 1) * opts.pageSize),
  ]);
  return { items: rows as AdminCodeBatch[], total: total?.n ?? 0, page: opts.page, pageSize: opts.pageSize };
}

async function getBatch(db: Db, batchId: string, now: Date): Promise<AdminCodeBatch> {
  const [row] = await db.select(batchSelect(now)).from(rc).where(eq(rc.batchId, batchId)).groupBy(rc.batchId);
  if (!row) throw new AppError("not_found");
  return row as AdminCodeBatch;
}

/** Generates a batch (the codes are in this answer only) through the billing core, which records the action. */
export async function createCodeBatch(opts: { ctx: AppContext; operator: string; body: AdminCodeBatchRequest }) {
  const now = opts.ctx.clock.now();
  const b = opts.body;
  const { batchId, codes } = await generateRedemptionCodes(
    { ctx: opts.ctx },
    {
      count: b.count,
      edition: b.edition,
      amount: parseMoney(b.amount),
      voucherType: b.voucherType,
      voucherDays: b.voucherDays,
      expiresAt: new Date(now.getTime() + b.validDays * DAY_MS),
      minTier: b.minTier,
      operator: opts.operator,
    },
  );
  return { batch: await getBatch(opts.ctx.db, batchId, now), codes };
}

/** Revokes a batch: every code not yet redeemed expires now (redeemed vouchers stay the organizations'). */
export async function revokeCodeBatch(opts: { ctx: AppContext; operator: string; batchId: string }) {
  const now = opts.ctx.clock.now();
  await opts.ctx.db.transaction(async (tx) => {
    const before = await tx
      .update(rc)
      .set({ expiresAt: now })
      .where(
        and(
          eq(rc.batchId, opts.batchId),
          isNull(rc.redeemedAt),
          sql`${rc.expiresAt} > ${now.toISOString()}::timestamptz`,
        ),
      )
      .returning({ id: rc.id });
    const [exists] = await tx.select({ id: rc.id }).from(rc).where(eq(rc.batchId, opts.batchId)).limit(1);
    if (!exists) throw new AppError("not_found");
    await recordOperatorAction(tx, {
      actor: opts.operator,
      action: "voucher_codes.revoke",
      target: opts.batchId,
      before: { usable: before.length },
      after: { usable: 0 },
    });
  });
  return getBatch(opts.ctx.db, opts.batchId, now);
}
