import { UsageLimits } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { orgApi } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { usageKeys } from "./query-keys.ts";

/** GET /api/orgs/:orgId/limits */
export const limitsQuery = (orgId: string) =>
  queryOptions({
    queryKey: usageKeys.limits(orgId),
    queryFn: () => api(`${orgApi(orgId)}/limits`, { schema: UsageLimits }),
  });
