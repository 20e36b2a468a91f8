/**
 * The /v1 gateway: OpenAI-compatible routes with the error envelope, statuses and messages of docs/api-compat.md §3.
 * No cookies, sessions or CSRF here; a Bearer key is the only credential. Every response carries
 * `Msh-Request-Id`/`x-request-id` and `Server-Timing: gateway;dur=<ms>` (time spent in the gateway itself,
 * engine time excluded).
 */
import { pipeline as pipeStreams } from "node:stream";
import { MODELS } from "@moonport/contracts";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { parseChatRequest } from "../chat/chat-request.ts";
import { GatewayError, gatewayErrors } from "../chat/errors.ts";
import { countPromptTokens } from "../chat/prompt-tokens.ts";
import { startChat } from "../chat/run-chat.ts";
import { abortOnDisconnect, sendChatRun } from "../chat/send-chat-run.ts";
import type { AppContext } from "../context.ts";
import type { EngineRouter } from "../engines/index.ts";
import type { App } from "../http/route.ts";
import type { GatewayPipeline, KeyIdentity } from "../metering/pipeline.ts";
import { namesContextCache, resolveCacheUse } from "../modules/caches/index.ts";
import cachingV1Routes from "../modules/caches/v1-routes.ts";
import fileV1Routes from "../modules/files/v1-routes.ts";
import formulaV1Routes from "../modules/tools/v1-routes.ts";
import { noteGatewayKey, recordGatewayTiming } from "../observability/index.ts";
import { balanceEnvelope } from "./balance.ts";
import { exceedsJsonDepth, limitJsonDepth, SCAN_AFTER_READ_LIMIT } from "./json-depth.ts";

/** Vision requests carry base64 images (docs/api-compat.md §2.3: up to 100 MB). */
const CHAT_BODY_LIMIT = 100 * 1024 * 1024;
const SMALL_BODY_LIMIT = 1024 * 1024;
/** Deepest JSON nesting a body may have; chat bodies need about 6 levels plus their tool schemas. */
export const MAX_JSON_DEPTH = 128;

declare module "fastify" {
  interface FastifyRequest {
    /**
     * /v1 only: when the gateway first saw the request (performance.now(); -1 before), and its key once checked.
     * Request decorations rather than WeakMaps: every /v1 request paid two WeakMap entries, which the garbage
     * collector must also process as ephemerons.
     */
    gatewayT0: number;
    gatewayKey: KeyIdentity | null;
  }
}

function timing(req: FastifyRequest, engineMs = 0): string {
  const now = performance.now();
  const ms = req.gatewayT0 < 0 ? 0 : Math.max(0, now - req.gatewayT0 - engineMs);
  recordGatewayTiming(req, ms, engineMs);
  return `gateway;dur=${ms.toFixed(2)}`;
}

/** req.id is a fresh UUID for every /v1 request (app.ts genReqId), never a client-supplied value. */
function requestIdOf(req: FastifyRequest): string {
  return req.id;
}

/** Fastify and parser errors → the gateway envelope; anything unexpected is a logged 500. */
function toGatewayError(err: FastifyError | Error, req: FastifyRequest): GatewayError {
  if (err instanceof GatewayError) return err;
  const fe = err as FastifyError;
  switch (fe.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return gatewayErrors.bodyTooLarge(req.routeOptions.bodyLimit ?? SMALL_BODY_LIMIT);
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return gatewayErrors.emptyBody();
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return gatewayErrors.invalidJson();
  }
  if (err instanceof SyntaxError || fe.code?.startsWith("FST_ERR_CTP")) return gatewayErrors.invalidJson();
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) return gatewayErrors.invalidRequest(fe.message);
  return gatewayErrors.serverError();
}

function sendError(err: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) {
  const g = toGatewayError(err, req);
  // Refused before its body was read (authentication, depth): close rather than read and discard the rest.
  if (!req.raw.complete) reply.header("connection", "close");
  if (g.status >= 500) req.log.error({ err, requestId: requestIdOf(req) }, "gateway error");
  reply.headers(g.headers);
  reply.header("server-timing", timing(req));
  return reply.status(g.status).send(g.toBody());
}

