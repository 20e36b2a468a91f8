/**
 * Rate limits of the account endpoints (values documented in modules/auth/README.md). Counters live in
 * memory, or in Redis when REDIS_URL is set. Per-code limits (one resend per 60 s, 5 wrong tries) are kept with
 * the code in the database instead, so they hold across instances even without Redis.
 */
import type { AppContext } from "../../context.ts";
import { AppError } from "../../lib/app-error.ts";
import { createLimiter, type Limiter } from "../../lib/limiter.ts";

export const AUTH_LIMITS = {
  /** SMS sent to one phone number per hour. */
  smsPerPhone: { points: 10, durationSeconds: 3600 },
  /** SMS requested from one IP address per hour: the default of SMS_PER_IP_PER_HOUR (env.ts). */
  smsPerIp: { points: 30, durationSeconds: 3600 },
  /**
   * Failed sign-ins for one account from one IP address per 15 minutes; a success clears the count. Per pair, not
   * per account: an attacker's failures must not lock the owner out from their own machine.
   */
  signInFailuresPerAccountIp: { points: 10, durationSeconds: 900 },
  /**
   * Failed sign-ins for one account from anywhere per hour. Never refuses (that would hand attackers a lock);
   * above `slowAfter` failures every password check of the account waits (`signInDelayMs`).
   */
  signInFailuresPerAccount: { points: 1_000_000, durationSeconds: 3600, slowAfter: 20 },
  /**
   * Failed sign-ins (password or SMS) from one IP address per 15 minutes, across accounts (credential
   * stuffing). Successful sign-ins do not count, so many people behind one NAT can still sign in.
   */
  signInFailuresPerIp: { points: 50, durationSeconds: 900 },
} as const;

/** Successful sign-ups per IP address: configurable (SIGNUPS_PER_IP_PER_HOUR / _PER_DAY), see env.ts. */
const SIGNUP_WINDOWS = { hour: 3600, day: 86_400 } as const;

interface AuthLimiters {
  smsPerPhone: Limiter;
  smsPerIp: Limiter;
  signInFailuresPerAccountIp: Limiter;
  signInFailuresPerAccount: Limiter;
  signInFailuresPerIp: Limiter;
  signUpsPerIpHour: Limiter;
  signUpsPerIpDay: Limiter;
}

const cache = new WeakMap<AppContext, AuthLimiters>();

export function authLimiters(ctx: AppContext): AuthLimiters {
  let l = cache.get(ctx);
  if (!l) {
    const make = (keyPrefix: keyof typeof AUTH_LIMITS) =>
      createLimiter({ ctx, keyPrefix: `auth:${keyPrefix}`, ...AUTH_LIMITS[keyPrefix] });
    const { perHour, perDay } = ctx.config.signUpsPerIp;
    l = {
      smsPerPhone: make("smsPerPhone"),
      smsPerIp: createLimiter({
        ctx,
        keyPrefix: "auth:smsPerIp",
        points: ctx.config.smsPerIpPerHour,
        durationSeconds: AUTH_LIMITS.smsPerIp.durationSeconds,
      }),
      signInFailuresPerAccountIp: make("signInFailuresPerAccountIp"),
      signInFailuresPerAccount: make("signInFailuresPerAccount"),
      signInFailuresPerIp: make("signInFailuresPerIp"),
      signUpsPerIpHour: createLimiter({
        ctx,
        keyPrefix: "auth:signUpsPerIpHour",
        points: perHour,
        durationSeconds: SIGNUP_WINDOWS.hour,
      }),
      signUpsPerIpDay: createLimiter({
        ctx,
        keyPrefix: "auth:signUpsPerIpDay",
        points: perDay,
        durationSeconds: SIGNUP_WINDOWS.day,
      }),
    };
    cache.set(ctx, l);
  }
  return l;
}

/**
 * How long a password check of an account waits, given its failures from anywhere in the last hour: nothing up
 * to `slowAfter`, then 250 ms more per failure, at most 5 s. Slows a distributed guesser; the owner still gets in.
 */
export function signInDelayMs(accountFailures: number): number {
  const over = accountFailures - AUTH_LIMITS.signInFailuresPerAccount.slowAfter;
  return over <= 0 ? 0 : Math.min(5000, over * 250);
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
