/**
 * Money in test fixtures goes in the way production puts it in: through the billing core (modules/billing), which
 * writes the ledger entry with the balance change. Tests never write the money tables (`npm run
 * check:boundaries`, rule `money-tables-via-billing`), so Σ ledger = balances holds in every test as it does live.
 */
import { parseMoney } from "@moonport/contracts";
import { type Db, newId, type Tx } from "@moonport/db";
import type { AppContext } from "../../src/context.ts";
import { creditCash, getOrganizationBalance, issueVoucher } from "../../src/modules/billing/index.ts";

type MoneyCtx = Pick<AppContext, "db" | "keyEvents" | "log">;
const nanos = (amount: string | bigint) => (typeof amount === "bigint" ? amount : parseMoney(amount));

/** A cash recharge (ledger `recharge`): raises the cash and the cumulative recharge that sets the tier. */
export async function seedRecharge(ctx: MoneyCtx, orgId: string, amount: string | bigint): Promise<void> {
  await creditCash({
    ctx,
    orgId,
    amount: nanos(amount),
    kind: "recharge",
    reference: newId("test-recharge"),
    note: "test recharge",
  });
}

/** An operator-style cash grant (ledger `grant`): raises the cash, not the tier. */
export async function seedGrant(ctx: MoneyCtx, orgId: string, amount: string | bigint): Promise<void> {
  await creditCash({ ctx, orgId, amount: nanos(amount), kind: "grant", reference: null, note: "test grant" });
}

/** A voucher with its `voucher_grant` ledger entry. Returns the voucher's id. */
export async function seedVoucher(
  ctx: MoneyCtx,
  orgId: string,
  amount: string | bigint,
  expiresAt: Date,
  type: "activity" | "recharge" | "register" | "kimiVIP" | "other" = "other",
): Promise<string> {
  const { voucherId } = await issueVoucher({
    ctx,
    orgId,
    type,
    amount: nanos(amount),
    expiresAt,
    reference: newId("test-voucher"),
    note: "test voucher",
  });
  return voucherId!;
}

/** The organization's cash and cumulative recharge (and usable vouchers), read through the billing core. */
export async function readBalance(db: Db | Tx, orgId: string) {
  const b = await getOrganizationBalance({ db, orgId });
  if (!b) throw new Error(`organization ${orgId} not found`);
  return { cashBalance: b.cash, cumulativeRecharge: b.cumulativeRecharge, voucher: b.voucher, available: b.available };
}
