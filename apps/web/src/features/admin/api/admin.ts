/**
 * Every back-office request (/api/admin, operator only). Reads share the `["admin"]` key root, so a write
 * refreshes whatever admin screen shows the changed object.
 */
import {
  AdminAuditPage,
  AdminCatalog,
  AdminCodeBatch,
  AdminCodeBatchCreated,
  AdminCodeBatchPage,
  type AdminCodeBatchRequest,
  AdminDashboard,
  AdminFeedbackPage,
  type AdminGrantRequest,
  AdminLeadPage,
  type AdminLimitsRequest,
  AdminOrganizationDetail,
  AdminOrganizationPage,
  AdminRiddleList,
  AdminTransferPage,
  AdminUserDetail,
  AdminUserPage,
  AdminVerificationList,
  type TicketStatus,
} from "@moonport/contracts";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { queryString, useInvalidatingMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";

const A = "/api/admin";
export const adminKey = ["admin"] as const;
export const PAGE_SIZE = 20;

export const dashboardQuery = (days: number) =>
  queryOptions({
    queryKey: [...adminKey, "dashboard", days],
    queryFn: () => api(`${A}/dashboard?days=${days}`, { schema: AdminDashboard }),
  });

export const organizationsQuery = (q: string, page: number) =>
  queryOptions({
    queryKey: [...adminKey, "organizations", q, page],
    queryFn: () =>
      api(`${A}/organizations${queryString({ q, page, pageSize: PAGE_SIZE })}`, { schema: AdminOrganizationPage }),
    placeholderData: keepPreviousData,
  });

export const organizationQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...adminKey, "organization", orgId],
    queryFn: () => api(`${A}/organizations/${encodeURIComponent(orgId)}`, { schema: AdminOrganizationDetail }),
  });

export const usersQuery = (q: string, page: number) =>
  queryOptions({
    queryKey: [...adminKey, "users", q, page],
    queryFn: () => api(`${A}/users${queryString({ q, page, pageSize: PAGE_SIZE })}`, { schema: AdminUserPage }),
    placeholderData: keepPreviousData,
  });

export const userQuery = (userId: string) =>
  queryOptions({
    queryKey: [...adminKey, "user", userId],
    queryFn: () => api(`${A}/users/${encodeURIComponent(userId)}`, { schema: AdminUserDetail }),
  });

export const transfersQuery = (page: number) =>
  queryOptions({
    queryKey: [...adminKey, "transfers", page],
    queryFn: () => api(`${A}/transfers${queryString({ page, pageSize: PAGE_SIZE })}`, { schema: AdminTransferPage }),
    placeholderData: keepPreviousData,
  });

export const leadsQuery = (status: TicketStatus | undefined, page: number) =>
  queryOptions({
    queryKey: [...adminKey, "leads", status, page],
    queryFn: () => api(`${A}/leads${queryString({ status, page, pageSize: PAGE_SIZE })}`, { schema: AdminLeadPage }),
    placeholderData: keepPreviousData,
  });

export const feedbackQuery = (status: TicketStatus | undefined, page: number) =>
  queryOptions({
    queryKey: [...adminKey, "feedback", status, page],
    queryFn: () =>
      api(`${A}/feedback${queryString({ status, page, pageSize: PAGE_SIZE })}`, { schema: AdminFeedbackPage }),
    placeholderData: keepPreviousData,
  });

export const codeBatchesQuery = (page: number) =>
  queryOptions({
    queryKey: [...adminKey, "code-batches", page],
    queryFn: () =>
      api(`${A}/code-batches${queryString({ page, pageSize: PAGE_SIZE })}`, { schema: AdminCodeBatchPage }),
    placeholderData: keepPreviousData,
  });

export const auditQuery = (q: string, page: number) =>
  queryOptions({
    queryKey: [...adminKey, "audit", q, page],
    queryFn: () => api(`${A}/audit${queryString({ q, page, pageSize: PAGE_SIZE })}`, { schema: AdminAuditPage }),
    placeholderData: keepPreviousData,
  });

/** The CSV export of the audit lines matching `q` (a plain download link). */
export const auditCsvUrl = (q: string) => `${A}/audit${queryString({ q, format: "csv" })}`;

