/**
 * One shared ioredis connection per app context (REDIS_URL), created on first use and closed with the app.
 * Subscribers need their own connection (a subscribed connection can only pub/sub): `newRedisConnection`.
 */
import { Redis } from "ioredis";
import type { AppContext } from "../context.ts";

const shared = new WeakMap<AppContext, Redis>();

export function newRedisConnection(ctx: AppContext): Redis {
  const url = ctx.config.redisUrl;
  if (!url) throw new Error("REDIS_URL is not set");
  const client = new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: true, lazyConnect: false });
  // ioredis reconnects by itself; without a listener an unreachable Redis would crash the process.
  client.on("error", (err) => ctx.log.warn({ err: err.message }, "redis connection error"));
  return client;
}

/** The context's shared command connection, or undefined without REDIS_URL. */
export function sharedRedis(ctx: AppContext): Redis | undefined {
  if (!ctx.config.redisUrl) return undefined;
  let client = shared.get(ctx);
  if (!client) {
    client = newRedisConnection(ctx);
    shared.set(ctx, client);
  }
  return client;
}

export async function closeSharedRedis(ctx: AppContext): Promise<void> {
  const client = shared.get(ctx);
  if (!client) return;
  shared.delete(ctx);
  await client.quit().catch(() => client.disconnect());
}

/** Every Redis key starts with REDIS_KEY_PREFIX so deployments and test runs can share one Redis. */
export function redisKey(ctx: AppContext, ...parts: string[]): string {
  return [ctx.config.redisKeyPrefix, ...parts].join(":");
}
