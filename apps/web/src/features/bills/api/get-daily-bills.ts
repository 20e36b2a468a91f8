import { DailyBills } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { orgApi, queryString } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { billKeys } from "./query-keys.ts";

/** GET /api/orgs/:orgId/bills/daily?from=&to= (refreshed every minute: today's figures are live). */
export const dailyBillsQuery = (orgId: string, from: string, to: string) =>
  queryOptions({
    queryKey: billKeys.daily(orgId, from, to),
    queryFn: () => api(`${orgApi(orgId)}/bills/daily${queryString({ from, to })}`, { schema: DailyBills }),
    refetchInterval: 60_000,
  });
