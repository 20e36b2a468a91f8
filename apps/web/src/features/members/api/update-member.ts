import { OkResponse, type UpdateMemberRequest } from "@moonport/contracts";
import { orgApi, useOrgMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";

/** PATCH /api/orgs/:orgId/members/:userId (nickname, role) */
export const useUpdateMember = (orgId: string) =>
  useOrgMutation(orgId, ({ userId, ...body }: UpdateMemberRequest & { userId: string }) =>
    api(`${orgApi(orgId)}/members/${encodeURIComponent(userId)}`, { method: "PATCH", body, schema: OkResponse }),
  );
