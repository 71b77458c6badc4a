#!/usr/bin/env bash
# `npm run test:aws-requests`, the last step of `npm test`: every request the console's clients sent during the
# run (captured under CONSOLE_REQUEST_CAPTURE by server/aws/request-capture.ts) validated against botocore's
# service models, in the project's Python test environment (.venv-tests/, `npm run py:env`).
# Without that environment it prints why and skips (exit 0), except with PYTHON_TESTS=required (CI): exit 1.
set -uo pipefail
cd "$(dirname "$0")/../.."

VENV=.venv-tests
if [ ! -x "$VENV/bin/python" ]; then
  reason=$(cat "$VENV/SKIPPED" 2>/dev/null || echo "no $VENV (npm run py:env creates it)")
  echo "aws-models: request validation skipped: $reason" >&2
  [ "${PYTHON_TESTS:-}" = "required" ] && exit 1
  exit 0
fi

capture=${CONSOLE_REQUEST_CAPTURE:-$PWD/test-results/aws-requests}
started=$(date +%s%N)
echo "aws-models: requests captured in $capture"
"$VENV/bin/python" tests/aws-models/validate_requests.py "$capture"
status=$?
echo "aws-models: request validation took $((($(date +%s%N) - started) / 1000000)) ms"
exit "$status"
