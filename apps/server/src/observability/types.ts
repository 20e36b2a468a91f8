import type { FastifyRequest } from "fastify";

/** The tracing half of observability (tracing.ts), present only when an OTLP endpoint is configured. */
export interface Tracing {
  requestStarted(req: FastifyRequest): void;
  keyIdentified(req: FastifyRequest, key: { orgId: string; projectId: string; keyId: string }): void;
  /** `status` 499: the client went away before the response ended. */
  requestEnded(req: FastifyRequest, status: number, model: string): void;
  job<T>(name: string, attributes: Record<string, string | number>, run: () => Promise<T>): Promise<T>;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}
