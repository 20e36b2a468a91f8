import { OkResponse } from "@moonport/contracts";
import { orgApi, useOrgMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";

/** DELETE /api/orgs/:orgId/invitations/:id */
export const useRevokeInvitation = (orgId: string) =>
  useOrgMutation(orgId, (id: string) =>
    api(`${orgApi(orgId)}/invitations/${encodeURIComponent(id)}`, { method: "DELETE", schema: OkResponse }),
  );
