/**
 * The /v1 gateway: OpenAI-compatible routes with the error envelope, statuses and messages of api-compat §3.
 * No cookies, sessions or CSRF here; a Bearer key is the only credential. Every response carries
 * `Msh-Request-Id`/`x-request-id` and `Server-Timing: gateway;dur=<ms>` (time spent in the gateway itself,
 * engine time excluded).
 */
import { once } from "node:events";
import type { ServerResponse } from "node:http";
import { pipeline as pipeStreams } from "node:stream";
import { MODELS } from "@moonport/contracts";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { parseChatRequest } from "../chat/chat-request.ts";
import { ChunkWriter, completionBody, SSE_DONE, sseError, wireUsage } from "../chat/chat-response.ts";
import { countPromptTokens } from "../chat/prompt-tokens.ts";
import type { AppContext } from "../context.ts";
import type { EngineRouter } from "../engines/index.ts";
import type { EngineEvent } from "../engines/types.ts";
import type { App } from "../http/route.ts";
import { balanceEnvelope } from "./balance.ts";
import { GatewayError, gatewayErrors } from "./errors.ts";
import { limitJsonDepth } from "./json-depth.ts";
import type { GatewayPipeline, KeyIdentity } from "./pipeline.ts";
import { type ChatRun, startChat } from "./run-chat.ts";

/** Vision requests carry base64 images (api-compat §2.3: up to 100 MB). */
export const CHAT_BODY_LIMIT = 100 * 1024 * 1024;
export const SMALL_BODY_LIMIT = 1024 * 1024;
/** Deepest JSON nesting a body may have; chat bodies need about 6 levels plus their tool schemas. */
export const MAX_JSON_DEPTH = 128;

const requestIds = new WeakMap<FastifyRequest, { id: string; t0: number }>();

function timing(req: FastifyRequest, engineMs = 0): string {
  const t0 = requestIds.get(req)?.t0 ?? performance.now();
  return `gateway;dur=${Math.max(0, performance.now() - t0 - engineMs).toFixed(2)}`;
}

function requestIdOf(req: FastifyRequest): string {
  return requestIds.get(req)?.id ?? req.id;
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

/** The /v1/models item: the Era-A fields plus context length and capabilities (api-compat §8.1). */
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

/**
 * Writes one SSE event. Events produced in the same turn of the event loop (e.g. several upstream chunks that
 * arrived in one read) leave in one socket write: each event stays separate on the wire, syscalls are fewer.
 */
const corked = new WeakSet<ServerResponse>();
async function write(res: ServerResponse, text: string): Promise<void> {
  if (!corked.has(res)) {
    corked.add(res);
    res.cork();
    setImmediate(() => {
      corked.delete(res);
      res.uncork();
    });
  }
  if (!res.write(text) && !res.destroyed) await once(res, "drain").catch(() => undefined);
}

/** Streams a run as SSE (api-compat §2.8). Headers go out before the first engine event. */
async function streamRun(
  run: ChatRun,
  events: AsyncIterator<EngineEvent>,
  first: IteratorResult<EngineEvent>,
  req: FastifyRequest,
  reply: FastifyReply,
  signal: AbortSignal,
): Promise<void> {
  const { chat, meta, tally } = run;
  const res = reply.raw;
  reply.hijack();
  res.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
    "x-accel-buffering": "no",
    "server-timing": timing(req, run.engineMs()),
  });
  const writer = new ChunkWriter(meta);
  const usageNull = chat.includeUsage;
  let status: "ok" | "client_closed" | "upstream_error" = "ok";
  let out = "";
  for (let i = 0; i < chat.n; i++) out += writer.roleChunk(i, usageNull);
  await write(res, out);
  // A choice's last chunk carries its usage, which needs the prompt count: hold finishes until usage arrives.
  const held: { choice: number; reason: "stop" | "length" | "tool_calls" }[] = [];
  const flushFinishes = () => {
    const prompt = tally.promptTokens ?? chat.promptTokens;
    let text = "";
    for (const f of held) {
      text += writer.finish(
        f.choice,
        f.reason,
        wireUsage(prompt, tally.completionTokens(f.choice), tally.cachedTokens, tally.reasoningTokens(f.choice)),
        usageNull,
      );
    }
    held.length = 0;
    return text;
  };
  try {
    for (let r = first; !r.done; r = await events.next()) {
      const ev = r.value;
      if (signal.aborted) break;
      if (ev.type === "delta") await write(res, writer.delta(ev, usageNull));
      else if (ev.type === "finish") held.push({ choice: ev.choice, reason: ev.finishReason });
      else if (held.length) await write(res, flushFinishes());
    }
    if (signal.aborted) status = "client_closed";
    else {
      let tail = held.length ? flushFinishes() : "";
      if (chat.includeUsage) {
        tail += writer.usageChunk(
          wireUsage(
            tally.promptTokens ?? chat.promptTokens,
            tally.totalCompletionTokens(),
            tally.cachedTokens,
            tally.reasoningTokens(),
          ),
        );
      }
      // Journal the bill before the last bytes: a crash between response and bill cannot lose it.
      await run.settle(status);
      await write(res, tail + SSE_DONE);
    }
  } catch (e) {
    status = signal.aborted ? "client_closed" : "upstream_error";
    if (!signal.aborted) {
      const g = e instanceof GatewayError ? e : gatewayErrors.serverError();
      if (!(e instanceof GatewayError)) req.log.error({ err: e, requestId: requestIdOf(req) }, "stream failed");
      await run.settle(status);
      await write(res, sseError(g.type, g.message) + SSE_DONE);
    }
  } finally {
    // Settles only if nothing above did (settle runs once).
    await run.settle(status);
    res.end();
  }
}

