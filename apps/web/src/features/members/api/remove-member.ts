import { OkResponse } from "@moonport/contracts";
import { orgApi, useOrgMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";

/** DELETE /api/orgs/:orgId/members/:userId */
export const useRemoveMember = (orgId: string) =>
  useOrgMutation(orgId, (userId: string) =>
    api(`${orgApi(orgId)}/members/${encodeURIComponent(userId)}`, { method: "DELETE", schema: OkResponse }),
  );
