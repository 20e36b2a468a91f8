/**
 * Two app instances on one database and one Redis, under a key prefix of their own, with a client to read that
 * Redis: what the multi-instance tests start from. `close` stops both and deletes the prefix's keys.
 */
import { randomString } from "@moonport/db";
import { Redis } from "ioredis";
import { createTestApp, type TestApp } from "../helpers.ts";
import { FIXTURE_DOCS } from "./fixtures.ts";

export interface RedisInstances {
  a: TestApp;
  b: TestApp;
  redis: Redis;
  prefix: string;
  close(): Promise<void>;
}

export async function startRedisInstances(redisUrl: string, env: Record<string, string> = {}): Promise<RedisInstances> {
  const prefix = `mp-test-${randomString(8, "abcdefghijklmnopqrstuvwxyz")}`;
  const full = { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: prefix, DOCS_DIR: FIXTURE_DOCS, ...env };
  const a = await createTestApp(full);
  const b = await createTestApp(full, { database: a.ctx.database });
  const redis = new Redis(redisUrl);
  return {
    a,
    b,
    redis,
    prefix,
    async close() {
      await b.close();
      await a.close();
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
      await redis.quit();
    },
  };
}
