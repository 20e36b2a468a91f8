import { orgKey } from "../../../components/console-kit/org-api.ts";

/** Cache keys of playground reads, under the organization's root key. */
export const playgroundKeys = {
  projects: (orgId: string) => [...orgKey(orgId), "playground", "projects"] as const,
  limits: (orgId: string) => [...orgKey(orgId), "playground", "limits"] as const,
  sessions: (orgId: string, projectId: string) => [...orgKey(orgId), "playground", projectId, "sessions"] as const,
  session: (orgId: string, projectId: string, id: string) =>
    [...orgKey(orgId), "playground", projectId, "session", id] as const,
  officialTools: (orgId: string, projectId: string) =>
    [...orgKey(orgId), "playground", projectId, "official-tools"] as const,
  functionTools: (orgId: string, projectId: string) =>
    [...orgKey(orgId), "playground", projectId, "function-tools"] as const,
  mcpServers: (orgId: string, projectId: string) => [...orgKey(orgId), "playground", projectId, "mcp-servers"] as const,
};

export const playgroundApi = (orgId: string, projectId: string) =>
  `/api/orgs/${encodeURIComponent(orgId)}/projects/${encodeURIComponent(projectId)}/playground`;
