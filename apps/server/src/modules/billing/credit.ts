/**
 * Money in and out outside metered usage: operator grants, recharges, refunds, vouchers issued and written off.
 * Each is one ledger entry plus the balance change in one transaction, keyed by an idempotency `reference`
 * (unique per kind in the ledger), so repeating a credit — a payment notification delivered twice, a job retried —
 * changes nothing. Each tells the gateway (every instance, through `ctx.keyEvents`) after the commit by itself, so
 * admission sees the new balance and tier at once; callers have nothing to remember.
 *
 * Every function opens its own transaction, or joins the caller's when given `tx` from `withTransaction` (then
 * the notification waits for the caller's commit).
 */
import { newId, type Tx } from "@moonport/db";
import * as money from "@moonport/db/money-schema";
import { and, eq, gt, inArray, lte, sql } from "drizzle-orm";
import type { AppContext } from "../../context.ts";
import { type AfterCommit, withTransaction } from "../../lib/transaction.ts";
import { insertLedgerEntries, newLedgerId } from "./ledger.ts";
import { lockOrganizations } from "./lock-organizations.ts";

export type BillingScope = { ctx: Pick<AppContext, "db" | "keyEvents" | "log">; tx?: Tx };

function inTransaction<T>(scope: BillingScope, fn: (tx: Tx, afterCommit: AfterCommit) => Promise<T>): Promise<T> {
  return withTransaction({ db: scope.tx ?? scope.ctx.db, log: scope.ctx.log }, fn);
}

function notifyAfterCommit(scope: BillingScope, afterCommit: AfterCommit, orgId: string) {
  afterCommit(() => scope.ctx.keyEvents.invalidate({ orgId }));
}

export interface CreditResult {
  /** False when this reference was credited before (nothing changed). */
  applied: boolean;
  cashBalance: bigint;
}

async function changeCash(
  scope: BillingScope,
  opts: {
    orgId: string;
    delta: bigint;
    kind: "grant" | "recharge" | "refund";
    reference: string | null;
    note: string;
    createdBy?: string;
    /** Added to the cumulative recharge that sets the rate-limit tier. */
    rechargeDelta: bigint;
    /** Refuse to take cash below zero. */
    floorAtZero: boolean;
  },
): Promise<CreditResult> {
  return inTransaction(scope, async (tx, afterCommit) => {
    await lockOrganizations(tx, [opts.orgId]);
    const [org] = await tx
      .select({ cash: money.orgBalances.cashBalance })
      .from(money.orgBalances)
      .where(eq(money.orgBalances.orgId, opts.orgId));
    if (!org) throw new Error(`organization ${opts.orgId} not found`);
    const inserted = await insertLedgerEntries(
      tx,
      [
        {
          id: newLedgerId(),
          orgId: opts.orgId,
          kind: opts.kind,
          cashDelta: opts.delta,
          voucherDelta: 0n,
          reference: opts.reference,
          note: opts.note,
          createdBy: opts.createdBy ?? null,
          createdAt: new Date(),
        },
      ],
      { idempotent: true },
    );
    if (!inserted.size) return { applied: false, cashBalance: org.cash };
    if (opts.floorAtZero && org.cash + opts.delta < 0n) throw new RangeError("not enough cash for this debit");
    const [row] = await tx
      .update(money.orgBalances)
      .set({
        cashBalance: sql`${money.orgBalances.cashBalance} + ${opts.delta.toString()}::bigint`,
        ...(opts.rechargeDelta !== 0n
          ? {
              cumulativeRecharge: sql`greatest(0, ${money.orgBalances.cumulativeRecharge} + ${opts.rechargeDelta.toString()}::bigint)`,
            }
          : {}),
      })
      .where(eq(money.orgBalances.orgId, opts.orgId))
      .returning({ cashBalance: money.orgBalances.cashBalance });
    notifyAfterCommit(scope, afterCommit, opts.orgId);
    return { applied: true, cashBalance: row!.cashBalance };
  });
}

/**
 * Adds cash. A `recharge` (money paid in) also raises the cumulative recharge that sets the rate-limit tier; a
 * `grant` (operator credit) does not.
 */
export function creditCash(
  opts: BillingScope & {
    orgId: string;
    amount: bigint;
    kind: "grant" | "recharge";
    /** Idempotency key, e.g. the payment provider's transaction id; null for one-off operator grants. */
    reference: string | null;
    note: string;
    createdBy?: string;
  },
): Promise<CreditResult> {
  if (opts.amount <= 0n) throw new RangeError("a credit must be a positive amount");
  return changeCash(opts, {
    ...opts,
    delta: opts.amount,
    rechargeDelta: opts.kind === "recharge" ? opts.amount : 0n,
    floorAtZero: false,
  });
}

