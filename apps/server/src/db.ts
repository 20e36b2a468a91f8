import { type Database, openDatabase } from "@moonport/db";
import type { Config } from "./env.ts";

/** PostgreSQL when DATABASE_URL is set, otherwise PGlite in DATA_DIR (locked to one process). */
export function openConfiguredDatabase(config: Config, owner: string): Promise<Database> {
  if (config.databaseUrl) return openDatabase({ kind: "postgres", url: config.databaseUrl });
  return openDatabase({ kind: "pglite", dataDir: config.dataDir, owner });
}
