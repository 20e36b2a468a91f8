#!/usr/bin/env bash
# Runs every test: unit, server (PGlite, then PostgreSQL with Redis), browser end-to-end.
#
# Locally the PostgreSQL pass runs when PostgreSQL answers on 127.0.0.1:5432 and covers the Redis-backed paths
# when Redis answers on 127.0.0.1:6379. Under CI=true (or MOONPORT_REQUIRE_SERVICES=1) both are required: a
# service that does not answer fails the run instead of quietly skipping what needs it.
set -euo pipefail
cd "$(dirname "$0")/.."

answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

require_services=false
if [ "${CI:-}" = "true" ] || [ "${MOONPORT_REQUIRE_SERVICES:-}" = "1" ]; then require_services=true; fi

postgres=false
redis=false
if answers 5432; then postgres=true; fi
if answers 6379; then redis=true; fi
if $require_services; then
  missing=()
  $postgres || missing+=("PostgreSQL on 127.0.0.1:5432")
  $redis || missing+=("Redis on 127.0.0.1:6379")
  if [ ${#missing[@]} -gt 0 ]; then
    for m in "${missing[@]}"; do echo "✖ $m does not answer." >&2; done
    echo "  This run requires both (CI=true or MOONPORT_REQUIRE_SERVICES=1) so that no server test is skipped." >&2
    echo "  Start them (.ci/run does when they are installed), or run without CI=true to skip what needs them." >&2
    exit 1
  fi
fi

echo "== unit tests"
npx vitest run --project unit

echo "== server tests on PGlite (without Redis: the in-memory paths)"
TEST_DATABASE_URL= TEST_REDIS_URL= TEST_REQUIRE_REDIS= npx vitest run --project server

if $postgres; then
  if $redis; then
    echo "== server tests on PostgreSQL with Redis"
    redis_url="${TEST_REDIS_URL:-redis://127.0.0.1:6379}"
    require_redis=1
  else
    echo "== server tests on PostgreSQL (Redis not answering on 127.0.0.1:6379: its tests are skipped)"
    redis_url=""
    require_redis=""
  fi
  TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}" TEST_REDIS_URL="$redis_url" \
    TEST_REQUIRE_REDIS="$require_redis" npx vitest run --project server
else
  echo "== PostgreSQL not answering on 127.0.0.1:5432: skipping the PostgreSQL server run"
fi

echo "== end-to-end tests in Chromium"
if [ ! -f apps/web/build/client/index.html ]; then npm run build; fi
npx playwright test
