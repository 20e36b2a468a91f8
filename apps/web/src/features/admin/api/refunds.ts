import { AdminRefundList, type RefundStatus } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";
import { adminKey, useAdminWrite } from "./admin.ts";

const R = "/api/admin/refunds";

/** The refund queue: open refunds (requested, refunding, failed) oldest first, or those of one status. */
export const refundQueueQuery = (status?: RefundStatus) =>
  queryOptions({
    queryKey: [...adminKey, "refunds", status ?? "open"],
    queryFn: () => api(`${R}${status ? `?status=${status}` : ""}`, { schema: AdminRefundList }),
  });

export type RefundDecision =
  | { id: string; action: "approve" | "retry" }
  | { id: string; action: "reject"; reason: string }
  | { id: string; action: "complete"; reference: string };

/** Approve, retry a failed one, reject with a reason, or mark one paid back by bank transfer done. */
export const useDecideRefund = () =>
  useAdminWrite((v: RefundDecision) =>
    api(`${R}/${encodeURIComponent(v.id)}/${v.action}`, {
      method: "POST",
      body:
        v.action === "reject" ? { reason: v.reason } : v.action === "complete" ? { reference: v.reference } : undefined,
    }),
  );
