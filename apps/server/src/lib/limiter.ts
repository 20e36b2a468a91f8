/**
 * One factory for fixed-window rate limiters: in process memory by default, in Redis when REDIS_URL is set (so
 * every instance shares the counters). Keys are namespaced by REDIS_KEY_PREFIX and `keyPrefix`.
 */
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { BaseContext } from "../base-context.ts";

export interface LimitResult {
  allowed: boolean;
  /** Points left in the current window (0 when refused). */
  remaining: number;
  /** Whole seconds until the window resets (at least 1 when refused). */
  retryAfterSeconds: number;
}

export interface Limiter {
  /** Spends `points` for `key`; refused when that would exceed the window's budget. */
  hit(key: string, points?: number): Promise<LimitResult>;
  /** Looks without spending. */
  peek(key: string): Promise<LimitResult>;
  /** Forgets `key` (e.g. failed sign-ins after a successful one). */
  reset(key: string): Promise<void>;
  readonly points: number;
  readonly raw: RateLimiterAbstract;
}

export function createLimiter(opts: {
  ctx: Pick<BaseContext, "config" | "redis">;
  keyPrefix: string;
  points: number;
  durationSeconds: number;
}): Limiter {
  const { ctx, points, durationSeconds } = opts;
  const keyPrefix = `${ctx.config.redisKeyPrefix}:rl:${opts.keyPrefix}`;
  const memory = new RateLimiterMemory({ keyPrefix, points, duration: durationSeconds });
  // While Redis is unreachable, counting goes on in this process instead of failing every request.
  const raw: RateLimiterAbstract = ctx.redis
    ? new RateLimiterRedis({
        storeClient: ctx.redis,
        keyPrefix,
        points,
        duration: durationSeconds,
        insuranceLimiter: memory,
      })
    : memory;
  const result = (r: RateLimiterRes, allowed: boolean): LimitResult => ({
    allowed,
    remaining: allowed ? Math.max(0, r.remainingPoints) : 0,
    retryAfterSeconds: Math.max(allowed ? 0 : 1, Math.ceil(r.msBeforeNext / 1000)),
  });
  return {
    points,
    raw,
    async hit(key, n = 1) {
      try {
        return result(await raw.consume(key, n), true);
      } catch (e) {
        // rate-limiter-flexible rejects with a RateLimiterRes when over budget, with an Error on store failure.
        if (e instanceof RateLimiterRes) return result(e, false);
        throw e;
      }
    },
    async peek(key) {
      const r = await raw.get(key);
      if (!r) return { allowed: true, remaining: points, retryAfterSeconds: 0 };
      return result(r, r.consumedPoints < points);
    },
    async reset(key) {
      await raw.delete(key);
    },
  };
}

const shared = new WeakMap<object, Map<string, Limiter>>();

/**
 * The limiter of one app context for `keyPrefix`, made on first use. Limiters hold counters (in memory without
 * Redis), so they must live as long as the app, not the request; this keeps that cache in one place instead of a
 * WeakMap in every module that limits something.
 */
export function limiterFor(
  ctx: Pick<BaseContext, "config" | "redis">,
  keyPrefix: string,
  points: number,
  durationSeconds: number,
): Limiter {
  let byPrefix = shared.get(ctx);
  if (!byPrefix) {
    byPrefix = new Map();
    shared.set(ctx, byPrefix);
  }
  let limiter = byPrefix.get(keyPrefix);
  if (!limiter) {
    limiter = createLimiter({ ctx, keyPrefix, points, durationSeconds });
    byPrefix.set(keyPrefix, limiter);
  }
  return limiter;
}
