import { orgKey } from "../../../components/console-kit/org-api.ts";

/** Cache keys of project reads, all under the organization's root key. */
export const projectKeys = {
  list: (orgId: string, page: number, pageSize: number, status: string) =>
    [...orgKey(orgId), "projects", page, pageSize, status] as const,
  detail: (orgId: string, projectId: string) => [...orgKey(orgId), "project", projectId] as const,
  members: (orgId: string, projectId: string, page: number, pageSize: number) =>
    [...projectKeys.detail(orgId, projectId), "members", page, pageSize] as const,
  candidates: (orgId: string, projectId: string) => [...projectKeys.detail(orgId, projectId), "candidates"] as const,
  billing: (orgId: string, projectId: string, month: string) =>
    [...projectKeys.detail(orgId, projectId), "billing", month] as const,
};

/** `/api/orgs/:orgId/projects/:projectId` */
export const projectApi = (orgApiPath: string, projectId: string) =>
  `${orgApiPath}/projects/${encodeURIComponent(projectId)}`;
