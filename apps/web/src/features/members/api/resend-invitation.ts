import { InviteMemberResponse } from "@moonport/contracts";
import { orgApi, useOrgMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";

/** POST /api/orgs/:orgId/invitations/:id/resend: a fresh link for a pending invitation; the old link stops working. */
export const useResendInvitation = (orgId: string) =>
  useOrgMutation(orgId, (id: string) =>
    api(`${orgApi(orgId)}/invitations/${encodeURIComponent(id)}/resend`, { body: {}, schema: InviteMemberResponse }),
  );
