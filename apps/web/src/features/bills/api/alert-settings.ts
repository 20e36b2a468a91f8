import { AlertSettings, type UpdateAlertSettingsRequest } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { orgApi, useOrgMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";
import { billKeys } from "./query-keys.ts";

/** GET /api/orgs/:orgId/alerts */
export const alertSettingsQuery = (orgId: string) =>
  queryOptions({
    queryKey: billKeys.alerts(orgId),
    queryFn: () => api(`${orgApi(orgId)}/alerts`, { schema: AlertSettings }),
  });

/** PUT /api/orgs/:orgId/alerts */
export function useUpdateAlertSettings(orgId: string) {
  return useOrgMutation(orgId, (body: UpdateAlertSettingsRequest) =>
    api(`${orgApi(orgId)}/alerts`, { method: "PUT", body, schema: AlertSettings }),
  );
}
