import { OrgOverview } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { orgApi } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { usageKeys } from "./query-keys.ts";

/** GET /api/orgs/:orgId/overview */
export const overviewQuery = (orgId: string) =>
  queryOptions({
    queryKey: usageKeys.overview(orgId),
    queryFn: () => api(`${orgApi(orgId)}/overview`, { schema: OrgOverview }),
  });
