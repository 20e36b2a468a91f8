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
import type { App } from "../../http/route.ts";
import { requireUser } from "../../http/session.ts";
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
    { schema: { params: OrgIdParams, querystring: PageQuery, response: { 200: MemberPage } } },
    async (req) => listMembers({ ctx, userId: requireUser(req).userId, orgId: req.params.orgId, ...req.query }),
  );

  app.post(
    "/orgs/:orgId/invitations",
    { schema: { params: OrgIdParams, body: InviteMemberRequest, response: { 201: InviteMemberResponse } } },
    async (req, reply) => {
      const { userId } = requireUser(req);
      reply.status(201);
      return inviteMember({ ctx, userId, orgId: req.params.orgId, ...req.body });
    },
  );

  app.delete(
    "/orgs/:orgId/invitations/:invitationId",
    { schema: { params: InvitationParams, response: { 200: OkResponse } } },
    async (req) => {
      await revokeInvitation({ ctx, userId: requireUser(req).userId, ...req.params });
      return { ok: true as const };
    },
  );

  app.post(
    "/orgs/:orgId/invitations/:invitationId/resend",
    { schema: { params: InvitationParams, response: { 200: InviteMemberResponse } } },
    async (req) => resendInvitation({ ctx, userId: requireUser(req).userId, ...req.params }),
  );

  app.patch(
    "/orgs/:orgId/members/:userId",
    { schema: { params: MemberParams, body: UpdateMemberRequest, response: { 200: OkResponse } } },
    async (req) => {
      await updateMember({
        ctx,
        userId: requireUser(req).userId,
        orgId: req.params.orgId,
        memberUserId: req.params.userId,
        ...req.body,
      });
      return { ok: true as const };
    },
  );

  app.delete(
    "/orgs/:orgId/members/:userId",
    { schema: { params: MemberParams, response: { 200: OkResponse } } },
    async (req) => {
      await removeMember({
        ctx,
        userId: requireUser(req).userId,
        orgId: req.params.orgId,
        memberUserId: req.params.userId,
      });
      return { ok: true as const };
    },
  );

  app.get(
    "/invitations/:token",
    { schema: { params: InvitationTokenParams, response: { 200: InvitationPreview } } },
    async (req) => getInvitation({ ctx, token: req.params.token, userId: req.auth?.userId }),
  );

  for (const answer of ["accept", "decline"] as const) {
    app.post(
      `/invitations/:token/${answer}`,
      { schema: { params: InvitationTokenParams, response: { 200: AcceptInvitationResponse } } },
      async (req) => respondToInvitation({ ctx, userId: requireUser(req).userId, token: req.params.token, answer }),
    );
  }
}
