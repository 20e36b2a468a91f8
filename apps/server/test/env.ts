/**
 * Test-only settings, read in this one place: TEST_DATABASE_URL (an admin URL of a PostgreSQL server; each test
 * file gets its own throwaway database there) and TEST_REDIS_URL (Redis-backed code paths run when set).
 */
export const testEnv = {
  databaseUrl: process.env.TEST_DATABASE_URL || undefined,
  redisUrl: process.env.TEST_REDIS_URL || undefined,
};