/**
 * Takes cash back out for a refund of recharged money: never below zero, and the refunded amount no longer counts
 * toward the tier.
 */
export function debitCash(
  opts: BillingScope & {
    orgId: string;
    amount: bigint;
    kind: "refund";
    reference: string;
    note: string;
    createdBy?: string;
  },
): Promise<CreditResult> {
  if (opts.amount <= 0n) throw new RangeError("a debit must be a positive amount");
  return changeCash(opts, { ...opts, delta: -opts.amount, rechargeDelta: -opts.amount, floorAtZero: true });
}

/**
 * Gives back the cash of a refund debit whose refund did not happen (the provider refused it): kind `refund` with a
 * positive delta under `<debit reference>:reversal`, so it applies once and restores the cumulative recharge the
 * debit lowered. Only for a debit that was applied.
 */
export function reverseRefundDebit(
  opts: BillingScope & { orgId: string; amount: bigint; debitReference: string; note: string; createdBy?: string },
): Promise<CreditResult> {
  if (opts.amount <= 0n) throw new RangeError("a reversal must be a positive amount");
  return changeCash(opts, {
    ...opts,
    kind: "refund",
    reference: `${opts.debitReference}:reversal`,
    delta: opts.amount,
    rechargeDelta: opts.amount,
    floorAtZero: false,
  });
}

/** Issues a voucher (redemption, first-recharge bonus, sign-up gift). Vouchers never raise the tier. */
export async function issueVoucher(
  opts: BillingScope & {
    orgId: string;
    type: (typeof money.vouchers.$inferInsert)["type"];
    amount: bigint;
    expiresAt: Date;
    /** Idempotency key, e.g. the redemption code's id. */
    reference: string;
    note: string;
    createdBy?: string;
  },
): Promise<{ applied: boolean; voucherId: string | null }> {
  if (opts.amount <= 0n) throw new RangeError("a voucher must be a positive amount");
  return inTransaction(opts, async (tx, afterCommit) => {
    await lockOrganizations(tx, [opts.orgId]);
    const inserted = await insertLedgerEntries(
      tx,
      [
        {
          id: newLedgerId(),
          orgId: opts.orgId,
          kind: "voucher_grant",
          cashDelta: 0n,
          voucherDelta: opts.amount,
          reference: opts.reference,
          note: opts.note,
          createdBy: opts.createdBy ?? null,
          createdAt: new Date(),
        },
      ],
      { idempotent: true },
    );
    if (!inserted.size) return { applied: false, voucherId: null };
    const voucherId = newId("vch");
    await tx.insert(money.vouchers).values({
      id: voucherId,
      orgId: opts.orgId,
      type: opts.type,
      amount: opts.amount,
      remaining: opts.amount,
      expiresAt: opts.expiresAt,
    });
    notifyAfterCommit(opts, afterCommit, opts.orgId);
    return { applied: true, voucherId };
  });
}

/**
 * Writes off what is left of vouchers expired at `now` (one `voucher_expiry` entry each, referencing the
 * voucher), so the ledger keeps matching the vouchers. Available balances already leave expired vouchers out, so
 * the gateway needs no notification. Returns how many vouchers were written off.
 */
export async function expireVouchers(opts: BillingScope & { now: Date; limit?: number }): Promise<number> {
  return inTransaction(opts, async (tx) => {
    const due = and(gt(money.vouchers.remaining, 0n), lte(money.vouchers.expiresAt, opts.now));
    const candidates = await tx
      .select({ orgId: money.vouchers.orgId })
      .from(money.vouchers)
      .where(due)
      .limit(opts.limit ?? 1000);
    const orgIds = [...new Set(candidates.map((c) => c.orgId))].sort();
    if (!orgIds.length) return 0;
    // Organizations first, then vouchers: the order the bill writer locks in.
    await lockOrganizations(tx, orgIds);
    const expired = await tx
      .select({ id: money.vouchers.id, orgId: money.vouchers.orgId, remaining: money.vouchers.remaining })
      .from(money.vouchers)
      .where(and(due, inArray(money.vouchers.orgId, orgIds)))
      .for("update");
    if (!expired.length) return 0;
    await tx
      .update(money.vouchers)
      .set({ remaining: 0n })
      .where(
        inArray(
          money.vouchers.id,
          expired.map((v) => v.id),
        ),
      );
    const at = opts.now;
    await insertLedgerEntries(
      tx,
      expired.map((v) => ({
        id: newLedgerId(),
        orgId: v.orgId,
        kind: "voucher_expiry" as const,
        cashDelta: 0n,
        voucherDelta: -v.remaining,
        reference: v.id,
        note: "voucher expired",
        createdAt: at,
      })),
      { idempotent: true },
    );
    return expired.length;
  });
}
