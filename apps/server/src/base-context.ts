import type { Database, Db } from "@moonport/db";
import type { FastifyBaseLogger } from "fastify";
import type { Redis } from "ioredis";
import type { Config } from "./env.ts";
import type { Observability } from "./observability/index.ts";

/** The domain clock. Tests pass their own to move time (code and session expiry) without fake timers. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * The services buildApp makes first, before the ones that are built on them. Infrastructure (lib/, metering/,
 * jobs/) takes this rather than AppContext: AppContext names the metering engine and the job runner, so their
 * importing it back would make an import cycle.
 */
export interface BaseContext {
  config: Config;
  database: Database;
  db: Db;
  log: FastifyBaseLogger;
  clock: Clock;
  /** Present only when REDIS_URL is set; shared counters (rate limits) live there. */
  redis?: Redis;
  /** Prometheus metrics and (when configured) OpenTelemetry tracing; observability/. */
  observability: Observability;
}
