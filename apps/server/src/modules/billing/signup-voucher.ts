import { parseMoney } from "@moonport/contracts";
import type { Tx } from "@moonport/db";
import type { AppContext } from "../../context.ts";
import { issueVoucher } from "./credit.ts";

/**
 * The optional sign-up gift (SIGNUP_VOUCHER_AMOUNT whole units, valid SIGNUP_VOUCHER_DAYS): a `register` voucher
 * for a new personal organization, in the sign-up's transaction, once per organization (reference `signup:<org>`).
 */
export async function grantSignupVoucher(opts: {
  ctx: Pick<AppContext, "db" | "keyEvents" | "log" | "config">;
  tx: Tx;
  orgId: string;
  now: Date;
}): Promise<void> {
  const { amount, days } = opts.ctx.config.payments.signupVoucher;
  if (amount <= 0) return;
  await issueVoucher({
    ctx: opts.ctx,
    tx: opts.tx,
    orgId: opts.orgId,
    type: "register",
    amount: parseMoney(String(amount)),
    expiresAt: new Date(opts.now.getTime() + days * 86_400_000),
    reference: `signup:${opts.orgId}`,
    note: "sign-up voucher",
  });
}
