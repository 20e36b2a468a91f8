/**
 * One chat completion from admission to settlement, independent of HTTP: validate, count, admit (limits, budgets,
 * balance), start the engine, tally what it produces, and settle exactly once with what was produced. Admission
 * and settlement belong to the caller's `ChatMeter` (meter.ts); sending the run is `sendChatRun`.
 */

import type { EngineRouter } from "../engines/index.ts";
import { type Engine, EngineError, type EngineEvent } from "../engines/types.ts";
import { applyTokenLimits, parseChatRequest } from "./chat-request.ts";
import { ChatTally, newCompletionId, type ResponseMeta } from "./chat-response.ts";
import { type GatewayError, gatewayErrors } from "./errors.ts";
import type { ChatAdmission, ChatMeter, ChatSettleStatus, UsedContextCache } from "./meter.ts";
import type { ChatRequest } from "./types.ts";

export interface ChatRun<A extends ChatAdmission = ChatAdmission> {
  chat: ChatRequest;
  admission: A;
  meta: ResponseMeta;
  tally: ChatTally;
  /**
   * Engine events in batches (what one upstream read produced), each recorded in `tally` before it is handed
   * out. Engine failures surface as GatewayError. Consume either this or `events`, not both.
   */
  batches: AsyncIterable<EngineEvent[]>;
  /** The same events one by one. */
  events: AsyncIterable<EngineEvent>;
  /** Milliseconds spent inside the engine so far (for Server-Timing). */
  engineMs(): number;
  /** Settles once (later calls are ignored); never throws. */
  settle(status: ChatSettleStatus): Promise<void>;
}

async function* oneByOne(events: AsyncIterable<EngineEvent>): AsyncIterable<EngineEvent[]> {
  for await (const ev of events) yield [ev];
}

async function* oneAtATime(batches: AsyncIterable<EngineEvent[]>): AsyncIterable<EngineEvent> {
  for await (const batch of batches) yield* batch;
}

export function engineErrorToGateway(e: EngineError): GatewayError {
  switch (e.kind) {
    case "bad_request":
      return gatewayErrors.upstreamRejected(e.message);
    case "rate_limited":
    case "overloaded":
      return gatewayErrors.engineOverloaded();
    case "timeout":
      return gatewayErrors.upstreamTimeout();
    default:
      return gatewayErrors.upstreamFailed(e.message);
  }
}

export async function startChat<Caller, A extends ChatAdmission>(opts: {
  meter: ChatMeter<Caller, A>;
  engines: EngineRouter;
  /** The caller's identity, handed to the meter. */
  key: Caller;
  /** Scope of the engines' automatic prefix cache (the organization): prompts never share entries across it. */
  cacheScope: string;
  body: unknown;
  requestId: string;
  signal: AbortSignal;
  onSettleError?: (e: unknown) => void;
  /** The explicit context cache whose messages begin `body` (modules/caches resolved and matched it). */
  contextCache?: UsedContextCache;
}): Promise<ChatRun<A>> {
  const chat = await applyTokenLimits(parseChatRequest(opts.body));
  const admission = await opts.meter.admit({
    key: opts.key,
    requestId: opts.requestId,
    model: chat.billedModel.id,
    admissionTokens: chat.promptTokens + chat.maxTokens,
  });
  const engine: Engine = opts.engines.forRequest(chat);
  const meta: ResponseMeta = {
    id: newCompletionId(),
    created: Math.floor(Date.now() / 1000),
    model: chat.requestedModel,
    fingerprint: engine.info.fingerprint,
  };
  const tally = new ChatTally(chat.n);
  let engineMs = 0;
  let settled = false;
  let started = false;
  // Crash safety for streams (issue 8): the journal samples what has been sent so far, so that a replay after a
  // crash bills it (gateway/journal.ts, "progress"). Nothing produced yet: nothing to bill.
  if (chat.stream) {
    admission.track?.(() =>
      started
        ? {
            promptTokens: tally.promptTokens ?? chat.promptTokens,
            completionTokens: tally.totalCompletionTokens(),
            cachedTokens: tally.cachedTokens,
          }
        : null,
    );
  }

  async function* batches(): AsyncIterable<EngineEvent[]> {
    const ctx = { signal: opts.signal, cacheScope: opts.cacheScope };
    const source = engine.chatBatches ? engine.chatBatches(chat, ctx) : oneByOne(engine.chat(chat, ctx));
    const iterator = source[Symbol.asyncIterator]();
    while (true) {
      const t = performance.now();
      let r: IteratorResult<EngineEvent[]>;
      try {
        r = await iterator.next();
      } catch (e) {
        if (e instanceof EngineError) throw engineErrorToGateway(e);
        if (opts.signal.aborted) return;
        throw e;
      } finally {
        engineMs += performance.now() - t;
      }
      if (r.done) return;
      if (r.value.length === 0) continue;
      started = true;
      for (const ev of r.value) tally.add(ev);
      yield r.value;
    }
  }
  const batched = batches();

  return {
    chat,
    admission,
    meta,
    tally,
    batches: batched,
    // Built only for the callers that read events one by one (the riddles), not on the /v1 hot path.
    get events() {
      return oneAtATime(batched);
    },
    engineMs: () => engineMs,
    async settle(status) {
      if (settled) return;
      settled = true;
      admission.release();
      // Nothing reached the engine's output: the prompt was not processed for this client, nothing is charged.
      const nothing = !started && status !== "ok";
      try {
        await opts.meter.settle({
          admission,
          usage: nothing
            ? { promptTokens: 0, completionTokens: 0, cachedTokens: 0 }
            : {
                promptTokens: tally.promptTokens ?? chat.promptTokens,
                completionTokens: tally.totalCompletionTokens(),
                cachedTokens: tally.cachedTokens,
              },
          webSearchCalls: nothing ? 0 : tally.webSearchCalls(),
          status,
          ...(opts.contextCache && !nothing ? { contextCache: opts.contextCache } : {}),
        });
      } catch (e) {
        opts.onSettleError?.(e);
      }
    },
  };
}
