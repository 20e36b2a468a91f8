import type { Database, Db } from "@moonport/db";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "./env.ts";
import type { GatewayPipelineHandle } from "./gateway/create-gateway-pipeline.ts";
import type { KeyEvents } from "./gateway/key-events.ts";

/**
 * What domain modules get from the app: configuration, the database and shared services. Built once in
 * buildApp; tests build their own.
 */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  log: FastifyBaseLogger;
  /** Tell the gateway's caches (on every instance) that keys, projects or an organization changed. */
  keyEvents: KeyEvents;
  /** The gateway's authenticate → admit → settle pipeline (/v1 routes use it). */
  gateway: GatewayPipelineHandle;
}
