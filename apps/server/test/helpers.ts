import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createMemoryImage, type Database, MIGRATIONS_DIR, openDatabase, randomString } from "@moonport/db";
import pg from "pg";
import { type BuildAppOptions, buildApp } from "../src/app.ts";
import type { AppContext, Clock } from "../src/context.ts";
import { buildConfig, type Config } from "../src/env.ts";
import type { App } from "../src/http/route.ts";
import { testEnv } from "./env.ts";

export interface TestApp {
  app: App;
  ctx: AppContext;
  config: Config;
  close(): Promise<void>;
}

// One migrated image per worker process (server files share a worker's module graph): each test database is a copy.
let memoryImage: Promise<Blob> | undefined;

/** An in-memory PGlite database, migrated (a copy of this worker's image). */
export async function openMemoryDatabase(): Promise<Database> {
  memoryImage ??= createMemoryImage();
  return openDatabase({ kind: "pglite", dataDir: "memory", image: await memoryImage });
}

let templateDatabase: Promise<string> | undefined;

/**
 * A migrated PostgreSQL database to copy test databases from, named after the migrations it holds, so runs and
 * workers share it until a migration changes. Copying one is several times faster than creating and migrating a
 * database. Templates of older migrations are left in place (another checkout may be copying from one): drop
 * `moonport_tpl_*` databases by hand to reclaim them.
 */
