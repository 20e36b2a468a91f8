import { InvitationPreview } from "@moonport/contracts";
import { queryOptions } from "@tanstack/react-query";
import { api } from "../../../lib/api.ts";
import { memberKeys } from "./query-keys.ts";

/** GET /api/invitations/:token (anyone with the link) */
export const invitationQuery = (token: string) =>
  queryOptions({
    queryKey: memberKeys.invitation(token),
    queryFn: () => api(`/api/invitations/${encodeURIComponent(token)}`, { schema: InvitationPreview }),
    retry: false,
  });
