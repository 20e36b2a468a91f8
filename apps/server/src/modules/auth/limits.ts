/**
 * Rate limits of the account endpoints (values documented in ARCHITECTURE.md, "Accounts"). Counters live in
 * memory, or in Redis when REDIS_URL is set. Per-code limits (one resend per 60 s, 5 wrong tries) are kept with
 * the code in the database instead, so they hold across instances even without Redis.
 */
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { createLimiter, type Limiter } from "../../lib/limiter.ts";

export const AUTH_LIMITS = {
  /** SMS sent to one phone number per hour. */
  smsPerPhone: { points: 10, durationSeconds: 3600 },
  /** SMS requested from one IP address per hour. */
  smsPerIp: { points: 30, durationSeconds: 3600 },
  /** Failed sign-ins for one account (username or phone) per 15 minutes; a success clears the count. */
  signInFailuresPerAccount: { points: 10, durationSeconds: 900 },
  /**
   * Failed sign-ins (password or SMS) from one IP address per 15 minutes, across accounts (credential
   * stuffing). Successful sign-ins do not count, so many people behind one NAT can still sign in.
   */
  signInFailuresPerIp: { points: 50, durationSeconds: 900 },
} as const;

export interface AuthLimiters {
  smsPerPhone: Limiter;
  smsPerIp: Limiter;
  signInFailuresPerAccount: Limiter;
  signInFailuresPerIp: Limiter;
}

const cache = new WeakMap<AppContext, AuthLimiters>();

export function authLimiters(ctx: AppContext): AuthLimiters {
  let l = cache.get(ctx);
  if (!l) {
    const make = (keyPrefix: keyof typeof AUTH_LIMITS) =>
      createLimiter({ ctx, keyPrefix: `auth:${keyPrefix}`, ...AUTH_LIMITS[keyPrefix] });
    l = {
      smsPerPhone: make("smsPerPhone"),
      smsPerIp: make("smsPerIp"),
      signInFailuresPerAccount: make("signInFailuresPerAccount"),
      signInFailuresPerIp: make("signInFailuresPerIp"),
    };
    cache.set(ctx, l);
  }
  return l;
}

/** Spends one point or throws `rate_limited` with the seconds to wait (also as Retry-After). */
export async function enforce(limiter: Limiter, key: string): Promise<void> {
  const r = await limiter.hit(key);
  if (!r.allowed) throw rateLimited(r.retryAfterSeconds);
}

/** Throws `rate_limited` when `key` has no points left, without spending one. */
export async function ensureNotBlocked(limiter: Limiter, key: string): Promise<void> {
  const r = await limiter.peek(key);
  if (!r.allowed) throw rateLimited(r.retryAfterSeconds);
}

export function rateLimited(seconds: number): AppError {
  return new AppError("rate_limited", { params: { seconds }, headers: { "retry-after": String(seconds) } });
}
