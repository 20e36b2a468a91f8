/**
 * One HTTP request to an upstream on undici's `dispatch`, with a handler that receives the response's chunks
 * itself. `Pool.request` wraps every response in a Readable (and its async iterator, and a listener on the
 * caller's AbortSignal that it builds and tears down): a third of a bare proxy's CPU per request, paid again
 * here on every chat completion. This handler keeps only what the engine needs: the status, the whole body of a
 * JSON answer as one string, or the body's chunks as they arrive for a stream.
 *
 * It uses undici's low-level handler callbacks (onConnect … onComplete/onError), which the pinned undici calls
 * directly; headers are not parsed (nothing here reads them).
 */
import { StringDecoder } from "node:string_decoder";
import type { Dispatcher } from "undici";
import { listenAbort } from "../../lib/abort-listeners.ts";

interface UpstreamRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
}

/** The response of an upstream call; the body is read once, by `text()` or by iterating `chunks`. */
export interface UpstreamCall {
  statusCode: number;
  /** The whole body as UTF-8 text. */
  text(): Promise<string>;
  /**
   * The body's text as it arrives: each step yields everything received since the last (chunks of one socket
   * read joined); a character split across chunks is kept whole.
   */
  chunks: AsyncIterable<string>;
}

/** Chunks queued beyond this pause the upstream socket until the consumer catches up. */
const HIGH_WATER = 64;

class CallHandler implements AsyncIterator<string> {
  statusCode = 0;
  private abortFn: ((reason?: unknown) => void) | null = null;
  // Not TextDecoder: on Node 20 its decode(chunk, { stream: true }) converts the options object through WebIDL on
  // every call, which showed in the profile; StringDecoder keeps a split character whole the same way.
  private readonly decoder = new StringDecoder("utf8");
  private first = true;
  private queue: string[] = [];
  private ended = false;
  private error: unknown = null;
  private waiting: { resolve: (r: IteratorResult<string>) => void; reject: (e: unknown) => void } | null = null;
  private resumeFn: (() => void) | null = null;
  private paused = false;
  private scheduled = false;
  private onHead: { resolve: (c: CallHandler) => void; reject: (e: unknown) => void } | null;
  /** `text()` is waiting for the whole body: chunks only queue up until the end (no delivery per read). */
  private whole: { resolve: (text: string) => void; reject: (e: unknown) => void } | null = null;
  private readonly unlisten: () => void;

  constructor(
    private readonly signal: AbortSignal,
    onHead: { resolve: (c: CallHandler) => void; reject: (e: unknown) => void },
  ) {
    this.onHead = onHead;
    this.unlisten = listenAbort(signal, () => this.abortFn?.(this.signal.reason));
  }

  // ---- undici's handler callbacks ----

  onConnect(abort: (reason?: unknown) => void) {
    this.abortFn = abort;
    if (this.signal.aborted) abort(this.signal.reason);
  }

  onHeaders(statusCode: number, _raw: Buffer[], resume: () => void): boolean {
    this.statusCode = statusCode;
    this.resumeFn = resume;
    const head = this.onHead;
    this.onHead = null;
    head?.resolve(this);
    return true;
  }

  onData(chunk: Buffer): boolean {
    let text = this.decoder.write(chunk);
    if (!text) return true;
    if (this.first) {
      // As TextDecoder did: a byte-order mark is not part of the text.
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      if (!text) return true;
    }
    this.queue.push(text);
    if (this.whole) return true;
    // A waiting consumer hears of it once this read is parsed: every chunk of one socket read (a model server's
    // frames, written one by one, arrive together) then reaches it in one resumption instead of one each.
    if (this.waiting && !this.scheduled) {
      this.scheduled = true;
      queueMicrotask(this.deliver);
    }
    if (this.queue.length >= HIGH_WATER) {
      this.paused = true;
      return false;
    }
    return true;
  }

  onComplete() {
    const rest = this.decoder.end();
    if (rest) this.queue.push(rest);
    this.finish(null);
  }

