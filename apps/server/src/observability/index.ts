/**
 * Metrics and tracing for the app (see observability/README.md). buildApp creates one Observability and
 * installs its Fastify hooks before any route is registered; the gateway and the job runner reach it through
 * one-line hooks (`recordGatewayTiming`, `noteGatewayKey`, `ctx.observability.job`), so their files stay
 * about their own work.
 *
 * Cost on the request path: one synchronous onResponse hook per route bumping a preallocated counter cell, and
 * for /v1 two histogram observes into fixed arrays. Tracing adds hooks only when it is configured.
 */
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestAbortHookHandler,
  onResponseHookHandler,
  RouteOptions,
} from "fastify";
import { GatewayError } from "../chat/errors.ts";
import type { Config } from "../env.ts";
import { Metrics, modelLabel, type RefusalKind } from "./metrics.ts";
import type { Tracing } from "./types.ts";

declare module "fastify" {
  interface FastifyInstance {
    observability: Observability;
  }
}

export class Observability {
  /** Set by installObservability: counts (and ends the span of) a request whose client left mid-response. */
  abandoned: (req: FastifyRequest) => void = () => {};
  constructor(
    readonly metrics: Metrics,
    readonly tracing: Tracing | null,
  ) {}

  /** Runs a background job's handler, counted (runs, failures, duration) and, with tracing on, in a span. */
  async job<T>(name: string, attributes: Record<string, string | number>, run: () => Promise<T>): Promise<T> {
    const t0 = performance.now();
    let failed = true;
    try {
      const result = this.tracing ? await this.tracing.job(name, attributes, run) : await run();
      failed = false;
      return result;
    } finally {
      this.metrics.jobRan(name, (performance.now() - t0) / 1000, failed);
    }
  }

  async close() {
    await this.tracing?.shutdown().catch(() => {});
  }
}

export async function createObservability(config: Config, version = "0.1.0"): Promise<Observability> {
  const { endpoint } = config.tracing;
  // Loaded only when configured: with tracing off, no OpenTelemetry module is even imported.
  const tracing = endpoint
    ? (await import("./tracing.ts")).createTracing({ ...config.tracing, endpoint }, version)
    : null;
  return new Observability(new Metrics(), tracing);
}

/** The status recorded for a request whose client went away before the response ended (as nginx logs it). */
const CLIENT_CLOSED = 499;
const ABANDONED = Symbol("moonport.abandoned");
type Marked = FastifyRequest & { [ABANDONED]?: true };

function hooks<T>(h: T | T[] | undefined): T[] {
  return h === undefined ? [] : Array.isArray(h) ? h : [h];
}

/** Routes whose JSON body names a model (the request counter's `model` label): the API's and the playground's. */
const MODEL_ROUTES = new Set([
  "/v1/chat/completions",
  "/v1/tokenizers/estimate-token-count",
  "/api/orgs/:orgId/projects/:projectId/playground/chat",
]);

/**
 * Installs the hooks. Must run before routes are registered: request counting is attached per route in onRoute, so
 * each route's hook already holds its cells (no per-request route lookup, no label objects).
 */
