import type { RefundStatus } from "@moonport/contracts";

/** One color per refund state, the same in the console's records and the back office's queue. */
export const REFUND_STATUS_COLOR: Record<RefundStatus, string> = {
  requested: "yellow",
  refunding: "blue",
  refunded: "teal",
  rejected: "red",
  failed: "red",
  cancelled: "gray",
};