  onError(err: unknown) {
    const head = this.onHead;
    this.onHead = null;
    head?.reject(err);
    this.finish(err ?? new Error("upstream request failed"));
  }

  // ---- the consumer's side ----

  /** Everything received and not yet read, as one string. */
  private take(): string {
    const q = this.queue;
    const value = q.length === 1 ? q[0]! : q.join("");
    q.length = 0;
    if (this.paused) {
      this.paused = false;
      this.resumeFn?.();
    }
    return value;
  }

  private readonly deliver = () => {
    this.scheduled = false;
    const w = this.waiting;
    if (!w) return;
    if (this.queue.length) {
      this.waiting = null;
      w.resolve({ value: this.take(), done: false });
    } else if (this.ended) {
      this.waiting = null;
      if (this.error) w.reject(this.error);
      else w.resolve({ value: undefined, done: true });
    }
  };

  /** What has arrived since the last call, as one string (several chunks of one read are joined). */
  next(): Promise<IteratorResult<string>> {
    if (this.queue.length) return Promise.resolve({ value: this.take(), done: false });
    if (this.error) return Promise.reject(this.error);
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  /** The consumer stopped early (break, or a throw in its loop): drop the rest of the response. */
  return(): Promise<IteratorResult<string>> {
    if (!this.ended) this.abortFn?.(new Error("upstream body no longer read"));
    this.queue = [];
    return Promise.resolve({ value: undefined, done: true });
  }

  private finish(err: unknown) {
    if (this.ended) return;
    this.ended = true;
    this.error = err;
    this.unlisten();
    const whole = this.whole;
    if (whole) {
      this.whole = null;
      if (err) whole.reject(err);
      else whole.resolve(this.take());
      return;
    }
    // A consumer still waiting gets what is queued first (a delivery is already scheduled), then the end.
    if (this.waiting && !this.scheduled) this.deliver();
  }

  /** The whole body, in one promise settled at its end (a JSON answer is usually one read anyway). */
  text(): Promise<string> {
    if (this.error) return Promise.reject(this.error);
    if (this.ended) return Promise.resolve(this.take());
    // Everything arrives before anyone reads it: nothing to pause for.
    if (this.paused) {
      this.paused = false;
      this.resumeFn?.();
    }
    return new Promise((resolve, reject) => {
      this.whole = { resolve, reject };
    });
  }

  // The handler is its own iterable: an object literal with a computed symbol key per stream was ~1.5 µs of the
  // stream profile.
  [Symbol.asyncIterator](): AsyncIterator<string> {
    return this;
  }

  get chunks(): AsyncIterable<string> {
    return this;
  }
}

/** POSTs `req.body` to `req.path` on `dispatcher`; resolves once the response's status is known. */
export function callUpstream(dispatcher: Dispatcher, req: UpstreamRequest): Promise<UpstreamCall> {
  if (req.signal.aborted) return Promise.reject(req.signal.reason);
  return new Promise<UpstreamCall>((resolve, reject) => {
    const handler = new CallHandler(req.signal, { resolve, reject });
    setImmediate(dispatchCall, dispatcher, req, handler);
  });
}

/**
 * The request leaves from setImmediate, after the event loop's I/O callbacks, with the other requests that
 * started in the same turn, as the SSE writer's corked writes do: measured 0.95 × the CPU per request, streaming
 * and not, of dispatching at once (`npm run bench:ab -- <ref> --interleave 10 --together`).
 */
function dispatchCall(dispatcher: Dispatcher, req: UpstreamRequest, handler: CallHandler) {
  if (req.signal.aborted) {
    handler.onError(req.signal.reason);
    return;
  }
  try {
    dispatcher.dispatch(
      { path: req.path, method: "POST", headers: req.headers, body: req.body },
      handler as unknown as Dispatcher.DispatchHandler,
    );
  } catch (e) {
    handler.onError(e);
  }
}