export function installObservability(app: FastifyInstance, obs: Observability) {
  app.decorate("observability", obs);
  const routeCells = new Map<string, Map<string, ReturnType<Metrics["routeCells"]>>>();
  obs.abandoned = (req) => {
    if ((req as Marked)[ABANDONED] === true) return;
    (req as Marked)[ABANDONED] = true;
    const url = req.routeOptions.url ?? "";
    const model = MODEL_ROUTES.has(url) ? modelLabel(req.body) : "";
    routeCells.get(url)?.get(req.method)?.bump(model, CLIENT_CLOSED);
    obs.tracing?.requestEnded(req, CLIENT_CLOSED, model);
  };
  const { metrics, tracing } = obs;

  app.addHook("onRoute", (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const byMethod = new Map(methods.map((m) => [m, metrics.routeCells(route.url, m)]));
    routeCells.set(route.url, byMethod);
    const single = methods.length === 1 ? byMethod.get(methods[0]!)! : undefined;
    const withModel = MODEL_ROUTES.has(route.url);
    const bump = (req: FastifyRequest, status: number) =>
      (single ?? byMethod.get(req.method))?.bump(withModel ? modelLabel(req.body) : "", status);
    const count: onResponseHookHandler = (req, reply, done) => {
      // A request counted as abandoned (below) is not counted again if its response later ends in an error.
      if ((req as Marked)[ABANDONED] !== true) {
        bump(req, reply.statusCode);
        (single ?? byMethod.get(req.method))?.timed(reply.statusCode, reply.elapsedTime / 1000);
      }
      done();
    };
    // A client that disconnects before its request has been read gets no onResponse: counted as 499, nginx's
    // "client closed request". (One that leaves while a stream is being written: `recordAbandoned` below.)
    const abandoned: onRequestAbortHookHandler = (req, done) => {
      (req as Marked)[ABANDONED] = true;
      bump(req, CLIENT_CLOSED);
      done();
    };
    route.onResponse = [...hooks(route.onResponse), count];
    route.onRequestAbort = [...hooks(route.onRequestAbort), abandoned];
  });

  // Refusals surface as GatewayErrors thrown by admission; onError runs only for errors, never on a success.
  app.addHook("onError", (_req, _reply, err, done) => {
    if (err instanceof GatewayError && (err.status === 429 || err.status === 403)) {
      const kind = refusalKind(err);
      if (kind) metrics.refused(kind);
    }
    done();
  });

  if (tracing) {
    app.addHook("onRequest", (req, _reply, done) => {
      if (req.url.startsWith("/v1/")) tracing.requestStarted(req);
      done();
    });
    const model = (req: FastifyRequest) => (MODEL_ROUTES.has(req.routeOptions.url ?? "") ? modelLabel(req.body) : "");
    app.addHook("onResponse", (req, reply, done) => {
      tracing.requestEnded(req, reply.statusCode, model(req));
      done();
    });
    app.addHook("onRequestAbort", (req, done) => {
      tracing.requestEnded(req, CLIENT_CLOSED, model(req));
      done();
    });
  }
}

/** Which admission rule refused: read from the docs/api-compat.md §3 message each refusal carries. */
function refusalKind(err: GatewayError): RefusalKind | null {
  const m = err.message;
  if (err.type === "rate_limit_reached_error") {
    if (m.includes("max concurrency")) return "concurrency";
    if (m.includes("max request")) return "rpm";
    if (m.includes("TPM rate limit")) return "tpm";
    if (m.includes("TPD rate limit")) return "tpd";
    return null;
  }
  if (err.type === "exceeded_current_quota_error") {
    if (m.includes("insufficient balance")) return "balance";
    if (m.includes("daily_budget_exceeded")) return "daily_budget";
    if (m.includes("monthly_budget_exceeded")) return "monthly_budget";
    if (m.includes("project_archived")) return "project_archived";
  }
  return null;
}

/**
 * Gateway hook (v1/routes.ts): the Server-Timing figures of a /v1 response, in milliseconds, by the model the
 * body names and whether it asked for a stream.
 */
export function recordGatewayTiming(req: FastifyRequest, overheadMs: number, engineMs: number) {
  const m = req.server.observability?.metrics;
  if (!m) return;
  const model = modelLabel(req.body);
  const stream = model !== "" && (req.body as { stream?: unknown }).stream === true;
  m.gatewayOverhead.observe(model, stream, overheadMs / 1000);
  if (engineMs > 0) m.upstreamLatency.observe(model, stream, engineMs / 1000);
}

/**
 * Chat-core hook (chat/write-sse.ts): the client went away while its stream was being written. Fastify runs no
 * onResponse for a hijacked response whose socket closed before it finished, so the stream writer reports it.
 */
export function recordAbandoned(reply: FastifyReply) {
  reply.server.observability?.abandoned(reply.request);
}

/** Gateway hook (v1/routes.ts): the request's key is known; tracing records its ids (never the key). */
export function noteGatewayKey(req: FastifyRequest, key: { orgId: string; projectId: string; keyId: string }) {
  const t = req.server.observability?.tracing;
  if (t) t.keyIdentified(req, key);
}
