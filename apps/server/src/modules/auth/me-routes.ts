import {
  BindPhoneRequest,
  ChangePasswordRequest,
  ChangeUsernameRequest,
  MeWithOrgs,
  SessionIdParams,
  SessionInfo,
  SetCurrentOrgRequest,
} from "@moonport/contracts";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { type App, callerAuth } from "../../http/route.ts";
import { clearSessionCookies } from "../../http/session.ts";
import { bindPhone } from "./bind-phone.ts";
import { changePassword } from "./change-password.ts";
import { changeUsername } from "./change-username.ts";
import { getMe } from "./get-me.ts";
import { listSessions, revokeSession } from "./sessions.ts";
import { setCurrentOrg } from "./set-current-org.ts";

/** The signed-in user's own account: profile, security settings, sessions, current organization. */
export default async function meRoutes(app: App, ctx: AppContext) {
  app.get("/me", { config: { access: "user" }, schema: { response: { 200: MeWithOrgs } } }, async (req) =>
    getMe({ db: ctx.db, userId: callerAuth(req).userId }),
  );

  app.put(
    "/me/current-org",
    { config: { access: "user" }, schema: { body: SetCurrentOrgRequest, response: { 200: MeWithOrgs } } },
    async (req) => setCurrentOrg({ ctx, userId: callerAuth(req).userId, orgId: req.body.orgId }),
  );

  app.get(
    "/me/sessions",
    { config: { access: "user" }, schema: { response: { 200: z.array(SessionInfo) } } },
    async (req) => {
      const auth = callerAuth(req);
      return listSessions({ ctx, userId: auth.userId, currentSessionId: auth.sessionId });
    },
  );

  app.delete(
    "/me/sessions/:id",
    { config: { access: "user" }, schema: { params: SessionIdParams, response: { 204: z.null() } } },
    async (req, reply) => {
      const auth = callerAuth(req);
      await revokeSession({ ctx, userId: auth.userId, sessionId: req.params.id });
      // Revoking the session in use is signing out.
      if (req.params.id === auth.sessionId) clearSessionCookies(req, reply);
      return reply.status(204).send(null);
    },
  );

  app.put(
    "/me/username",
    { config: { access: "user" }, schema: { body: ChangeUsernameRequest, response: { 200: MeWithOrgs } } },
    async (req) => changeUsername({ ctx, userId: callerAuth(req).userId, username: req.body.username }),
  );

  app.put(
    "/me/password",
    { config: { access: "user" }, schema: { body: ChangePasswordRequest, response: { 204: z.null() } } },
    async (req, reply) => {
      const auth = callerAuth(req);
      await changePassword({
        ctx,
        userId: auth.userId,
        sessionId: auth.sessionId,
        currentPassword: req.body.currentPassword,
        newPassword: req.body.newPassword,
      });
      return reply.status(204).send(null);
    },
  );

  app.put(
    "/me/phone",
    { config: { access: "user" }, schema: { body: BindPhoneRequest, response: { 200: MeWithOrgs } } },
    async (req) =>
      bindPhone({
        ctx,
        userId: callerAuth(req).userId,
        oldCode: req.body.oldCode,
        newPhone: req.body.newPhone,
        newCode: req.body.newCode,
      }),
  );
}
