import { UsageLimits } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { orgApi } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { playgroundKeys } from "./query-keys.ts";

/** GET /api/orgs/:orgId/limits: the tier's limits, so that compare mode never asks for more runs than it may. */
export const playgroundLimitsQuery = (orgId: string) =>
  queryOptions({
    queryKey: playgroundKeys.limits(orgId),
    queryFn: () => api(`${orgApi(orgId)}/limits`, { schema: UsageLimits }),
    staleTime: 60_000,
  });
