import { orgKey } from "../../../components/console-kit/org-api.ts";

/** Cache keys of API key reads, all under the organization's root key. */
export const apiKeyKeys = {
  list: (orgId: string, page: number, pageSize: number, projectId?: string) =>
    [...orgKey(orgId), "api-keys", page, pageSize, projectId ?? ""] as const,
  projectOptions: (orgId: string) => [...orgKey(orgId), "api-keys", "project-options"] as const,
};
