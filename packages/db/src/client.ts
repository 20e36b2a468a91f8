import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite, types as pgliteTypes } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import { acquireDataDirLock } from "./lock.ts";
import * as schema from "./schema.ts";

export type Schema = typeof schema;
/** The one database type domain code sees, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle has the same query surface. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../migrations");

export interface Database {
  db: Db;
  kind: "pglite" | "postgres";
  /** Cheap liveness probe for /readyz. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseOptions =
  /** `image` (in memory only): a database from `createMemoryImage`, loaded instead of initialised and migrated. */
  | { kind: "pglite"; dataDir: string | "memory"; owner?: string; image?: Blob }
  | { kind: "postgres"; url: string; poolSize?: number };

/**
 * PGlite copies its whole type-parser map into a new object for every query it answers, and after its first query
 * that map also holds a parser for each of PostgreSQL's ~290 array types: measured 320–560 µs per simple query with
 * them, 210–270 without (about a millisecond of each bill batch, and of every console page's queries).
 * No Moonport column or query returns an array (drizzle's own date parsers come with each query), so only the base
 * types' parsers stay. A query that did return an array would get PostgreSQL's text form ("{a,b}"), not a list.
 */
function keepBaseTypeParsers(client: PGlite) {
  const base = new Set(Object.keys(pgliteTypes.parsers));
  client.parsers = Object.fromEntries(Object.entries(client.parsers).filter(([oid]) => base.has(oid)));
}

/** Advisory lock held while migrating (an arbitrary constant: "moonport" in ASCII). */
const MIGRATION_LOCK_KEY = "7885643992672465524";

/**
 * A freshly migrated in-memory database as a tarball: loading it skips PostgreSQL's initdb and every migration,
 * which is most of the cost of a new test database.
 */
export async function createMemoryImage(): Promise<Blob> {
  const client = new PGlite();
  try {
    await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_DIR });
    return await client.dumpDataDir("none");
  } finally {
    await client.close();
  }
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.kind === "postgres") {
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 10 });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    // Instances of a deployment may start together on a fresh database: one migrates while the others wait on
    // the advisory lock, then find nothing left to apply.
    const lock = await pool.connect();
    try {
      await lock.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
      await migratePg(drizzlePg(pool), { migrationsFolder: MIGRATIONS_DIR });
    } finally {
      await lock.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
      lock.release();
    }
    return {
      db,
      kind: "postgres",
      ping: async () => {
        await pool.query("select 1");
      },
      close: () => pool.end(),
    };
  }
  let release = () => {};
  let client: PGlite;
  if (opts.dataDir === "memory") {
    client = new PGlite(opts.image ? { loadDataDir: opts.image } : {});
  } else {
    release = acquireDataDirLock(opts.dataDir, opts.owner ?? "moonport");
    try {
      client = new PGlite(path.join(opts.dataDir, "pglite"));
      await client.waitReady;
    } catch (e) {
      release();
      throw e;
    }
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  try {
    await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_DIR });
  } catch (e) {
    await client.close().catch(() => {});
    release();
    throw e;
  }
  keepBaseTypeParsers(client);
  return {
    db,
    kind: "pglite",
    ping: async () => {
      await client.query("select 1");
    },
    close: async () => {
      try {
        if (!client.closed) await client.close();
      } finally {
        release();
      }
    },
  };
}
