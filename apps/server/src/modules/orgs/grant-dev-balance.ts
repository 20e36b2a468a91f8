import { parseMoney } from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import type { OrgAccess } from "../../http/org-access.ts";
import { fieldError } from "../../lib/app-error.ts";
import { grantBalance } from "../billing/index.ts";

/**
 * Test seam (DEV_SEAMS=true, loopback only, never in production; access: organization admins): an organization admin credits cash to their organization, so
 * browser tests can call /v1 before a recharge flow exists. Recorded as an operator-style grant in the ledger.
 */
export async function grantDevBalance(opts: {
  ctx: AppContext;
  access: OrgAccess;
  amount: string;
}): Promise<{ cashBalance: string }> {
  const orgId = opts.access.org.id;
  let amount: bigint;
  try {
    amount = parseMoney(opts.amount);
  } catch {
    throw fieldError("validation_failed", "amount", "invalid_type");
  }
  if (amount <= 0n) throw fieldError("validation_failed", "amount", "invalid_type");
  const { cashBalance } = await grantBalance({
    ctx: opts.ctx,
    orgId,
    amount,
    note: "DEV_SEAMS test grant",
    createdBy: opts.access.userId,
  });
  return { cashBalance: cashBalance.toString() };
}
