/**
 * Test-only settings, read in this one place: TEST_DATABASE_URL (an admin URL of a PostgreSQL server; each test
 * file gets its own throwaway database there), TEST_REDIS_URL (Redis-backed code paths run when set) and
 * TEST_REQUIRE_REDIS=1 (set by scripts/test-all.sh for its PostgreSQL + Redis pass: a Redis test then fails
 * instead of skipping when TEST_REDIS_URL is missing).
 */
export const testEnv = {
  databaseUrl: process.env.TEST_DATABASE_URL || undefined,
  redisUrl: process.env.TEST_REDIS_URL || undefined,
  requireRedis: process.env.TEST_REQUIRE_REDIS === "1",
};

/**
 * The Redis URL when this run covers the Redis-backed paths, undefined when it deliberately does not (the PGlite
 * pass and a plain `vitest run` on a machine without Redis). Throws, failing the test file, when the run was
 * told Redis is there (TEST_REQUIRE_REDIS=1) but got no URL: a skipped Redis suite must never look green in CI.
 */
export function redisUnderTest(): string | undefined {
  if (testEnv.redisUrl) return testEnv.redisUrl;
  if (testEnv.requireRedis) {
    throw new Error(
      "TEST_REQUIRE_REDIS=1 but TEST_REDIS_URL is empty: this run must exercise the Redis-backed paths. " +
        "Start Redis and set TEST_REDIS_URL=redis://127.0.0.1:6379 (scripts/test-all.sh does), or unset TEST_REQUIRE_REDIS.",
    );
  }
  return undefined;
}
