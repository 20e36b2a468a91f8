import type { Database, Db } from "@moonport/db";
import type { FastifyBaseLogger } from "fastify";
import type { Config } from "./env.ts";

/**
 * What domain modules get from the app: configuration, the database and shared services. Built once in
 * buildApp; tests build their own.
 */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  log: FastifyBaseLogger;
}
