/**
 * Console organization API: one query-options factory per GET (the only place query keys are built) and one
 * mutation hook per write, each invalidating what it changes. Responses are parsed with the server's schemas.
 */
import {
  AcceptInvitationResponse,
  ApiKeyPage,
  ApiKeyRow,
  Consumption,
  type CreateApiKeyRequest,
  CreateApiKeyResponse,
  CreateOrgResponse,
  type CreateProjectRequest,
  InvitationPreview,
  type InviteMemberRequest,
  InviteMemberResponse,
  MemberPage,
  OkResponse,
  OrgGeneral,
  OrgOverview,
  ProjectBilling,
  ProjectDetail,
  ProjectMemberCandidates,
  ProjectMemberPage,
  ProjectOverview,
  ProjectPage,
  ProjectRow,
  type UpdateApiKeyRequest,
  type UpdateMemberRequest,
  type UpdateProjectRequest,
  UsageLimits,
} from "@moonport/contracts";
import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";

const o = (orgId: string) => `/api/orgs/${encodeURIComponent(orgId)}`;
const qs = (params: Record<string, string | number | undefined>) => {
  const s = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") s.set(k, String(v));
  const str = s.toString();
  return str ? `?${str}` : "";
};

export const orgKeys = {
  all: (orgId: string) => ["org", orgId] as const,
};

export const orgQuery = (orgId: string) =>
  queryOptions({ queryKey: ["org", orgId, "general"], queryFn: () => api(o(orgId), { schema: OrgGeneral }) });
export const overviewQuery = (orgId: string) =>
  queryOptions({
    queryKey: ["org", orgId, "overview"],
    queryFn: () => api(`${o(orgId)}/overview`, { schema: OrgOverview }),
  });
export const membersQuery = (orgId: string, page: number, pageSize: number) =>
  queryOptions({
    queryKey: ["org", orgId, "members", page, pageSize],
    queryFn: () => api(`${o(orgId)}/members${qs({ page, pageSize })}`, { schema: MemberPage }),
  });
export const projectsQuery = (orgId: string, page: number, pageSize: number, status = "all") =>
  queryOptions({
    queryKey: ["org", orgId, "projects", page, pageSize, status],
    queryFn: () => api(`${o(orgId)}/projects${qs({ page, pageSize, status })}`, { schema: ProjectPage }),
  });
export const projectQuery = (orgId: string, projectId: string) =>
  queryOptions({
    queryKey: ["org", orgId, "project", projectId],
    queryFn: () => api(`${o(orgId)}/projects/${projectId}`, { schema: ProjectOverview }),
  });
export const projectMembersQuery = (orgId: string, projectId: string, page: number, pageSize: number) =>
  queryOptions({
    queryKey: ["org", orgId, "project", projectId, "members", page, pageSize],
    queryFn: () =>
      api(`${o(orgId)}/projects/${projectId}/members${qs({ page, pageSize })}`, { schema: ProjectMemberPage }),
  });
export const projectCandidatesQuery = (orgId: string, projectId: string) =>
  queryOptions({
    queryKey: ["org", orgId, "project", projectId, "candidates"],
    queryFn: () => api(`${o(orgId)}/projects/${projectId}/member-candidates`, { schema: ProjectMemberCandidates }),
  });
export const projectBillingQuery = (orgId: string, projectId: string, month: string) =>
  queryOptions({
    queryKey: ["org", orgId, "project", projectId, "billing", month],
    queryFn: () => api(`${o(orgId)}/projects/${projectId}/billing${qs({ month })}`, { schema: ProjectBilling }),
  });
export const apiKeysQuery = (orgId: string, page: number, pageSize: number, projectId?: string) =>
  queryOptions({
    queryKey: ["org", orgId, "api-keys", page, pageSize, projectId ?? ""],
    queryFn: () => api(`${o(orgId)}/api-keys${qs({ page, pageSize, projectId })}`, { schema: ApiKeyPage }),
  });
export const limitsQuery = (orgId: string) =>
  queryOptions({
    queryKey: ["org", orgId, "limits"],
    queryFn: () => api(`${o(orgId)}/limits`, { schema: UsageLimits }),
  });
export const consumptionQuery = (orgId: string, granularity: "year" | "month", period: string) =>
  queryOptions({
    queryKey: ["org", orgId, "consumption", granularity, period],
    queryFn: () => api(`${o(orgId)}/consumption${qs({ granularity, period })}`, { schema: Consumption }),
  });