async function ensureTemplateDatabase(adminUrl: string): Promise<string> {
  const hash = createHash("sha256");
  for (const file of fs.readdirSync(MIGRATIONS_DIR, { recursive: true, encoding: "utf8" }).sort()) {
    const full = path.join(MIGRATIONS_DIR, file);
    if (fs.statSync(full).isFile()) hash.update(file).update(fs.readFileSync(full));
  }
  const name = `moonport_tpl_${hash.digest("hex").slice(0, 16)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    // One creator at a time across workers and runs (an arbitrary key: "tpl" in ASCII).
    await admin.query("select pg_advisory_lock(7630956)");
    const found = await admin.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount === 0) {
      // Built under another name and renamed once migrated, so a crash never leaves a half-migrated template.
      const building = `${name}_building`;
      await admin.query(`drop database if exists ${building}`);
      await admin.query(`create database ${building}`);
      const url = new URL(adminUrl);
      url.pathname = `/${building}`;
      const database = await openDatabase({ kind: "postgres", url: url.toString(), poolSize: 2 });
      await database.close();
      // The closed pool's sessions may still be ending: renaming waits for them like `drop` below.
      for (let attempt = 0; ; attempt++) {
        try {
          await admin.query(`alter database ${building} rename to ${name}`);
          break;
        } catch (e) {
          if ((e as { code?: string }).code !== "55006" || attempt >= 50) throw e;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    }
  } finally {
    await admin.query("select pg_advisory_unlock(7630956)").catch(() => {});
    await admin.end();
  }
  return name;
}

/** A database for one test file: in-memory PGlite, or a throwaway PostgreSQL database when TEST_DATABASE_URL is set. */
export async function openTestDatabase(): Promise<{
  database: Database;
  drop: () => Promise<void>;
  /** The throwaway PostgreSQL database's URL (for server processes a test spawns); undefined on PGlite. */
  url?: string;
}> {
  if (!testEnv.databaseUrl) {
    return { database: await openMemoryDatabase(), drop: async () => {} };
  }
  const name = `moonport_t_${randomString(10, "abcdefghijklmnopqrstuvwxyz")}`;
  templateDatabase ??= ensureTemplateDatabase(testEnv.databaseUrl);
  const template = await templateDatabase;
  const admin = new pg.Client({ connectionString: testEnv.databaseUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  await admin.end();
  const url = new URL(testEnv.databaseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ kind: "postgres", url: url.toString(), poolSize: 20 });
  return {
    database,
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: testEnv.databaseUrl });
      await c.connect();
      // Sessions of the just-ended pool may still be closing; killing them (`with (force)`) at that moment
      // surfaces as an unhandled FATAL 57P01 on their client, so wait for them to go first.
      for (let attempt = 0; ; attempt++) {
        try {
          await c.query(`drop database if exists ${name}${attempt >= 30 ? " with (force)" : ""}`);
          break;
        } catch (e) {
          if ((e as { code?: string }).code !== "55006" || attempt >= 30) throw e;
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      await c.end();
    },
  };
}

/**
 * The app serving a built web root (or a missing one) on its own in-memory database; closing it leaves the web
 * root for the caller to remove.
 */
export async function createWebApp(root: string, env: Record<string, string> = {}) {
  const config = buildConfig({ NODE_ENV: "test", SERVE_WEB: "true", LOG_LEVEL: "silent", ...env });
  const database = await openMemoryDatabase();
  const { app } = await buildApp({ config, database, logger: false, webRoot: root });
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

/** A clock tests move by hand: real time plus `advance(ms)`, so codes and sessions expire without waiting. */
export function testClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance: (ms) => {
      offset += ms;
    },
  };
}

/**
 * Builds the app on a fresh test database, or on `opts.database` (a second instance sharing the first one's
 * database; closing it leaves the database open). Each app gets its own bill-journal directory unless `env` sets
 * BILLING_JOURNAL_DIR.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  opts: Pick<BuildAppOptions, "clock" | "sms" | "pipeline" | "logger"> & { database?: Database } = {},
): Promise<TestApp> {
  const { database: sharedDatabase, ...buildOpts } = opts;
  const journalDir = env.BILLING_JOURNAL_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "moonport-journal-"));
  // Uploaded files and temporary uploads live under DATA_DIR: never the repository's ./data in tests.
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "moonport-data-"));
  const config = buildConfig({
    NODE_ENV: "test",
    SERVE_WEB: "false",
    LOG_LEVEL: "silent",
    BILLING_JOURNAL_DIR: journalDir,
    DATA_DIR: dataDir,
    // Tests read SMS codes from the development outbox (from loopback, see auth-helpers.ts).
    ...(env.NODE_ENV === "production" ? {} : { DEV_SEAMS: "true" }),
    ...env,
  });
  const shared = sharedDatabase;
  const { database, drop } = shared ? { database: shared, drop: async () => {} } : await openTestDatabase();
  const { app, ctx } = await buildApp({ config, database, logger: false, ...buildOpts });
  await app.ready();
  return {
    app,
    ctx,
    config,
    close: async () => {
      await app.close();
      if (!shared) {
        await database.close();
        await drop();
      }
      if (!env.BILLING_JOURNAL_DIR) fs.rmSync(journalDir, { recursive: true, force: true });
      if (!env.DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A browser-like client for app.inject: keeps cookies, sends the Origin of the site and the CSRF header the
 * web app sends, and parses JSON.
 */
export class TestClient {
  cookies = new Map<string, string>();
  origin = "http://localhost:3000";
  locale: "zh-CN" | "en-US" | undefined = "en-US";
  /** Each client looks like its own machine, so per-IP rate limits of one test do not spill into another. */
  ip = `10.${rnd()}.${rnd()}.${rnd()}`;
  constructor(readonly app: App) {}

  get csrf(): string | undefined {
    return this.cookies.get("mp_csrf");
  }

  async request(
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    if (method !== "GET" && !this.csrf) await this.request("GET", "/healthz");
    const cookieHeader = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    const res = await this.app.inject({
      method,
      url,
      remoteAddress: this.ip,
      headers: {
        host: "localhost:3000",
        origin: this.origin,
        ...(cookieHeader ? { cookie: cookieHeader } : {}),
        ...(this.csrf && method !== "GET" ? { "x-csrf-token": this.csrf } : {}),
        ...(this.locale ? { "accept-language": this.locale } : {}),
        ...(body !== undefined && !Buffer.isBuffer(body) ? { "content-type": "application/json" } : {}),
        ...headers,
      },
      ...(body !== undefined ? { payload: Buffer.isBuffer(body) ? body : JSON.stringify(body) } : {}),
    });
    for (const c of res.cookies) {
      if (c.value === "" || (c.expires && c.expires.getTime() < Date.now())) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    // biome-ignore lint/suspicious/noExplicitAny: tests assert on arbitrary JSON bodies
    let json: any;
    try {
      json = res.json();
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, headers: res.headers, body: json, raw: res };
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request("GET", url, undefined, headers);
  }
  post(url: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.request("POST", url, body, headers);
  }
  put(url: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.request("PUT", url, body, headers);
  }
  patch(url: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.request("PATCH", url, body, headers);
  }
  delete(url: string, headers?: Record<string, string>) {
    return this.request("DELETE", url, undefined, headers);
  }
  /** A multipart/form-data POST (file uploads), as a browser's FormData sends it. */
  upload(url: string, fields: Record<string, string>, file?: MultipartFile | MultipartFile[]) {
    const { body, contentType } = multipartBody(fields, file);
    return this.request("POST", url, body, { "content-type": contentType });
  }
}

interface MultipartFile {
  name: string;
  data: Buffer;
  /** the part's field name (default `file`) */
  field?: string;
}

/** Builds a multipart/form-data body: the text fields, then the file parts. */
export function multipartBody(
  fields: Record<string, string>,
  files?: MultipartFile | MultipartFile[],
): { body: Buffer; contentType: string } {
  const boundary = `----moonport${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  for (const file of files === undefined ? [] : Array.isArray(files) ? files : [files]) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? "file"}"; filename="${file.name}"\r\n` +
          "Content-Type: application/octet-stream\r\n\r\n",
      ),
      file.data,
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

function rnd(): number {
  return Math.floor(Math.random() * 254) + 1;
}
