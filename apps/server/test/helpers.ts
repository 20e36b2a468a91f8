import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Database, openDatabase, randomString } from "@moonport/db";
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

/** A database for one test file: in-memory PGlite, or a throwaway PostgreSQL database when TEST_DATABASE_URL is set. */
async function openTestDatabase(): Promise<{
  database: Database;
  drop: () => Promise<void>;
  /** The throwaway PostgreSQL database's URL (for server processes a test spawns); undefined on PGlite. */
  url?: string;
}> {
  if (!testEnv.databaseUrl) {
    const database = await openDatabase({ kind: "pglite", dataDir: "memory" });
    return { database, drop: async () => {} };
  }
  const name = `moonport_t_${randomString(10, "abcdefghijklmnopqrstuvwxyz")}`;
  const admin = new pg.Client({ connectionString: testEnv.databaseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
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
  opts: Pick<BuildAppOptions, "clock" | "sms" | "pipeline"> & { database?: Database } = {},
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
