import { ApiKeyRow, type UpdateApiKeyRequest } from "@moonport/contracts";
import { orgApi, useOrgMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";

/** PATCH /api/orgs/:orgId/api-keys/:id (name, status) */
export const useUpdateApiKey = (orgId: string) =>
  useOrgMutation(orgId, ({ id, ...body }: UpdateApiKeyRequest & { id: string }) =>
    api(`${orgApi(orgId)}/api-keys/${encodeURIComponent(id)}`, { method: "PATCH", body, schema: ApiKeyRow }),
  );
