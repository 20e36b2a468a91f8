import { RequestDetails } from "@moonport/contracts";
import { infiniteQueryOptions } from "@tanstack/react-query";
import { orgApi, queryString } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { billKeys } from "./query-keys.ts";

/** GET /api/orgs/:orgId/bills/requests?from=&to=&cursor= — keyset pages, "Load more" appends the next. */
export const requestDetailsQuery = (orgId: string, from: string, to: string) =>
  infiniteQueryOptions({
    queryKey: billKeys.requests(orgId, from, to),
    queryFn: ({ pageParam }) =>
      api(`${orgApi(orgId)}/bills/requests${queryString({ from, to, cursor: pageParam, limit: 50 })}`, {
        schema: RequestDetails,
      }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
