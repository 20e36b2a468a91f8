/**
 * The wire envelope of GET /v1/users/me/balance (docs/api-compat.md §6; not OpenAI-style: success is code 0). The
 * balance itself is read by the billing core (modules/billing/balance.ts).
 */
import { moneyToNumber } from "@moonport/contracts";
import type { OrgBalance } from "../modules/billing/index.ts";

export function balanceEnvelope(b: OrgBalance) {
  return {
    code: 0,
    data: {
      available_balance: moneyToNumber(b.available),
      voucher_balance: moneyToNumber(b.voucher),
      cash_balance: moneyToNumber(b.cash),
    },
    scode: "0x0",
    status: true,
  };
}
