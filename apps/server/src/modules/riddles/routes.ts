import {
  errorMessage,
  OrgIdParams,
  RiddleAttemptList,
  RiddleBoard,
  RiddleClaim,
  RiddleParams,
  RiddleProjectParams,
  type RiddleStreamEvent,
  SubmitRiddleRequest,
} from "@moonport/contracts";
import { newId } from "@moonport/db";
import { GatewayError } from "../../chat/errors.ts";
import { abortOnClose } from "../../chat/send-chat-run.ts";
import type { AppContext } from "../../context.ts";
import type { EngineEvent } from "../../engines/types.ts";
import { type App, orgAccess, projectAccess } from "../../http/route.ts";
import { playgroundError } from "../playground/index.ts";
import { claimRiddleReward } from "./claim-riddle-reward.ts";
import { getRiddleBoard } from "./get-riddle-board.ts";
import { listRiddleAttempts } from "./list-riddle-attempts.ts";
import { failRiddleAttempt, judgeRiddleAttempt, startRiddleAttempt } from "./submit-riddle-attempt.ts";

const OWN = "only the caller's own progress, attempts and rewards";

/**
 * Riddle challenges for a signed-in player. Progress is the player's own in every organization; the organization
 * decides the day boundary (its edition's zone), the reward's currency and where the voucher goes; the project
 * is what a submission beyond the free quota is billed to.
 */
export default async function riddleRoutes(app: App, ctx: AppContext) {
  app.get(
    "/orgs/:orgId/riddles",
    {
      config: { access: "orgMember", objectRule: OWN },
      schema: { params: OrgIdParams, response: { 200: RiddleBoard } },
    },
    async (req) => getRiddleBoard({ ctx, access: orgAccess(req), locale: req.locale }),
  );

  app.get(
    "/orgs/:orgId/riddles/:riddleId/attempts",
    {
      config: { access: "orgMember", objectRule: OWN },
      schema: { params: RiddleParams, response: { 200: RiddleAttemptList } },
    },
    async (req) => listRiddleAttempts({ ctx, access: orgAccess(req), riddleId: req.params.riddleId }),
  );

  // Claiming adds money to the organization (a voucher), never takes any: every member may claim their own reward.
  app.post(
    "/orgs/:orgId/riddles/:riddleId/claim",
    {
      config: { access: "orgMember", objectRule: OWN },
      schema: { params: RiddleParams, response: { 200: RiddleClaim } },
    },
    async (req) => claimRiddleReward({ ctx, access: orgAccess(req), riddleId: req.params.riddleId }),
  );

  // A submission: refusals (locked, prompt rules, balance beyond the free quota) are console errors before any
  // byte; then a text/event-stream of RiddleStreamEvent: the answer's deltas, then the server's verdict.
  app.post(
    "/orgs/:orgId/projects/:projectId/riddles/:riddleId/attempts",
    {
      config: { access: "projectMember", objectRule: OWN },
      schema: { params: RiddleProjectParams, body: SubmitRiddleRequest },
    },
    async (req, reply) => {
      const requestId = newId("req");
      const signal = abortOnClose(reply.raw);
      const access = orgAccess(req);
      const started = await startRiddleAttempt({
        ctx,
        access,
        project: projectAccess(req),
        riddleId: req.params.riddleId,
        prompt: req.body.prompt,
        locale: req.locale,
        requestId,
        signal,
        onSettleError: (e) => req.log.error({ err: e }, "settle failed"),
      });
      const { run } = started;
      // Wait for the model's first event before the head goes out: a failure before the first byte (an upstream
      // error, a timeout) is still a console error in the user's language, and the attempt gives its slot back.
      const events = run.events[Symbol.asyncIterator]();
      let first: IteratorResult<EngineEvent>;
      try {
        first = await events.next();
      } catch (e) {
        await run.settle(signal.aborted ? "client_closed" : "upstream_error");
        await failRiddleAttempt(ctx, started.attemptId);
        throw e instanceof GatewayError ? playgroundError(e) : e;
      }
      const res = reply.raw;
      reply.hijack();
      res.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        "msh-request-id": requestId,
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache",
        connection: "keep-alive",
        "x-accel-buffering": "no",
      });
      const send = (ev: RiddleStreamEvent) => {
        if (!res.writableEnded) res.write(`data: ${JSON.stringify(ev)}\n\n`);
      };
      let answer = "";
      try {
        for (let next = first; !next.done; next = await events.next()) {
          const ev = next.value;
          if (ev.type === "delta" && ev.choice === 0 && ev.content) {
            answer += ev.content;
            send({ type: "delta", content: ev.content });
          }
        }
      } catch (e) {
        await run.settle(signal.aborted ? "client_closed" : "upstream_error");
        await failRiddleAttempt(ctx, started.attemptId);
        if (!(e instanceof GatewayError)) req.log.error({ err: e, requestId }, "riddle run failed");
        // A failure mid-stream: the head is gone, so the reason travels as the stream's last event.
        const err =
          e instanceof GatewayError
            ? playgroundError(e)
            : { code: "playground_model_failed" as const, params: { reason: "-" } };
        send({ type: "error", message: errorMessage(err.code, req.locale, err.params) });
        res.end();
        return;
      }
      await run.settle(signal.aborted ? "client_closed" : "ok");
      if (signal.aborted) {
        await failRiddleAttempt(ctx, started.attemptId);
        return;
      }
      const verdict = await judgeRiddleAttempt({ ctx, userId: access.userId, started, answer, locale: req.locale });
      send({ type: "verdict", ...verdict });
      res.end();
    },
  );
}
