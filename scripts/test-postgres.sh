#!/usr/bin/env bash
# `npm run pg:test-server`: a throwaway PostgreSQL server for the store tests, on 127.0.0.1 only, from Debian's
# postgresql package (.ci/run installs it). Idempotent: a server this script started earlier is reused. It writes
# the URL the tests connect with to .postgres-tests/url (0600); each test makes and drops a database of its own.
# Where PostgreSQL is missing it prints why, writes the reason to .postgres-tests/SKIPPED (the PostgreSQL half of
# the store tests prints it again and skips) and exits 0; with POSTGRES_TESTS=required (CI) it exits 1 instead.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT=.postgres-tests
CLUSTER=${POSTGRES_TESTS_CLUSTER:-${TMPDIR:-/tmp}/decision-console-tests-postgres-$(id -u)}
PORT=${POSTGRES_TESTS_PORT:-54329}

umask 077
rm -rf "$OUT"
mkdir -p "$OUT"

skip() {
  echo "postgres tests: skipped: $1" >&2
  if [ "${POSTGRES_TESTS:-}" = "required" ]; then
    echo "postgres tests: POSTGRES_TESTS=required, so this is a failure" >&2
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

BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
[ -n "$BIN" ] && [ -x "$BIN/initdb" ] || skip "no PostgreSQL server here (on Debian: apt-get install postgresql)"

# PostgreSQL will not run as root: as root, the cluster belongs to the postgres user Debian's package creates.
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || skip "running as root and there is no postgres user to run the server as"
  as_owner() { runuser -u postgres -- "$@"; }
else
  as_owner() { "$@"; }
fi

if ! as_owner "$BIN/pg_ctl" -D "$CLUSTER/data" status >/dev/null 2>&1; then
  rm -rf "$CLUSTER"
  mkdir -p "$CLUSTER"
  [ "$(id -u)" = 0 ] && chown postgres: "$CLUSTER"
  password=$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')
  as_owner bash -c "umask 077; echo '$password' >'$CLUSTER/password'"
  as_owner "$BIN/initdb" -D "$CLUSTER/data" -U console_tests --auth=scram-sha-256 --pwfile="$CLUSTER/password" \
    --encoding=UTF8 --locale=C.UTF-8 >"$OUT/initdb.log" 2>&1 || skip "initdb failed: $(tail -1 "$OUT/initdb.log")"
  # Loopback only, no Unix socket outside the cluster; durability is not what these tests are for.
  as_owner "$BIN/pg_ctl" -D "$CLUSTER/data" -l "$CLUSTER/server.log" -w -t 60 start -o \
    "-c listen_addresses=127.0.0.1 -p $PORT -c unix_socket_directories=$CLUSTER -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
    >/dev/null || skip "the server did not start: $(as_owner tail -3 "$CLUSTER/server.log" | tr '\n' ' ')"
fi

password=$(as_owner cat "$CLUSTER/password")
echo "postgres://console_tests:$password@127.0.0.1:$PORT/postgres" >"$OUT/url"
echo "postgres tests: server on 127.0.0.1:$PORT ($("$BIN/postgres" --version))"
