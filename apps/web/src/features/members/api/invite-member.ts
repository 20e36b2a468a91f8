import { type InviteMemberRequest, InviteMemberResponse } from "@moonport/contracts";
import { orgApi, useOrgMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";

/** POST /api/orgs/:orgId/invitations (answers the invitation link path) */
export const useInviteMember = (orgId: string) =>
  useOrgMutation(orgId, (body: InviteMemberRequest) =>
    api(`${orgApi(orgId)}/invitations`, { body, schema: InviteMemberResponse }),
  );
