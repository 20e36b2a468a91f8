import { type CreateApiKeyRequest, CreateApiKeyResponse } from "@moonport/contracts";
import { orgApi, useOrgMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";

/** POST /api/orgs/:orgId/api-keys (the answer holds the secret, shown once) */
export const useCreateApiKey = (orgId: string) =>
  useOrgMutation(orgId, (body: CreateApiKeyRequest) =>
    api(`${orgApi(orgId)}/api-keys`, { body, schema: CreateApiKeyResponse }),
  );
