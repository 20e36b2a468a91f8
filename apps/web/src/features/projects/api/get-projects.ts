import { ProjectPage } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { orgApi, queryString } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { projectKeys } from "./query-keys.ts";

/** GET /api/orgs/:orgId/projects?page=&pageSize=&status= */
export const projectsQuery = (orgId: string, page: number, pageSize: number, status = "all") =>
  queryOptions({
    queryKey: projectKeys.list(orgId, page, pageSize, status),
    queryFn: () => api(`${orgApi(orgId)}/projects${queryString({ page, pageSize, status })}`, { schema: ProjectPage }),
  });
