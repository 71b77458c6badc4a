#!/usr/bin/env bash
# `npm run py:env`: the project's Python test environment (.venv-tests/) from requirements/tests.txt, installed
# with --require-hashes. Idempotent: a venv whose stamp matches the requirements file and the Python version is
# left as it is. Where python3, venv or PyPI is missing it prints why, writes the reason to .venv-tests/SKIPPED
# (tests/aws-models/ print it again and skip) and exits 0; with PYTHON_TESTS=required (CI) it exits 1 instead.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=.venv-tests
REQUIREMENTS=requirements/tests.txt

skip() {
  echo "python tests: skipped: $1" >&2
  if [ "${PYTHON_TESTS:-}" = "required" ]; then
    echo "python tests: PYTHON_TESTS=required, so this is a failure" >&2
    exit 1
  fi
  rm -rf "$VENV"
  mkdir -p "$VENV"
  echo "$1" >"$VENV/SKIPPED"
  exit 0
}

PYTHON=${PYTHON:-python3}
command -v "$PYTHON" >/dev/null 2>&1 || skip "$PYTHON not found on PATH"

stamp="$(sha256sum "$REQUIREMENTS" | cut -d' ' -f1) $("$PYTHON" -c 'import sys; print(sys.version.split()[0])')"
if [ -x "$VENV/bin/python" ] && [ "$(cat "$VENV/stamp" 2>/dev/null)" = "$stamp" ]; then
  echo "python tests: $VENV is up to date with $REQUIREMENTS"
  exit 0
fi

echo "python tests: creating $VENV from $REQUIREMENTS"
rm -rf "$VENV"
"$PYTHON" -m venv "$VENV" >/dev/null 2>&1 ||
  skip "'$PYTHON -m venv' failed (on Debian: apt-get install python3-venv)"
if ! "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes --no-deps \
  -r "$REQUIREMENTS"; then
  skip "pip could not install $REQUIREMENTS (no route to PyPI?)"
fi
echo "$stamp" >"$VENV/stamp"
echo "python tests: $VENV ready ($("$VENV/bin/python" -m pip list --format=freeze 2>/dev/null | wc -l) packages)"
