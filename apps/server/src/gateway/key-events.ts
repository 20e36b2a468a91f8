/**
 * Revocation events for the gateway's in-memory caches. The console changes the database first (disable, delete
 * or rename a key, archive a project, recharge an organization), then calls `ctx.keyEvents.invalidate(...)`:
 *
 *  - this instance evicts at once (listeners run synchronously);
 *  - with REDIS_URL the event is published on a channel every instance subscribes to (sub-millisecond), and a
 *    version counter is bumped in Redis; every instance polls that counter every 500 ms and drops its whole key
 *    cache when it moved without a message arriving (a missed message, a reconnect): the one-second guarantee;
 *  - with PostgreSQL and no Redis the counter lives in the `settings` table and is polled the same way;
 *  - with PGlite there is only one process, so local eviction is the whole story.
 */
import { randomUUID } from "node:crypto";
import { schema } from "@moonport/db";
import { eq, sql } from "drizzle-orm";
import type { Redis } from "ioredis";
import type { AppContext } from "../context.ts";
import { newRedisConnection, redisKey, sharedRedis } from "../lib/redis.ts";

export type InvalidationTarget = { keyHash: string } | { keyId: string } | { projectId: string } | { orgId: string };
/** "all" means: drop everything cached (a missed message was detected). */
export type InvalidationEvent = InvalidationTarget | "all";

export interface KeyEvents {
  /** Call after the database change has committed; resolves once other instances have been told. */
  invalidate(target: InvalidationTarget): Promise<void>;
  subscribe(listener: (event: InvalidationEvent) => void): () => void;
  start(): Promise<void>;
  close(): Promise<void>;
}

export const VERSION_POLL_MS = 500;
const SETTINGS_KEY = "gateway.invalidation_version";

export function createKeyEvents(ctx: AppContext): KeyEvents {
  const instance = randomUUID();
  const listeners = new Set<(event: InvalidationEvent) => void>();
  const channel = redisKey(ctx, "gateway", "invalidate");
  const versionKey = redisKey(ctx, "gateway", "invalidation-version");
  let subscriber: Redis | undefined;
  let timer: NodeJS.Timeout | undefined;
  let lastVersion: number | undefined;
  let closed = false;

  const emit = (event: InvalidationEvent) => {
    for (const l of listeners) {
      try {
        l(event);
      } catch (err) {
        ctx.log.error({ err }, "key invalidation listener failed");
      }
    }
  };

  const mode: "redis" | "postgres" | "local" = ctx.config.redisUrl
    ? "redis"
    : ctx.database.kind === "postgres"
      ? "postgres"
      : "local";

  async function readVersion(): Promise<number> {
    if (mode === "redis") return Number((await sharedRedis(ctx)!.get(versionKey)) ?? 0);
    const rows = await ctx.db
      .select({ value: schema.settings.value })
      .from(schema.settings)
      .where(eq(schema.settings.key, SETTINGS_KEY));
    return Number(rows[0]?.value ?? 0);
  }

  async function bumpVersion(): Promise<number> {
    if (mode === "redis") return sharedRedis(ctx)!.incr(versionKey);
    const rows = await ctx.db
      .insert(schema.settings)
      .values({ key: SETTINGS_KEY, value: 1 })
      .onConflictDoUpdate({
        target: schema.settings.key,
        set: { value: sql`to_jsonb((${schema.settings.value})::text::bigint + 1)`, updatedAt: sql`now()` },
      })
      .returning({ value: schema.settings.value });
    return Number(rows[0]?.value ?? 0);
  }

  async function poll() {
    if (closed) return;
    try {
      const v = await readVersion();
      if (lastVersion !== undefined && v !== lastVersion) emit("all");
      lastVersion = v;
    } catch (err) {
      ctx.log.warn({ err: (err as Error).message }, "invalidation version check failed");
    }
  }

  return {
    async invalidate(target) {
      emit(target);
      if (mode === "local") return;
      if (mode === "redis") {
        await sharedRedis(ctx)!.publish(channel, JSON.stringify({ from: instance, target }));
      }
      const v = await bumpVersion();
      // Our own bump is not news to us; anything else that moved meanwhile still triggers a full drop.
      if (lastVersion === v - 1) lastVersion = v;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async start() {
      if (mode === "local") return;
      if (mode === "redis") {
        subscriber = newRedisConnection(ctx);
        subscriber.on("message", (ch: string, message: string) => {
          if (ch !== channel) return;
          try {
            const parsed = JSON.parse(message) as { from: string; target: InvalidationTarget };
            if (parsed.from !== instance) emit(parsed.target);
          } catch {
            emit("all");
          }
        });
        await subscriber.subscribe(channel);
      }
      await poll();
      timer = setInterval(() => void poll(), VERSION_POLL_MS);
      timer.unref();
    },
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      if (subscriber) await subscriber.quit().catch(() => subscriber?.disconnect());
    },
  };
}