export const useAdminWrite = <V, R>(fn: (v: V) => Promise<R>) => useInvalidatingMutation(adminKey, fn);

export const useGrantCredit = (orgId: string) =>
  useAdminWrite((body: AdminGrantRequest) =>
    api(`${A}/organizations/${orgId}/grant`, { body, schema: AdminOrganizationDetail }),
  );
export const useSetLimits = (orgId: string) =>
  useAdminWrite((body: AdminLimitsRequest) =>
    api(`${A}/organizations/${orgId}/limits`, { method: "PUT", body, schema: AdminOrganizationDetail }),
  );
export const useSuspend = (orgId: string) =>
  useAdminWrite((v: { suspend: boolean; reason?: string }) =>
    api(`${A}/organizations/${orgId}/${v.suspend ? "suspend" : "resume"}`, {
      method: "POST",
      body: v.suspend ? { reason: v.reason } : undefined,
      schema: AdminOrganizationDetail,
    }),
  );
export const useUserAction = (userId: string) =>
  useAdminWrite((action: "disable" | "enable" | "revoke-sessions") =>
    api(`${A}/users/${userId}/${action}`, { method: "POST", schema: AdminUserDetail }),
  );
export const useConfirmTransfer = () =>
  useAdminWrite((paymentId: string) => api(`${A}/payments/${paymentId}/confirm`, { method: "POST" }));
export const useTicketStatus = (kind: "leads" | "feedback") =>
  useAdminWrite((v: { id: string; status: TicketStatus }) =>
    api(`${A}/${kind}/${v.id}/status`, { method: "PUT", body: { status: v.status } }),
  );
export const useTicketReply = (kind: "leads" | "feedback") =>
  useAdminWrite((v: { id: string; message: string }) =>
    api(`${A}/${kind}/${v.id}/reply`, { body: { message: v.message } }),
  );
export const useCreateCodeBatch = () =>
  useAdminWrite((body: AdminCodeBatchRequest) => api(`${A}/code-batches`, { body, schema: AdminCodeBatchCreated }));
export const useRevokeCodeBatch = () =>
  useAdminWrite((batchId: string) =>
    api(`${A}/code-batches/${batchId}/revoke`, { method: "POST", schema: AdminCodeBatch }),
  );

export const catalogQuery = () =>
  queryOptions({
    queryKey: [...adminKey, "catalog"],
    queryFn: () => api(`${A}/catalog`, { schema: AdminCatalog }),
    // Upstream health moves with traffic.
    refetchInterval: 15_000,
  });

export const riddlesQuery = () =>
  queryOptions({
    queryKey: [...adminKey, "riddles"],
    queryFn: () => api(`${A}/riddles`, { schema: AdminRiddleList }),
  });

/** One riddle's whole definition (what edit merges into and add takes), as JSON. */
export const fetchRiddleDefinition = (id: string) =>
  api<Record<string, unknown>>(`${A}/riddles/${encodeURIComponent(id)}`);

export const useRiddleChange = () =>
  useAdminWrite(
    (
      v:
        | { kind: "add"; definition: Record<string, unknown> }
        | { kind: "edit"; id: string; definition: Record<string, unknown> }
        | { kind: "move"; id: string; position: number }
        | { kind: "retire" | "restore"; id: string },
    ) => {
      if (v.kind === "add") return api(`${A}/riddles`, { body: { definition: v.definition } });
      if (v.kind === "edit") return api(`${A}/riddles/${v.id}`, { method: "PUT", body: { definition: v.definition } });
      if (v.kind === "move") return api(`${A}/riddles/${v.id}/move`, { body: { position: v.position } });
      return api(`${A}/riddles/${v.id}/${v.kind}`, { method: "POST" });
    },
  );

export const verificationsQuery = () =>
  queryOptions({
    queryKey: [...adminKey, "verifications"],
    queryFn: () => api(`${A}/verifications`, { schema: AdminVerificationList }),
  });

export const useDecideVerification = () =>
  useAdminWrite((v: { id: string; decision: "approve" | "reject"; reason?: string }) =>
    api(`${A}/verifications/${v.id}/${v.decision}`, {
      method: "POST",
      body: v.decision === "reject" ? { reason: v.reason } : undefined,
    }),
  );
