/**
 * Revocation events for the gateway's in-memory caches. The console changes the database first (disable, delete
 * or rename a key, archive a project, credit an organization), and the transaction's after-commit hook
 * (lib/transaction.ts) calls `ctx.keyEvents.invalidate(...)` — the keys module and the billing core register it:
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
import type { BaseContext } from "../base-context.ts";
import { newRedisConnection, redisKey } from "../lib/redis.ts";

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

const VERSION_POLL_MS = 500;
const SETTINGS_KEY = "gateway.invalidation_version";

export function createKeyEvents(ctx: Pick<BaseContext, "config" | "database" | "db" | "log" | "redis">): KeyEvents {
  const instance = randomUUID();
  const listeners = new Set<(event: InvalidationEvent) => void>();
  const channel = redisKey(ctx, "gateway", "invalidate");
  const versionKey = redisKey(ctx, "gateway", "invalidation-version");
  let subscriber: Redis | undefined;
  let timer: NodeJS.Timeout | undefined;
  let lastVersion: number | undefined;
  let closed = false;
  let pollFailing = false;
  /** An invalidation whose counter bump failed (store down): bumped by the next successful poll. */
  let owedBump = false;

  const emit = (event: InvalidationEvent) => {
    for (const l of listeners) {
      try {
        l(event);
      } catch (err) {
        ctx.log.error({ err }, "key invalidation listener failed");
      }
    }
  };

  const redis = ctx.redis;
  const mode: "redis" | "postgres" | "local" = redis
    ? "redis"
    : ctx.database.kind === "postgres"
      ? "postgres"
      : "local";

  async function readVersion(): Promise<number> {
    if (mode === "redis") return Number((await redis!.get(versionKey)) ?? 0);
    const rows = await ctx.db
      .select({ value: schema.settings.value })
      .from(schema.settings)
      .where(eq(schema.settings.key, SETTINGS_KEY));
    return Number(rows[0]?.value ?? 0);
  }

  async function bumpVersion(): Promise<number> {
    if (mode === "redis") return redis!.incr(versionKey);
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
      if (owedBump) {
        await bumpVersion();
        owedBump = false;
      }
      const v = await readVersion();
      // After an outage we may have missed messages whatever the counter says: drop everything once.
      if ((lastVersion !== undefined && v !== lastVersion) || pollFailing) emit("all");
      lastVersion = v;
      pollFailing = false;
    } catch (err) {
      // Once per outage, not twice a second. When it comes back, a moved counter drops the cache.
      if (!pollFailing) ctx.log.warn({ err: (err as Error).message }, "invalidation version check failing");
      pollFailing = true;
    }
  }

  return {
    async invalidate(target) {
      emit(target);
      if (mode === "local") return;
      // The console's change is already committed: a store outage must not fail it. Other instances learn of it
      // from the owed counter bump (or drop everything when their own polling recovers).
      try {
        if (mode === "redis") await redis!.publish(channel, JSON.stringify({ from: instance, target }));
        const v = await bumpVersion();
        // Our own bump is not news to us; anything else that moved meanwhile still triggers a full drop.
        if (lastVersion === v - 1) lastVersion = v;
      } catch (err) {
        owedBump = true;
        ctx.log.warn({ err: (err as Error).message }, "could not broadcast a key invalidation; will retry");
      }
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
        // Not awaited: an unreachable Redis must not stop the server from starting; ioredis resubscribes after
        // reconnects, and the version poll covers the gap.
        const sub = subscriber;
        const subscribe = () =>
          sub.subscribe(channel).catch(() => {
            if (!closed) setTimeout(subscribe, 1000).unref();
          });
        await Promise.race([subscribe(), new Promise((r) => setTimeout(r, 2000).unref())]);
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
