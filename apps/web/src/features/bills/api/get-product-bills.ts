import { ProductBills } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { orgApi, queryString } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { billKeys } from "./query-keys.ts";

/** GET /api/orgs/:orgId/bills/products?from=&to= */
export const productBillsQuery = (orgId: string, from: string, to: string) =>
  queryOptions({
    queryKey: billKeys.products(orgId, from, to),
    queryFn: () => api(`${orgApi(orgId)}/bills/products${queryString({ from, to })}`, { schema: ProductBills }),
    refetchInterval: 60_000,
  });
