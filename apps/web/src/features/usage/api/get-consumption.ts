import { Consumption } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { orgApi, queryString } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { usageKeys } from "./query-keys.ts";

/** GET /api/orgs/:orgId/consumption?granularity=&period= */
export const consumptionQuery = (orgId: string, granularity: "year" | "month", period: string) =>
  queryOptions({
    queryKey: usageKeys.consumption(orgId, granularity, period),
    queryFn: () => api(`${orgApi(orgId)}/consumption${queryString({ granularity, period })}`, { schema: Consumption }),
  });
