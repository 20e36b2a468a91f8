import {
  CreatePlaygroundSessionRequest,
  OkResponse,
  PageQuery,
  PlaygroundBillParams,
  PlaygroundChatRequest,
  PlaygroundRunBill,
  PlaygroundSession,
  PlaygroundSessionPage,
  PlaygroundSessionParams,
  ProjectParams,
  UpdatePlaygroundSessionRequest,
} from "@moonport/contracts";
import { newTimeOrderedId } from "@moonport/db";
import { GatewayError } from "../../chat/errors.ts";
import { abortOnClose, sendChatRun } from "../../chat/send-chat-run.ts";
import type { AppContext } from "../../context.ts";
import { type App, orgAccess, projectAccess } from "../../http/route.ts";
import { createPlaygroundSession } from "./create-playground-session.ts";
import { deletePlaygroundSession } from "./delete-playground-session.ts";
import { getPlaygroundRunBill } from "./get-playground-run-bill.ts";
import { getPlaygroundSession } from "./get-playground-session.ts";
import { listPlaygroundSessions } from "./list-playground-sessions.ts";
import { playgroundError } from "./playground-error.ts";
import { startPlaygroundChat } from "./run-playground-chat.ts";
import { updatePlaygroundSession } from "./update-playground-session.ts";

/** Vision images travel base64 inside the messages, as on /v1 (docs/api-compat.md §2.3: up to 100 MB). */
const RUN_BODY_LIMIT = 100 * 1024 * 1024;
const OWN = "only the caller's own sessions";

export default async function playgroundRoutes(app: App, ctx: AppContext) {
  const base = "/orgs/:orgId/projects/:projectId/playground";

  // A run: the /v1 chat completion for a signed-in member (CSRF-checked like every console write). The answer
  // is the §2.7 JSON or the §2.8 stream, exactly as /v1 sends it; refusals are console errors.
  app.post(
    `${base}/chat`,
    {
      bodyLimit: RUN_BODY_LIMIT,
      config: { access: "projectMember" },
      schema: { params: ProjectParams, body: PlaygroundChatRequest },
    },
    async (req, reply) => {
      // Time-ordered: the run's bill is looked up from its start (get-playground-run-bill.ts).
      const requestId = newTimeOrderedId("req");
      reply.header("msh-request-id", requestId);
      const signal = abortOnClose(reply.raw);
      const run = await startPlaygroundChat({
        ctx,
        access: orgAccess(req),
        project: projectAccess(req),
        body: req.body,
        requestId,
        signal,
        onSettleError: (e) => req.log.error({ err: e }, "settle failed"),
      });
      try {
        return await sendChatRun({
          run,
          reply,
          signal,
          onStreamError: (e) => req.log.error({ err: e, requestId }, "playground stream failed"),
        });
      } catch (e) {
        throw e instanceof GatewayError ? playgroundError(e) : e;
      }
    },
  );

  app.get(
    `${base}/bills/:requestId`,
    {
      config: { access: "projectMember", objectRule: "only the caller's own playground runs" },
      schema: { params: PlaygroundBillParams, response: { 200: PlaygroundRunBill } },
    },
    async (req) =>
      getPlaygroundRunBill({
        ctx,
        access: orgAccess(req),
        project: projectAccess(req),
        requestId: req.params.requestId,
      }),
  );

  app.get(
    `${base}/sessions`,
    {
      config: { access: "projectMember", objectRule: OWN },
      schema: { params: ProjectParams, querystring: PageQuery, response: { 200: PlaygroundSessionPage } },
    },
    async (req) => listPlaygroundSessions({ ctx, access: orgAccess(req), project: projectAccess(req), ...req.query }),
  );

  app.post(
    `${base}/sessions`,
    {
      config: { access: "projectMember", objectRule: OWN },
      schema: {
        params: ProjectParams,
        body: CreatePlaygroundSessionRequest,
        response: { 201: PlaygroundSession },
      },
    },
    async (req, reply) => {
      const session = await createPlaygroundSession({
        ctx,
        access: orgAccess(req),
        project: projectAccess(req),
        ...req.body,
      });
      reply.status(201);
      return session;
    },
  );

  app.get(
    `${base}/sessions/:sessionId`,
    {
      config: { access: "projectMember", objectRule: OWN },
      schema: { params: PlaygroundSessionParams, response: { 200: PlaygroundSession } },
    },
    async (req) =>
      getPlaygroundSession({
        ctx,
        access: orgAccess(req),
        project: projectAccess(req),
        sessionId: req.params.sessionId,
      }),
  );

  app.patch(
    `${base}/sessions/:sessionId`,
    {
      config: { access: "projectMember", objectRule: OWN },
      schema: {
        params: PlaygroundSessionParams,
        body: UpdatePlaygroundSessionRequest,
        response: { 200: PlaygroundSession },
      },
    },
    async (req) =>
      updatePlaygroundSession({
        ctx,
        access: orgAccess(req),
        project: projectAccess(req),
        sessionId: req.params.sessionId,
        changes: req.body,
      }),
  );

  app.delete(
    `${base}/sessions/:sessionId`,
    {
      config: { access: "projectMember", objectRule: OWN },
      schema: { params: PlaygroundSessionParams, response: { 200: OkResponse } },
    },
    async (req) =>
      deletePlaygroundSession({
        ctx,
        access: orgAccess(req),
        project: projectAccess(req),
        sessionId: req.params.sessionId,
      }),
  );
}
