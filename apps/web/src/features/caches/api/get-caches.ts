import { CachePage } from "@moonport/contracts";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { orgApi, queryString } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { cacheKeys } from "./query-keys.ts";

/**
 * GET /api/orgs/:orgId/context-caches?page=&pageSize= — the caches with their figures, the savings summary and the
 * organization's TPM limit. A pending cache becomes ready within seconds: the page refreshes while one is pending.
 */
export const cachesQuery = (orgId: string, page: number, pageSize: number) =>
  queryOptions({
    queryKey: cacheKeys.list(orgId, page, pageSize),
    queryFn: () => api(`${orgApi(orgId)}/context-caches${queryString({ page, pageSize })}`, { schema: CachePage }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((c) => c.status === "pending") ? 3000 : false),
  });
