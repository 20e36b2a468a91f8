import { type CreateRefundRequest, CreateRefundResponse, RefundOptions, RefundPage } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { orgApi, orgKey, queryString, useOrgMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";

/** Cache keys of the refund reads, under the organization's root key (a refund changes balances and payments). */
export const refundKeys = {
  options: (orgId: string) => [...orgKey(orgId), "refunds", "options"] as const,
  list: (orgId: string, q: object) => [...orgKey(orgId), "refunds", "list", q] as const,
};

const base = (orgId: string) => `${orgApi(orgId)}/refunds`;

/** GET …/refunds/options: the cash that may be refunded and each paid recharge's refundable part. */
export const refundOptionsQuery = (orgId: string) =>
  queryOptions({
    queryKey: refundKeys.options(orgId),
    queryFn: () => api(`${base(orgId)}/options`, { schema: RefundOptions }),
  });

/** GET …/refunds, polled while one is in progress (the operator and the provider move it on). */
export const refundsQuery = (orgId: string, q: { page: number; pageSize: number }) =>
  queryOptions({
    queryKey: refundKeys.list(orgId, q),
    queryFn: () => api(`${base(orgId)}${queryString(q)}`, { schema: RefundPage }),
    refetchInterval: (query) =>
      query.state.data?.items.some((r) => r.status === "requested" || r.status === "refunding") ? 10_000 : false,
  });

/** POST …/refunds */
export const useRequestRefund = (orgId: string) =>
  useOrgMutation(orgId, (body: CreateRefundRequest) => api(base(orgId), { body, schema: CreateRefundResponse }));

/** POST …/refunds/:id/cancel (only while it waits for the operator) */
export const useCancelRefund = (orgId: string) =>
  useOrgMutation(orgId, (refundId: string) =>
    api(`${base(orgId)}/${encodeURIComponent(refundId)}/cancel`, { method: "POST" }),
  );
