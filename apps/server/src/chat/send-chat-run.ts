/**
 * Sends a started chat run over HTTP: one `chat.completion` JSON body (docs/api-compat.md §2.7) or an SSE stream (§2.8,
 * write-sse.ts). /v1 and the playground both answer with it; what differs between them (credentials, their
 * error envelope, Server-Timing) stays in their routes.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { FastifyReply } from "fastify";
import type { EngineEvent } from "../engines/types.ts";
import { completionJson } from "./chat-response.ts";
import type { ChatRun } from "./run-chat.ts";
import { streamRun } from "./write-sse.ts";

/** A signal that fires when the client goes away before the response is finished: the engine stops at once. */
export function abortOnClose(res: ServerResponse): AbortSignal {
  const abort = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) abort.abort();
  });
  return abort.signal;
}

const connectionAborts = new WeakMap<Socket, AbortSignal>();

/**
 * abortOnClose for /v1, built once per connection instead of once per request: an AbortController costs about
 * 10 µs to create on Node 20 (its EventTarget), every chat completion paid it, and over HTTP/1.1 a client can
 * only walk away from a request by closing its connection. Whoever listens must stop listening when its request
 * ends (the upstream call and its retry backoff do), or listeners would pile up on a keep-alive connection.
 * Takes the request's socket: a pipelined response has none until the one before it is finished.
 */
export function abortOnDisconnect(req: IncomingMessage): AbortSignal {
  const socket = req.socket;
  let signal = connectionAborts.get(socket);
  if (!signal) {
    const abort = new AbortController();
    signal = abort.signal;
    if (socket.destroyed) abort.abort();
    else socket.once("close", () => abort.abort());
    connectionAborts.set(socket, signal);
  }
  return signal;
}

/**
 * Waits for the engine and answers. Engine failures before the first byte are thrown (the route's error handler
 * answers them); the run is settled exactly once, before the final bytes, whatever happens.
 */
export async function sendChatRun(opts: {
  run: ChatRun;
  reply: FastifyReply;
  /** From `abortOnClose(reply.raw)`, the signal the run was started with. */
  signal: AbortSignal;
  /** Called once just before the response head goes out, to add headers that measure the run (Server-Timing). */
  onHead?: () => void;
  /**
   * Failures mid-stream that are not API errors (the client gets a server_error event) or are 5xx ones (the client
   * gets them as they are); logged by the caller.
   */
  onStreamError: (e: unknown) => void;
}): Promise<FastifyReply | undefined> {
  const { run, reply, signal } = opts;
  reply.headers(run.admission.headers);
  if (run.chat.stream) {
    // Wait for the engine's first event before sending headers: a failure before the first byte (an upstream
    // 400, a timeout) is still a proper HTTP error the SDKs raise as their usual exception classes.
    const batches = run.batches[Symbol.asyncIterator]();
    let first: IteratorResult<EngineEvent[]>;
    try {
      first = await batches.next();
    } catch (e) {
      await run.settle(signal.aborted ? "client_closed" : "upstream_error");
      throw e;
    }
    opts.onHead?.();
    await streamRun(run, batches, first, opts.onStreamError, reply, signal);
    return;
  }
  try {
    for await (const _ of run.batches) {
      // the tally collects the response
    }
  } catch (e) {
    await run.settle(signal.aborted ? "client_closed" : "upstream_error");
    throw e;
  }
  if (signal.aborted) {
    // The client is gone: nothing to send.
    reply.hijack();
    await run.settle("client_closed");
    return;
  }
  const body = completionJson(run.meta, run.tally, run.chat.promptTokens);
  opts.onHead?.();
  // Journal the bill before the response leaves: a crash between response and bill cannot lose it.
  await run.settle("ok");
  // Already JSON: with its type set, Fastify sends the text as it is (the content type it gives an object).
  return reply.type("application/json; charset=utf-8").send(body);
}
