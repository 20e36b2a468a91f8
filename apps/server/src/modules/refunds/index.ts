/** What other parts of the server use of modules/refunds; anything else in the folder is internal to it. */
export {
  approveRefund,
  EXECUTE_ATTEMPTS,
  EXECUTE_JOB,
  executeRefund,
  listRefundQueue,
  POLL_JOB,
  type PollPayload,
  pollRefund,
  rejectRefund,
  settleRefundNotification,
} from "./manage-refund.ts";
