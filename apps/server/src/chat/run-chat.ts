/**
 * One chat completion from admission to settlement, independent of HTTP: validate, count, admit (limits, budgets,
 * balance), start the engine, tally what it produces, and settle exactly once with what was produced. Admission
 * and settlement belong to the caller's `ChatMeter` (meter.ts); sending the run is `sendChatRun`.
 */

import type { EngineRouter } from "../engines/index.ts";
import { type Engine, type EngineContext, EngineError, type EngineEvent } from "../engines/types.ts";
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

/**
 * The engine's batches, each recorded in the tally before it is handed out; engine failures become
 * GatewayErrors. A class, not an async generator: on Node 20 a generator object per request made everything its
 * closure reaches (the request, the reply, the parsed body) survive young-generation collections and get
 * promoted, to be freed only by a full collection (`npm run bench:gc` measured 10.4 KB promoted per
 * request with the generators and the getter below, 1.1 KB without).
 */
class RunBatches implements AsyncIterableIterator<EngineEvent[]> {
  private source: AsyncIterator<EngineEvent[]> | null = null;
  private closed = false;

  constructor(
    private readonly engine: Engine,
    private readonly chat: ChatRequest,
    private readonly ctx: EngineContext,
    private readonly state: { engineMs: number; started: boolean },
    private readonly tally: ChatTally,
  ) {}

  [Symbol.asyncIterator]() {
    return this;
  }

  async next(): Promise<IteratorResult<EngineEvent[]>> {
    if (this.closed) return { value: undefined, done: true };
    const { engine, chat, ctx } = this;
    if (!this.source) {
      const iterable = engine.chatBatches ? engine.chatBatches(chat, ctx) : oneByOne(engine.chat(chat, ctx));
      this.source = iterable[Symbol.asyncIterator]();
    }
    const source = this.source;
    for (;;) {
      const t = performance.now();
      let r: IteratorResult<EngineEvent[]>;
      try {
        r = await source.next();
      } catch (e) {
        this.closed = true;
        if (e instanceof EngineError) throw engineErrorToGateway(e);
        if (ctx.signal.aborted) return { value: undefined, done: true };
        throw e;
      } finally {
        this.state.engineMs += performance.now() - t;
      }
      if (r.done) {
        this.closed = true;
        return r;
      }
      if (r.value.length === 0) continue;
      this.state.started = true;
      for (const ev of r.value) this.tally.add(ev);
      return r;
    }
  }

  async return(): Promise<IteratorResult<EngineEvent[]>> {
    this.closed = true;
    await this.source?.return?.();
    return { value: undefined, done: true };
  }
}

function engineErrorToGateway(e: EngineError): GatewayError {
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
  const tally = new ChatTally(chat.n, opts.contextCache?.tokens);
  const state = { engineMs: 0, started: false };
  // Crash safety for streams: the journal samples what has been sent so far, so that a replay after a
  // crash bills it (metering/journal.ts, "progress"). Nothing produced yet: nothing to bill.
  if (chat.stream) admission.track?.(progressSampler(state, tally, chat.promptTokens));
  const batches = new RunBatches(engine, chat, { signal: opts.signal, cacheScope: opts.cacheScope }, state, tally);
  return new StartedRun(opts, chat, admission, meta, tally, state, batches);
}

/**
 * What a stream has produced so far, for the journal. Built in its own scope so that the journal, which keeps
 * the sampler until the stream settles, holds only the tally and not everything startChat's closures can reach.
 */
function progressSampler(state: { started: boolean }, tally: ChatTally, promptTokens: number) {
  return () =>
    state.started
      ? {
          promptTokens: tally.promptTokens ?? promptTokens,
          completionTokens: tally.totalCompletionTokens(),
          cachedTokens: tally.cachedTokens,
        }
      : null;
}

/**
 * A class, not an object literal: a per-request literal with a getter (`events`) had the same effect as a
 * generator, every request's objects promoted (measured with `npm run bench:gc`).
 */
class StartedRun<Caller, A extends ChatAdmission> implements ChatRun<A> {
  private settled = false;

  constructor(
    private readonly opts: {
      meter: ChatMeter<Caller, A>;
      contextCache?: UsedContextCache;
      onSettleError?: (e: unknown) => void;
    },
    readonly chat: ChatRequest,
    readonly admission: A,
    readonly meta: ResponseMeta,
    readonly tally: ChatTally,
    private readonly state: { engineMs: number; started: boolean },
    readonly batches: RunBatches,
  ) {}

  /** Built only for the callers that read events one by one (the riddles), not on the /v1 hot path. */
  get events(): AsyncIterable<EngineEvent> {
    return oneAtATime(this.batches);
  }

  engineMs(): number {
    return this.state.engineMs;
  }

  async settle(status: ChatSettleStatus): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    const { admission, tally, chat, opts } = this;
    admission.release();
    // Nothing reached the engine's output: the prompt was not processed for this client, nothing is charged.
    const nothing = !this.state.started && status !== "ok";
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
  }
}
