import { ApiKeyPage } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { orgApi, queryString } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { apiKeyKeys } from "./query-keys.ts";

/** GET /api/orgs/:orgId/api-keys?page=&pageSize=&projectId= */
export const apiKeysQuery = (orgId: string, page: number, pageSize: number, projectId?: string) =>
  queryOptions({
    queryKey: apiKeyKeys.list(orgId, page, pageSize, projectId),
    queryFn: () =>
      api(`${orgApi(orgId)}/api-keys${queryString({ page, pageSize, projectId })}`, { schema: ApiKeyPage }),
  });
