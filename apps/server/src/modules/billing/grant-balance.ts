import type { AppContext } from "../../context.ts";
import { creditCash } from "./credit.ts";

/**
 * Credits cash to an organization as a recorded operator grant (ledger kind "grant"). A grant is not a recharge,
 * so it does not raise the rate-limit tier. The gateway learns of it after the commit (billing core).
 */
export async function grantBalance(opts: {
  ctx: Pick<AppContext, "db" | "keyEvents" | "log">;
  orgId: string;
  amount: bigint;
  note: string;
  createdBy: string;
}): Promise<{ cashBalance: bigint }> {
  if (opts.amount <= 0n) throw new RangeError("a grant must be a positive amount");
  const { cashBalance } = await creditCash({ ...opts, kind: "grant", reference: null });
  return { cashBalance };
}