/** The /v1/models item: the Era-A fields plus context length and capabilities (docs/api-compat.md §8.1). */
function modelItem(m: (typeof MODELS)[number]) {
  return {
    id: m.id,
    object: "model",
    created: m.created,
    owned_by: "moonshot",
    root: m.id,
    parent: null,
    permission: [
      {
        id: `modelperm-${m.id}`,
        object: "model_permission",
        created: m.created,
        allow_create_engine: false,
        allow_sampling: true,
        allow_logprobs: false,
        allow_search_indices: false,
        allow_view: true,
        allow_fine_tuning: false,
        organization: "*",
        group: null,
        is_blocking: false,
      },
    ],
    context_length: m.contextWindow,
    supports_image_in: m.capabilities.vision,
    supports_video_in: false,
    supports_reasoning: m.capabilities.reasoning,
  };
}

export default async function gatewayRoutes(
  app: App,
  opts: { ctx: AppContext; pipeline: GatewayPipeline; engines: EngineRouter },
) {
  const { pipeline, engines } = opts;
  app.decorateRequest("gatewayT0", -1);
  app.decorateRequest("gatewayKey", null);
  const keyOf = (req: FastifyRequest): KeyIdentity => {
    const key = req.gatewayKey;
    if (!key) throw gatewayErrors.invalidAuthentication();
    return key;
  };

  const identified = (req: FastifyRequest, key: KeyIdentity) => {
    req.gatewayKey = key;
    noteGatewayKey(req, key);
  };
  // A callback hook: with the key cached, authentication is synchronous and costs no promise or microtask turn.
  app.addHook("onRequest", (req, reply, done) => {
    const id = requestIdOf(req);
    req.gatewayT0 = performance.now();
    reply.header("msh-request-id", id);
    reply.header("x-request-id", id);
    // The key is checked before any body is read (in-memory key cache): without a valid key nobody can make the
    // server buffer or parse a 100 MB body. Unknown paths are answered by the not-found handler.
    if (req.routeOptions.url === undefined) {
      done();
      return;
    }
    let key: KeyIdentity | Promise<KeyIdentity>;
    try {
      key = pipeline.authenticate(req.headers.authorization);
    } catch (e) {
      done(e as Error);
      return;
    }
    if (key instanceof Promise) {
      // A failure of `identified` reaches the error handler too, not an unhandled rejection.
      key.then((k) => identified(req, k)).then(() => done(), done);
    } else {
      identified(req, key);
      done();
    }
  });
  // A body nested deeper than any request needs is refused before JSON.parse sees it: a large body (or one of
  // unknown length) while it arrives, a small one (SCAN_AFTER_READ_LIMIT) by the parsers below once read.
  app.addHook("preParsing", (req, _reply, payload, done) => {
    const length = Number(req.headers["content-length"]);
    // The upload route reads its multipart stream itself (modules/files/v1-routes.ts); it is never JSON.
    if (length <= SCAN_AFTER_READ_LIMIT || (req.method === "POST" && req.routeOptions.url === "/v1/files")) {
      done(null, payload);
      return;
    }
    done(
      null,
      pipeStreams(
        payload,
        limitJsonDepth(MAX_JSON_DEPTH, () => gatewayErrors.tooDeep(MAX_JSON_DEPTH)),
        () => {},
      ),
    );
  });
  app.setErrorHandler(sendError);
  app.setNotFoundHandler((req, reply) =>
    sendError(gatewayErrors.routeNotFound(req.method, req.url.split("?")[0] ?? req.url), req, reply),
  );
  const tooDeep = (body: string) => body.length <= SCAN_AFTER_READ_LIMIT && exceedsJsonDepth(body, MAX_JSON_DEPTH);
  // Fastify's own JSON parser (prototype-poisoning checks included), after the depth check of small bodies.
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (req, body, done) => {
    // A DELETE takes no body; SDKs still send the JSON content type with nothing after it.
    if (body === "" && req.method === "DELETE") done(null, undefined);
    else if (tooDeep(body as string)) done(gatewayErrors.tooDeep(MAX_JSON_DEPTH), undefined);
    else parseJson(req, body as string, done);
  });
  // Clients that forget `Content-Type: application/json` (curl -d) still send JSON.
  app.addContentTypeParser("*", { parseAs: "string" }, (_req, body, done) => {
    if (tooDeep(body as string)) {
      done(gatewayErrors.tooDeep(MAX_JSON_DEPTH), undefined);
      return;
    }
    try {
      done(null, body === "" ? undefined : JSON.parse(body as string));
    } catch {
      done(gatewayErrors.invalidJson(), undefined);
    }
  });

  // Files API (docs/api-compat.md §4): its own scope for the multipart parser; the key check and envelope above apply.
  await app.register(fileV1Routes, { ctx: opts.ctx, keyOf });
  // Context caching (docs/api-compat.md §7.1).
  await app.register(cachingV1Routes, { ctx: opts.ctx, keyOf });
  // Official tools (docs/api-compat.md §9).
  await app.register(formulaV1Routes, { ctx: opts.ctx, keyOf });

  app.post("/chat/completions", { bodyLimit: CHAT_BODY_LIMIT }, async (req, reply) => {
    const key = keyOf(req);
    // An explicit context cache named by header or by a first `role: "cache"` message (modules/caches).
    const cache = namesContextCache(req.headers, req.body)
      ? await resolveCacheUse({ ctx: opts.ctx, key, headers: req.headers, body: req.body })
      : null;
    if (cache?.used) {
      reply.header("msh-context-cache-id", cache.used.id);
      reply.header("msh-context-cache-token-saved", String(cache.used.tokens));
      reply.header("msh-context-cache-token-exp", String(Math.floor(cache.used.expiredAt.getTime() / 1000)));
    }
    if (cache?.dryRun) {
      // Validated only: no inference, no tokens, nothing billed.
      reply.header("server-timing", timing(req));
      return {
        object: "context-cache.dry_run",
        cache_id: cache.cacheId,
        used: Boolean(cache.used),
        tokens_saved: cache.used?.tokens ?? 0,
      };
    }
    const signal = abortOnDisconnect(req.raw);
    const run = await startChat({
      meter: pipeline,
      engines,
      key,
      cacheScope: key.orgId,
      body: cache ? cache.body : req.body,
      requestId: requestIdOf(req),
      signal,
      onSettleError: (e) => req.log.error({ err: e }, "settle failed"),
      ...(cache?.used ? { contextCache: { id: cache.used.id, tokens: cache.used.tokens } } : {}),
    });
    return sendChatRun({
      run,
      reply,
      signal,
      onHead: () => reply.header("server-timing", timing(req, run.engineMs())),
      onStreamError: (e) => req.log.error({ err: e, requestId: requestIdOf(req) }, "stream failed"),
    });
  });

  app.post("/tokenizers/estimate-token-count", { bodyLimit: CHAT_BODY_LIMIT }, async (req, reply) => {
    keyOf(req);
    const body = req.body;
    const chat = parseChatRequest(body);
    const total = await countPromptTokens(chat.messages, chat.tools);
    reply.header("server-timing", timing(req));
    return { data: { total_tokens: total } };
  });

  app.get("/models", async (req, reply) => {
    keyOf(req);
    reply.header("server-timing", timing(req));
    return { object: "list", data: MODELS.filter((m) => m.listed).map(modelItem) };
  });

  app.get<{ Params: { id: string } }>("/models/:id", async (req, reply) => {
    keyOf(req);
    const m = MODELS.find((x) => x.listed && x.id === req.params.id);
    if (!m) throw gatewayErrors.modelNotFound(req.params.id);
    reply.header("server-timing", timing(req));
    return modelItem(m);
  });

  app.get("/users/me/balance", async (req, reply) => {
    const key = keyOf(req);
    const balance = await pipeline.balance(key.orgId);
    if (!balance) throw gatewayErrors.invalidAuthentication();
    reply.header("server-timing", timing(req));
    return balanceEnvelope(balance);
  });
}
