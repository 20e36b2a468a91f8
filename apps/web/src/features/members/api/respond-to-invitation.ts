import { AcceptInvitationResponse } from "@moonport/contracts";
import { useInvalidatingMutation } from "../../../components/console-kit/org-api.ts";
import { api } from "../../../lib/api.ts";

/** POST /api/invitations/:token/accept|decline: joining changes the user's organizations, so refresh everything. */
export const useRespondToInvitation = (token: string) =>
  useInvalidatingMutation([], (answer: "accept" | "decline") =>
    api(`/api/invitations/${encodeURIComponent(token)}/${answer}`, { body: {}, schema: AcceptInvitationResponse }),
  );
