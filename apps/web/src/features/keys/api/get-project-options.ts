import { ProjectPage } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { orgApi, queryString } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { apiKeyKeys } from "./query-keys.ts";

/**
 * GET /api/orgs/:orgId/projects?status=active: the projects a key can be created in or filtered by (the server
 * lists only the caller's projects). At most 100, the page size limit.
 */
export const projectOptionsQuery = (orgId: string) =>
  queryOptions({
    queryKey: apiKeyKeys.projectOptions(orgId),
    queryFn: () =>
      api(`${orgApi(orgId)}/projects${queryString({ page: 1, pageSize: 100, status: "active" })}`, {
        schema: ProjectPage,
      }),
    select: (page) => page.items.map((p) => ({ value: p.id, label: p.name })),
  });
