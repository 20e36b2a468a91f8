import { FilePage } from "@moonport/contracts";
import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { orgApi, queryString } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { fileKeys } from "./query-keys.ts";

/**
 * GET /api/orgs/:orgId/files?q=&page=&pageSize= — the page, its total and the organization's usage. While a file
 * is still being extracted the list refreshes every few seconds, so its status changes without a reload.
 */
export const filesQuery = (orgId: string, q: string, page: number, pageSize: number) =>
  queryOptions({
    queryKey: fileKeys.list(orgId, q, page, pageSize),
    queryFn: () => api(`${orgApi(orgId)}/files${queryString({ q, page, pageSize })}`, { schema: FilePage }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((f) => f.status === "processing") ? 2000 : false),
  });
