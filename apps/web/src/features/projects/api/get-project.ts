import { ProjectOverview } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { orgApi } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { projectApi, projectKeys } from "./query-keys.ts";

/** GET /api/orgs/:orgId/projects/:projectId */
export const projectQuery = (orgId: string, projectId: string) =>
  queryOptions({
    queryKey: projectKeys.detail(orgId, projectId),
    queryFn: () => api(projectApi(orgApi(orgId), projectId), { schema: ProjectOverview }),
  });
