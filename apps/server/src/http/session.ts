/**
 * Console sessions and CSRF protection. The session cookie is HttpOnly and SameSite=Lax; only SHA-256 of its
 * token is stored. CSRF uses a double-submit token bound to the session (its hash is stored with the session)
 * plus an Origin check, so a state-changing request from another site fails even with cookies attached.
 */
import { randomBytes } from "node:crypto";
import { type Db, newId, schema, sha256Hex } from "@moonport/db";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "./errors.ts";

export const SESSION_COOKIE = "mp_session";
export const CSRF_COOKIE = "mp_csrf";
export const CSRF_HEADER = "x-csrf-token";
/** lastSeenAt is refreshed at most this often, so reads stay reads. */
const TOUCH_EVERY_MS = 60_000;

export interface AuthState {
  sessionId: string;
  userId: string;
  expiresAt: Date;
}

export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

function secure(req: FastifyRequest): boolean {
  return req.protocol === "https";
}

export function setCsrfCookie(req: FastifyRequest, reply: FastifyReply, token: string) {
  reply.setCookie(CSRF_COOKIE, token, { path: "/", sameSite: "strict", httpOnly: false, secure: secure(req) });
}

/** Creates a session for `userId`, sets both cookies and returns the session id. Rotates on every sign-in. */
export async function startSession(opts: {
  db: Db;
  req: FastifyRequest;
  reply: FastifyReply;
  userId: string;
  ttlMs: number;
}): Promise<string> {
  const { db, req, reply, userId, ttlMs } = opts;
  // Rotation: a token that existed before sign-in (possibly planted) never becomes a signed-in session.
  const old = req.cookies[SESSION_COOKIE];
  if (old) {
    await db
      .update(schema.sessions)
      .set({ revokedAt: new Date() })
      .where(eq(schema.sessions.tokenHash, sha256Hex(old)));
  }
  const token = newToken();
  const csrf = newToken();
  const id = newId("ses");
  const expiresAt = new Date(Date.now() + ttlMs);
  await db.insert(schema.sessions).values({
    id,
    userId,
    tokenHash: sha256Hex(token),
    csrfHash: sha256Hex(csrf),
    ip: req.ip ?? null,
    userAgent: req.headers["user-agent"]?.slice(0, 512) ?? null,
    expiresAt,
  });
  reply.setCookie(SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: secure(req),
    expires: expiresAt,
  });
  setCsrfCookie(req, reply, csrf);
  return id;
}

export async function endSession(opts: { db: Db; req: FastifyRequest; reply: FastifyReply }) {
  const { db, req, reply } = opts;
  if (req.auth) {
    await db.update(schema.sessions).set({ revokedAt: new Date() }).where(eq(schema.sessions.id, req.auth.sessionId));
  }
  reply.clearCookie(SESSION_COOKIE, { path: "/" });
  setCsrfCookie(req, reply, newToken());
}

/** Resolves the session cookie into `req.auth` (or records that it expired). Runs on every /api request. */
export async function loadSession(db: Db, req: FastifyRequest): Promise<void> {
  req.auth = null;
  req.authExpired = false;
  const token = req.cookies[SESSION_COOKIE];
  if (!token) return;
  const hash = sha256Hex(token);
  const [row] = await db
    .select({
      id: schema.sessions.id,
      userId: schema.sessions.userId,
      expiresAt: schema.sessions.expiresAt,
      lastSeenAt: schema.sessions.lastSeenAt,
      csrfHash: schema.sessions.csrfHash,
    })
    .from(schema.sessions)
    .where(and(eq(schema.sessions.tokenHash, hash), isNull(schema.sessions.revokedAt)))
    .limit(1);
  if (!row) {
    req.authExpired = true;
    return;
  }
  if (row.expiresAt.getTime() <= Date.now()) {
    req.authExpired = true;
    return;
  }
  req.auth = { sessionId: row.id, userId: row.userId, expiresAt: row.expiresAt };
  req.sessionCsrfHash = row.csrfHash;
  if (Date.now() - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db
      .update(schema.sessions)
      .set({ lastSeenAt: new Date() })
      .where(and(eq(schema.sessions.id, row.id), gt(schema.sessions.expiresAt, new Date())));
  }
}

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Rejects a state-changing request unless it comes from our own origin and carries the CSRF token from the
 * cookie in a header (which another site can neither read nor set), bound to the session when there is one.
 */
export function checkCsrf(req: FastifyRequest): void {
  if (SAFE.has(req.method)) return;
  const origin = req.headers.origin ?? refererOrigin(req.headers.referer);
  if (origin && origin !== "null") {
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      throw new AppError("csrf_failed");
    }
    if (originHost !== req.headers.host) throw new AppError("csrf_failed");
  } else if (origin === "null") {
    throw new AppError("csrf_failed");
  }
  if (req.headers["sec-fetch-site"] === "cross-site") throw new AppError("csrf_failed");
  const header = req.headers[CSRF_HEADER];
  const cookie = req.cookies[CSRF_COOKIE];
  if (typeof header !== "string" || !header || header !== cookie) throw new AppError("csrf_failed");
  if (req.auth && req.sessionCsrfHash && sha256Hex(header) !== req.sessionCsrfHash) {
    throw new AppError("csrf_failed");
  }
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return "null";
  }
}

/** Guard for routes that need a signed-in user. */
export function requireUser(req: FastifyRequest): AuthState {
  if (req.auth) return req.auth;
  throw new AppError(req.authExpired ? "session_expired" : "unauthenticated");
}
