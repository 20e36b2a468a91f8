/**
 * Redis helpers beside `ctx.redis` (the shared command connection built in app.ts): dedicated connections for
 * pub/sub (a subscribed connection can do nothing else) and key names under REDIS_KEY_PREFIX.
 */
import { Redis } from "ioredis";
import type { BaseContext } from "../base-context.ts";

export function newRedisConnection(ctx: Pick<BaseContext, "config" | "log">): Redis {
  const url = ctx.config.redisUrl;
  if (!url) throw new Error("REDIS_URL is not set");
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  // ioredis reconnects by itself; without a listener an unreachable Redis would crash the process.
  client.on("error", (err) => ctx.log.warn({ err: err.message }, "redis connection error"));
  return client;
}

/** Every Redis key starts with REDIS_KEY_PREFIX so deployments and test runs can share one Redis. */
export function redisKey(ctx: Pick<BaseContext, "config">, ...parts: string[]): string {
  // Concatenated rather than spread into an array and joined: every /v1 admission names its lease set with it,
  // and the array and join were ~0.4 µs of each request (`bench:profile --target postgres`).
  let key = ctx.config.redisKeyPrefix;
  for (const part of parts) key += `:${part}`;
  return key;
}
