import {
  AcceptInvitationResponse,
  InvitationParams,
  InvitationPreview,
  InvitationTokenParams,
  InviteMemberRequest,
  InviteMemberResponse,
  MemberPage,
  MemberParams,
  OkResponse,
  OrgIdParams,
  PageQuery,
  UpdateMemberRequest,
} from "@moonport/contracts";
import type { AppContext } from "../../context.ts";
import { type App, callerAuth, orgAccess } from "../../http/route.ts";
import { getInvitation } from "./get-invitation.ts";
import { inviteMember } from "./invite-member.ts";
import { listMembers } from "./list-members.ts";
import { removeMember } from "./remove-member.ts";
import { resendInvitation } from "./resend-invitation.ts";
import { respondToInvitation } from "./respond-to-invitation.ts";
import { revokeInvitation } from "./revoke-invitation.ts";
import { updateMember } from "./update-member.ts";

export default async function memberRoutes(app: App, ctx: AppContext) {
  app.get(
    "/orgs/:orgId/members",
    {
      config: { access: "orgAdmin" },
      schema: { params: OrgIdParams, querystring: PageQuery, response: { 200: MemberPage } },
    },
    async (req) => listMembers({ ctx, access: orgAccess(req), ...req.query }),
  );

  app.post(
    "/orgs/:orgId/invitations",
    {
      config: { access: "orgAdmin" },
      schema: { params: OrgIdParams, body: InviteMemberRequest, response: { 201: InviteMemberResponse } },
    },
    async (req, reply) => {
      const access = orgAccess(req);
      reply.status(201);
      return inviteMember({ ctx, access, ...req.body });
    },
  );

  app.delete(
    "/orgs/:orgId/invitations/:invitationId",
    { config: { access: "orgAdmin" }, schema: { params: InvitationParams, response: { 200: OkResponse } } },
    async (req) => {
      await revokeInvitation({ ctx, access: orgAccess(req), invitationId: req.params.invitationId });
      return { ok: true as const };
    },
  );

  app.post(
    "/orgs/:orgId/invitations/:invitationId/resend",
    { config: { access: "orgAdmin" }, schema: { params: InvitationParams, response: { 200: InviteMemberResponse } } },
    async (req) => resendInvitation({ ctx, access: orgAccess(req), invitationId: req.params.invitationId }),
  );

  app.patch(
    "/orgs/:orgId/members/:userId",
    {
      config: { access: "orgAdmin" },
      schema: { params: MemberParams, body: UpdateMemberRequest, response: { 200: OkResponse } },
    },
    async (req) => {
      await updateMember({ ctx, access: orgAccess(req), memberUserId: req.params.userId, ...req.body });
      return { ok: true as const };
    },
  );

  app.delete(
    "/orgs/:orgId/members/:userId",
    { config: { access: "orgAdmin" }, schema: { params: MemberParams, response: { 200: OkResponse } } },
    async (req) => {
      await removeMember({ ctx, access: orgAccess(req), memberUserId: req.params.userId });
      return { ok: true as const };
    },
  );

  // The token is the secret: anyone holding the link may read what it invites to.
  app.get(
    "/invitations/:token",
    { config: { access: "public" }, schema: { params: InvitationTokenParams, response: { 200: InvitationPreview } } },
    async (req) => getInvitation({ ctx, token: req.params.token, userId: req.auth?.userId }),
  );

  for (const answer of ["accept", "decline"] as const) {
    app.post(
      `/invitations/:token/${answer}`,
      {
        config: { access: "user", objectRule: "only the user whose bound phone was invited" },
        schema: { params: InvitationTokenParams, response: { 200: AcceptInvitationResponse } },
      },
      async (req) => respondToInvitation({ ctx, userId: callerAuth(req).userId, token: req.params.token, answer }),
    );
  }
}
