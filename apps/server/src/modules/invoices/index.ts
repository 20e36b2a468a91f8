/** What other parts of the server use of modules/invoices; anything else in the folder is internal to it. */
export { AUTO_ISSUE_JOB } from "./apply-invoice.ts";
export { importInvoice } from "./import-invoice.ts";
export { cancelOrderInvoiceCredit, creditOrderInvoice, snapshotOrderInvoice } from "./invoice-info.ts";
export { autoIssueInvoice, failInvoice, type IssueContext, issueInvoice } from "./issue-invoice.ts";
export { listInvoiceQueue } from "./list-invoices.ts";
export {
  answerRedLetter,
  completeRedLetter,
  expireRedLetters,
  RED_LETTER_TIMEOUT_JOB,
  startRedLetter,
  withdrawRedLetter,
} from "./red-letter.ts";
