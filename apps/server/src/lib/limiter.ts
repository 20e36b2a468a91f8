/**
 * Fixed-window counters from rate-limiter-flexible: in memory by default, shared through Redis when REDIS_URL is
 * set (every instance then counts against the same keys).
 */
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis } from "rate-limiter-flexible";
import type { AppContext } from "../context.ts";
import { redisKey, sharedRedis } from "./redis.ts";

export function createLimiter(opts: {
  ctx: AppContext;
  keyPrefix: string;
  points: number;
  durationSeconds: number;
}): RateLimiterAbstract {
  const { ctx, keyPrefix, points, durationSeconds } = opts;
  const redis = sharedRedis(ctx);
  if (redis) {
    return new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: redisKey(ctx, "rl", keyPrefix),
      points,
      duration: durationSeconds,
    });
  }
  return new RateLimiterMemory({ keyPrefix, points, duration: durationSeconds });
}
