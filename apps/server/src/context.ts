import type { Database, Db } from "@moonport/db";
import type { FastifyBaseLogger } from "fastify";
import type { EngineRouter } from "./engines/index.ts";
import type { Config } from "./env.ts";
import type { GatewayPipeline } from "./gateway/pipeline.ts";

/**
 * What domain modules get from the app: configuration, the database and shared services. Built once in
 * buildApp; tests build their own.
 */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  log: FastifyBaseLogger;
  /** Keys, limits and metering of the /v1 gateway; without one, /v1 is not mounted. */
  pipeline: GatewayPipeline | null;
  /** Model engines: the simulator and configured upstreams. */
  engines: EngineRouter;
}
