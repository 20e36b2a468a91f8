/** What other parts of the server use of modules/billing; anything else in the folder is internal to it. */
export {
  balanceColumnsSql,
  getOrganizationBalance,
  getOrganizationBalances,
  getTierBasis,
  type OrgBalance,
  openOrganizationBalance,
  testRecharge,
} from "./balance.ts";
export { chargeOrganizations, type UsageCharge } from "./charge-organizations.ts";
export { creditCash, debitCash, expireVouchers, issueVoucher, reverseRefundDebit } from "./credit.ts";
export { grantBalance } from "./grant-balance.ts";
export { auditOrganizationLedger, listLedgerEntries } from "./list-ledger-entries.ts";
export { getVoucher, listVouchers } from "./list-vouchers.ts";
export { lockOrganization, lockOrganizations } from "./lock-organizations.ts";
export { insertBillRows, ProjectSpend } from "./project-spend.ts";
export { generateRedemptionCodes, redeemCode } from "./redeem-code.ts";
export { closeUnpaidPayments, confirmPayment, type SettleOutcome, settlePayment } from "./settle-payment.ts";
export { grantSignupVoucher } from "./signup-voucher.ts";