export const invitationQuery = (token: string) =>
  queryOptions({
    queryKey: ["invitation", token],
    queryFn: () => api(`/api/invitations/${encodeURIComponent(token)}`, { schema: InvitationPreview }),
    retry: false,
  });

/** Every write refreshes the organization's cached reads; they are cheap and this keeps screens consistent. */
function useOrgMutation<TVars, TResult>(orgId: string, fn: (vars: TVars) => Promise<TResult>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: orgKeys.all(orgId) });
    },
  });
}

export const useRenameOrg = (orgId: string) =>
  useOrgMutation(orgId, (name: string) => api(o(orgId), { method: "PATCH", body: { name }, schema: OrgGeneral }));
export const useCreateOrg = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api("/api/orgs", { body: { name }, schema: CreateOrgResponse }),
    onSuccess: async () => {
      await qc.invalidateQueries();
    },
  });
};
export const useInviteMember = (orgId: string) =>
  useOrgMutation(orgId, (body: InviteMemberRequest) =>
    api(`${o(orgId)}/invitations`, { body, schema: InviteMemberResponse }),
  );
export const useRevokeInvitation = (orgId: string) =>
  useOrgMutation(orgId, (id: string) => api(`${o(orgId)}/invitations/${id}`, { method: "DELETE", schema: OkResponse }));
export const useUpdateMember = (orgId: string) =>
  useOrgMutation(orgId, ({ userId, ...body }: UpdateMemberRequest & { userId: string }) =>
    api(`${o(orgId)}/members/${userId}`, { method: "PATCH", body, schema: OkResponse }),
  );
export const useRemoveMember = (orgId: string) =>
  useOrgMutation(orgId, (userId: string) =>
    api(`${o(orgId)}/members/${userId}`, { method: "DELETE", schema: OkResponse }),
  );
export const useCreateProject = (orgId: string) =>
  useOrgMutation(orgId, (body: CreateProjectRequest) => api(`${o(orgId)}/projects`, { body, schema: ProjectRow }));
export const useUpdateProject = (orgId: string, projectId: string) =>
  useOrgMutation(orgId, (body: UpdateProjectRequest) =>
    api(`${o(orgId)}/projects/${projectId}`, { method: "PATCH", body, schema: ProjectDetail }),
  );
export const useArchiveProject = (orgId: string, projectId: string) =>
  useOrgMutation(orgId, (confirmName: string) =>
    api(`${o(orgId)}/projects/${projectId}/archive`, { body: { confirmName }, schema: ProjectDetail }),
  );
export const useAddProjectMember = (orgId: string, projectId: string) =>
  useOrgMutation(orgId, (body: { userId: string; role: "admin" | "member" }) =>
    api(`${o(orgId)}/projects/${projectId}/members`, { body, schema: OkResponse }),
  );
export const useUpdateProjectMember = (orgId: string, projectId: string) =>
  useOrgMutation(orgId, ({ userId, role }: { userId: string; role: "admin" | "member" }) =>
    api(`${o(orgId)}/projects/${projectId}/members/${userId}`, { method: "PATCH", body: { role }, schema: OkResponse }),
  );
export const useRemoveProjectMember = (orgId: string, projectId: string) =>
  useOrgMutation(orgId, (userId: string) =>
    api(`${o(orgId)}/projects/${projectId}/members/${userId}`, { method: "DELETE", schema: OkResponse }),
  );
export const useCreateApiKey = (orgId: string) =>
  useOrgMutation(orgId, (body: CreateApiKeyRequest) =>
    api(`${o(orgId)}/api-keys`, { body, schema: CreateApiKeyResponse }),
  );
export const useUpdateApiKey = (orgId: string) =>
  useOrgMutation(orgId, ({ id, ...body }: UpdateApiKeyRequest & { id: string }) =>
    api(`${o(orgId)}/api-keys/${id}`, { method: "PATCH", body, schema: ApiKeyRow }),
  );
export const useDeleteApiKey = (orgId: string) =>
  useOrgMutation(orgId, (id: string) => api(`${o(orgId)}/api-keys/${id}`, { method: "DELETE", schema: OkResponse }));
export const useRespondToInvitation = (token: string) => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (answer: "accept" | "decline") =>
      api(`/api/invitations/${encodeURIComponent(token)}/${answer}`, { body: {}, schema: AcceptInvitationResponse }),
    onSuccess: async () => {
      await qc.invalidateQueries();
    },
  });
};
