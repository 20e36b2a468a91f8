/**
 * OpenTelemetry tracing of /v1 requests and background jobs, exported over OTLP/HTTP (JSON) in batches. This
 * module is imported only when an endpoint is configured (observability/index.ts loads it dynamically), so with
 * tracing off no OpenTelemetry code is even loaded. No global provider is registered: each app owns its tracer
 * (tests build several apps in one process) and nothing else in the process is instrumented behind our back.
 *
 * Attributes carry ids only (request, organization, project, key id, model, job): never an API key, a header
 * value or a body.
 */
import {
  type Context,
  defaultTextMapGetter,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
} from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
} from "@opentelemetry/sdk-trace-base";
import type { FastifyRequest } from "fastify";
import type { Config } from "../env.ts";
import type { Tracing } from "./types.ts";

export function createTracing(config: Config["tracing"] & { endpoint: string }, version: string): Tracing {
  const exporter = new OTLPTraceExporter({ url: config.endpoint, headers: config.headers, timeoutMillis: 10_000 });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": config.serviceName, "service.version": version }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(config.sampleRatio) }),
    spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: 1000, maxQueueSize: 8192 })],
  });
  const tracer = provider.getTracer("moonport");
  const propagator = new W3CTraceContextPropagator();
  const spans = new WeakMap<FastifyRequest, Span>();

  return {
    requestStarted(req: FastifyRequest) {
      // A caller's `traceparent` makes this span its child (one trace from the client through the gateway).
      const parent: Context = req.headers.traceparent
        ? propagator.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter)
        : ROOT_CONTEXT;
      const route = req.routeOptions.url ?? "unmatched";
      const span = tracer.startSpan(
        `${req.method} ${route}`,
        {
          kind: SpanKind.SERVER,
          attributes: {
            "http.request.method": req.method,
            "http.route": route,
            "moonport.request_id": req.id,
          },
        },
        parent,
      );
      spans.set(req, span);
    },
    keyIdentified(req, key) {
      const span = spans.get(req);
      if (!span) return;
      span.setAttributes({
        "moonport.org_id": key.orgId,
        "moonport.project_id": key.projectId,
        "moonport.api_key_id": key.keyId,
      });
    },
    requestEnded(req: FastifyRequest, status: number, model: string) {
      const span = spans.get(req);
      if (!span) return;
      spans.delete(req);
      span.setAttribute("http.response.status_code", status);
      if (model) span.setAttribute("moonport.model", model);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
    async job<T>(name: string, attributes: Record<string, string | number>, run: () => Promise<T>): Promise<T> {
      const span = tracer.startSpan(`job ${name}`, {
        kind: SpanKind.INTERNAL,
        attributes: { "moonport.job.name": name, ...attributes },
      });
      try {
        return await run();
      } catch (err) {
        span.recordException(err instanceof Error ? err : String(err));
        span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.name : "error" });
        throw err;
      } finally {
        span.end();
      }
    },
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
