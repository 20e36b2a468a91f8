/**
 * Console sessions and CSRF protection. The session cookie is HttpOnly and SameSite=Lax; only SHA-256 of its
 * token is stored. CSRF uses a double-submit token bound to the session (its hash is stored with the session)
 * plus an Origin check, so a state-changing request from another site fails even with cookies attached.
 */
import { randomBytes } from "node:crypto";
import { type Db, newId, schema, sha256Hex, type Tx } from "@moonport/db";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { FastifyReply, FastifyRequest } from "fastify";
import { AppError } from "../lib/app-error.ts";

const SESSION_COOKIE = "mp_session";
export const CSRF_COOKIE = "mp_csrf";
const CSRF_HEADER = "x-csrf-token";
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

/** Who is signing in from where; recorded with the session and shown in the session list. */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
  /** The session token the browser already held, revoked at sign-in (rotation). */
  previousToken?: string;
}

export function clientInfo(req: FastifyRequest): ClientInfo {
  return {
    ip: req.ip ?? null,
    userAgent: req.headers["user-agent"]?.slice(0, 512) ?? null,
    previousToken: req.cookies[SESSION_COOKIE],
  };
}

/** A freshly created session: the tokens go to the browser once and are never stored. */
export interface NewSession {
  id: string;
  token: string;
  csrf: string;
  expiresAt: Date;
}

/**
 * Stores a new session for `userId` (only hashes of its tokens). Rotation: a token the browser held before
 * sign-in (possibly planted) is revoked and never becomes a signed-in session.
 */
export async function createSession(opts: {
  db: Db | Tx;
  userId: string;
  ttlMs: number;
  now: Date;
  client: ClientInfo;
}): Promise<NewSession> {
  const { db, userId, ttlMs, now, client } = opts;
  if (client.previousToken) {
    await db
      .update(schema.sessions)
      .set({ revokedAt: now })
      .where(and(eq(schema.sessions.tokenHash, sha256Hex(client.previousToken)), isNull(schema.sessions.revokedAt)));
  }
  const session: NewSession = {
    id: newId("ses"),
    token: newToken(),
    csrf: newToken(),
    expiresAt: new Date(now.getTime() + ttlMs),
  };
  await db.insert(schema.sessions).values({
    id: session.id,
    userId,
    tokenHash: sha256Hex(session.token),
    csrfHash: sha256Hex(session.csrf),
    ip: client.ip,
    userAgent: client.userAgent,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: session.expiresAt,
  });
  return session;
}

/** Hands a new session to the browser: the HttpOnly session cookie and the CSRF token bound to it. */
export function setSessionCookies(req: FastifyRequest, reply: FastifyReply, session: NewSession) {
  reply.setCookie(SESSION_COOKIE, session.token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: secure(req),
    expires: session.expiresAt,
  });
  setCsrfCookie(req, reply, session.csrf);
}

/** Signs the browser out: revokes its session (if any) and clears the cookie; a fresh anonymous CSRF token. */
export async function endSession(opts: { db: Db; req: FastifyRequest; reply: FastifyReply; now?: Date }) {
  const { db, req, reply } = opts;
  if (req.auth) {
    await db
      .update(schema.sessions)
      .set({ revokedAt: opts.now ?? new Date() })
      .where(eq(schema.sessions.id, req.auth.sessionId));
  }
  clearSessionCookies(req, reply);
}

export function clearSessionCookies(req: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: "/" });
  setCsrfCookie(req, reply, newToken());
}

/** Resolves the session cookie into `req.auth` (or records that it expired). Runs on every /api request. */
export async function loadSession(db: Db, req: FastifyRequest, now: Date = new Date()): Promise<void> {
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
  if (row.expiresAt.getTime() <= now.getTime()) {
    req.authExpired = true;
    return;
  }
  req.auth = { sessionId: row.id, userId: row.userId, expiresAt: row.expiresAt };
  req.sessionCsrfHash = row.csrfHash;
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await db
      .update(schema.sessions)
      .set({ lastSeenAt: now })
      .where(and(eq(schema.sessions.id, row.id), gt(schema.sessions.expiresAt, now)));
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
