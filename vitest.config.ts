import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          // Some unit files open a migrated PGlite or read the whole docs tree: seconds on a busy 2-core host, where
          // the 5 s default failed them on time alone.
          testTimeout: 30_000,
          include: [
            "packages/**/*.test.ts",
            "apps/web/**/*.test.{ts,tsx}",
            "apps/server/src/**/*.test.ts",
            "bench/**/*.test.ts",
            "scripts/**/*.test.ts",
          ],
          exclude: ["**/node_modules/**", "**/build/**"],
        },
      },
      {
        test: {
          name: "server",
          include: ["apps/server/test/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // PGlite instances are heavy; two workers fit 2 cores.
          maxWorkers: 2,
          // Files share a worker's module graph instead of importing the whole server again per file, which cuts
          // most of the suite's import time (docs/decisions/0008-server-tests-share-module-graph.md). Safe because
          // every test builds its own app, database and clock: no test mocks a module, stubs a global or writes
          // process.env.
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
