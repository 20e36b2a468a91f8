import {
  DevSmsMessage,
  DevSmsOutboxQuery,
  MeWithOrgs,
  resolveEdition,
  SendSmsRequest,
  SendSmsResponse,
  SessionState,
  SetupRequest,
  SetupStatus,
  SignInByPasswordRequest,
  SignInBySmsRequest,
  SignUpByPasswordRequest,
  SignUpByPhoneRequest,
} from "@moonport/contracts";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { App, FastifyRequest } from "../../http/route.ts";
import { clientInfo, endSession, setSessionCookies } from "../../http/session.ts";
import { AppError } from "../../lib/app-error.ts";
import { listDevSms } from "./dev-outbox.ts";
import { issueSetupToken, operatorExists, setupOperator } from "./operator.ts";
import { sendSmsCode } from "./send-sms-code.ts";
import { signInByPassword, signInBySms } from "./sign-in.ts";
import { signUpByPassword, signUpByPhone } from "./sign-up.ts";

/** The edition a new account's organization belongs to: the host in two-host mode, else the locale. */
function requestEdition(ctx: AppContext, req: FastifyRequest) {
  return resolveEdition({ host: req.headers.host, locale: req.locale, hosts: ctx.config.sites });
}

/** Sign-up, sign-in, sign-out, SMS codes, the operator setup link and (DEV_SEAMS) the SMS outbox. */
export default async function authRoutes(app: App, ctx: AppContext) {
  app.post(
    "/auth/sms",
    { config: { access: "public" }, schema: { body: SendSmsRequest, response: { 200: SendSmsResponse } } },
    async (req) =>
      sendSmsCode({
        ctx,
        purpose: req.body.purpose,
        phone: req.body.phone,
        userId: req.auth?.userId,
        ip: req.ip,
        locale: req.locale,
      }),
  );

  app.post(
    "/auth/signup/password",
    { config: { access: "public" }, schema: { body: SignUpByPasswordRequest, response: { 200: MeWithOrgs } } },
    async (req, reply) => {
      const r = await signUpByPassword({
        ctx,
        username: req.body.username,
        password: req.body.password,
        edition: requestEdition(ctx, req),
        locale: req.locale,
        client: clientInfo(req),
      });
      setSessionCookies(req, reply, r.session);
      return r.me;
    },
  );

  app.post(
    "/auth/signup/phone",
    { config: { access: "public" }, schema: { body: SignUpByPhoneRequest, response: { 200: MeWithOrgs } } },
    async (req, reply) => {
      const r = await signUpByPhone({
        ctx,
        phone: req.body.phone,
        code: req.body.code,
        username: req.body.username,
        password: req.body.password,
        edition: requestEdition(ctx, req),
        locale: req.locale,
        client: clientInfo(req),
      });
      setSessionCookies(req, reply, r.session);
      return r.me;
    },
  );

  app.post(
    "/auth/signin",
    { config: { access: "public" }, schema: { body: SignInByPasswordRequest, response: { 200: MeWithOrgs } } },
    async (req, reply) => {
      const r = await signInByPassword({
        ctx,
        username: req.body.username,
        password: req.body.password,
        client: clientInfo(req),
      });
      setSessionCookies(req, reply, r.session);
      return r.me;
    },
  );

  app.post(
    "/auth/signin/sms",
    { config: { access: "public" }, schema: { body: SignInBySmsRequest, response: { 200: MeWithOrgs } } },
    async (req, reply) => {
      const r = await signInBySms({ ctx, phone: req.body.phone, code: req.body.code, client: clientInfo(req) });
      setSessionCookies(req, reply, r.session);
      return r.me;
    },
  );

  // The public pages' header asks this (not /api/me, whose 401 would be a console error for every visitor).
  app.get(
    "/auth/session",
    { config: { access: "public" }, schema: { response: { 200: SessionState } } },
    async (req) => ({ signedIn: req.auth !== null }),
  );

  app.post(
    "/auth/signout",
    { config: { access: "public" }, schema: { response: { 204: z.null() } } },
    async (req, reply) => {
      await endSession({ db: ctx.db, req, reply, now: ctx.clock.now() });
      return reply.status(204).send(null);
    },
  );

  app.get("/setup/status", { config: { access: "public" }, schema: { response: { 200: SetupStatus } } }, async () => ({
    operatorExists: await operatorExists(ctx.db),
  }));

  app.post(
    "/setup",
    { config: { access: "public" }, schema: { body: SetupRequest, response: { 200: MeWithOrgs } } },
    async (req, reply) => {
      const r = await setupOperator({
        ctx,
        token: req.body.token,
        username: req.body.username,
        password: req.body.password,
        edition: requestEdition(ctx, req),
        locale: req.locale,
        client: clientInfo(req),
      });
      setSessionCookies(req, reply, r.session);
      return r.me;
    },
  );

  // Development seam (DEV_SEAMS=true, loopback clients only): the codes the dev SMS provider "sent".
  if (ctx.config.devSeams) {
    app.get(
      "/dev/sms-outbox",
      {
        config: { access: "public", loopbackOnly: true },
        schema: { querystring: DevSmsOutboxQuery, response: { 200: z.array(DevSmsMessage) } },
      },
      async (req) => listDevSms({ ctx, phone: req.query.phone }),
    );
    // A fresh one-time setup link's token while no operator exists (what the server prints at start), so the
    // browser tests can create the operator through the real /setup page.
    app.post(
      "/dev/setup-token",
      {
        config: { access: "public", loopbackOnly: true },
        schema: { response: { 200: z.object({ token: z.string() }) } },
      },
      async () => {
        const token = await issueSetupToken({ db: ctx.db, now: ctx.clock.now() });
        if (!token) throw new AppError("conflict", { params: { reason: "an operator already exists" } });
        return { token };
      },
    );
  }
}
