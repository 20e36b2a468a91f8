import { BillExport, BillExportList, type CreateBillExportRequest } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { orgApi, queryString, useOrgMutation } from "../../../components/console-kit/org-api.ts";
import { api, apiBlob } from "../../../lib/api.ts";
import { billKeys } from "./query-keys.ts";

/** GET /api/orgs/:orgId/bill-exports — polled while an export is pending. */
export const billExportsQuery = (orgId: string, page: number) =>
  queryOptions({
    queryKey: billKeys.exports(orgId, page),
    queryFn: () =>
      api(`${orgApi(orgId)}/bill-exports${queryString({ page, pageSize: 20 })}`, { schema: BillExportList }),
    refetchInterval: (q) => (q.state.data?.items.some((e) => e.status === "pending") ? 2000 : false),
  });

/** POST /api/orgs/:orgId/bill-exports */
export function useCreateBillExport(orgId: string) {
  return useOrgMutation(orgId, (body: CreateBillExportRequest) =>
    api(`${orgApi(orgId)}/bill-exports`, { body, schema: BillExport }),
  );
}

/**
 * Downloads an export through the request layer (so a refusal shows the §8 message instead of a JSON page) and hands the file
 * to the browser.
 */
export async function downloadBillExport(orgId: string, exp: { id: string; fileName: string }) {
  const url = URL.createObjectURL(
    await apiBlob(`${orgApi(orgId)}/bill-exports/${encodeURIComponent(exp.id)}/download`),
  );
  const a = document.createElement("a");
  a.href = url;
  a.download = exp.fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