export default async function gatewayRoutes(
  app: App,
  opts: { ctx: AppContext; pipeline: GatewayPipeline; engines: EngineRouter },
) {
  const { pipeline, engines } = opts;
  const keys = new WeakMap<FastifyRequest, KeyIdentity>();
  const keyOf = (req: FastifyRequest): KeyIdentity => {
    const key = keys.get(req);
    if (!key) throw gatewayErrors.invalidAuthentication();
    return key;
  };

  app.addHook("onRequest", async (req, reply) => {
    // req.id is a fresh UUID for every /v1 request (app.ts genReqId), never a client-supplied value.
    const id = req.id;
    requestIds.set(req, { id, t0: performance.now() });
    reply.header("msh-request-id", id);
    reply.header("x-request-id", id);
    // The key is checked before any body is read (in-memory key cache): without a valid key nobody can make the
    // server buffer or parse a 100 MB body. Unknown paths are answered by the not-found handler.
    if (req.routeOptions.url === undefined) return;
    keys.set(req, await pipeline.authenticate(req.headers.authorization));
  });
  // A body nested deeper than any request needs is refused while it arrives, before JSON.parse sees it.
  app.addHook("preParsing", async (_req, _reply, payload) =>
    pipeStreams(
      payload,
      limitJsonDepth(MAX_JSON_DEPTH, () => gatewayErrors.tooDeep(MAX_JSON_DEPTH)),
      () => {},
    ),
  );
  app.setErrorHandler(sendError);
  app.setNotFoundHandler((req, reply) =>
    sendError(gatewayErrors.routeNotFound(req.method, req.url.split("?")[0] ?? req.url), req, reply),
  );
  // Clients that forget `Content-Type: application/json` (curl -d) still send JSON.
  app.addContentTypeParser("*", { parseAs: "string" }, (_req, body, done) => {
    try {
      done(null, body === "" ? undefined : JSON.parse(body as string));
    } catch {
      done(gatewayErrors.invalidJson(), undefined);
    }
  });

  app.post("/chat/completions", { bodyLimit: CHAT_BODY_LIMIT }, async (req, reply) => {
    const key = keyOf(req);
    const abort = new AbortController();
    // A client that goes away stops the engine (and the upstream request) at once.
    reply.raw.on("close", () => {
      if (!reply.raw.writableFinished) abort.abort();
    });
    const run = await startChat({
      pipeline,
      engines,
      key,
      body: req.body,
      requestId: requestIdOf(req),
      signal: abort.signal,
      onSettleError: (e) => req.log.error({ err: e }, "settle failed"),
    });
    reply.headers(run.admission.headers);
    if (run.chat.stream) {
      // Wait for the engine's first event before sending headers: a failure before the first byte (an upstream
      // 400, a timeout) is still a proper HTTP error the SDKs raise as their usual exception classes.
      const events = run.events[Symbol.asyncIterator]();
      let first: IteratorResult<EngineEvent>;
      try {
        first = await events.next();
      } catch (e) {
        await run.settle(abort.signal.aborted ? "client_closed" : "upstream_error");
        throw e;
      }
      return streamRun(run, events, first, req, reply, abort.signal);
    }
    try {
      for await (const _ of run.events) {
        // the tally collects the response
      }
    } catch (e) {
      await run.settle(abort.signal.aborted ? "client_closed" : "upstream_error");
      throw e;
    }
    if (abort.signal.aborted) {
      // The client is gone: nothing to send.
      reply.hijack();
      await run.settle("client_closed");
      return;
    }
    const body = completionBody(run.meta, run.tally, run.chat.promptTokens);
    reply.header("server-timing", timing(req, run.engineMs()));
    // Journal the bill before the response leaves: a crash between response and bill cannot lose it.
    await run.settle("ok");
    return reply.send(body);
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
