import { OkResponse } from "@moonport/contracts";
import { orgApi, useOrgMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";

/** DELETE /api/orgs/:orgId/api-keys/:id */
export const useDeleteApiKey = (orgId: string) =>
  useOrgMutation(orgId, (id: string) =>
    api(`${orgApi(orgId)}/api-keys/${encodeURIComponent(id)}`, { method: "DELETE", schema: OkResponse }),
  );
