#!/usr/bin/env bash
# Runs every test: unit, server (PGlite, then PostgreSQL and Redis when they answer locally), browser end-to-end.
set -euo pipefail
cd "$(dirname "$0")/.."

answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

echo "== unit tests"
npx vitest run --project unit

echo "== server tests on PGlite"
TEST_DATABASE_URL= TEST_REDIS_URL= npx vitest run --project server

if answers 5432; then
  redis=""
  if answers 6379; then redis="redis://127.0.0.1:6379"; fi
  echo "== server tests on PostgreSQL${redis:+ with Redis}"
  TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}" TEST_REDIS_URL="$redis" \
    npx vitest run --project server
else
  echo "== PostgreSQL not answering on 127.0.0.1:5432: skipping the PostgreSQL server run"
fi

echo "== end-to-end tests in Chromium"
if [ ! -f apps/web/build/client/index.html ]; then npm run build; fi
npx playwright test
