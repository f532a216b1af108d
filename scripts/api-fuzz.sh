#!/usr/bin/env bash
# A bounded schemathesis run against a live `bitarcade serve`, driven by the server's own
# OpenAPI document (GET /api/openapi.json): every operation gets examples, the coverage phase
# and random fuzzing, and every answer is checked: no 5xx, every status documented (errors as
# one-line JSON), the content type and the body as the document says. Seeded, so a failure
# reproduces with the same command. The server's stderr must stay free of panics.
#
#   scripts/api-fuzz.sh [EXAMPLES]   # EXAMPLES per operation, default 20 (about 90 s)
set -euo pipefail
cd "$(dirname "$0")/.."
examples="${1:-20}"
version="4.32.5"

if ! python3 -m schemathesis.cli --version 2>/dev/null | grep -q "$version"; then
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
    "schemathesis==$version"
fi
export BITARCADE_BIN="${BITARCADE_BIN:-${CARGO_TARGET_DIR:-$PWD/target}/debug/bitarcade}"
[ -x "$BITARCADE_BIN" ] || cargo build -p bitarcade

log=$(mktemp)
# Short deadlines keep each streamed run and hint to a few seconds.
"$BITARCADE_BIN" serve --port 0 --run-seconds 2 --hint-seconds 1 >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f "$log"' EXIT
url=""
for _ in $(seq 100); do
  url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$log" || true)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || { cat "$log"; echo "api-fuzz: the server did not start"; exit 1; }

report=target/schemathesis
rm -rf "$report"
python3 -m schemathesis.cli run "${url}api/openapi.json" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance \
  --phases examples,coverage,fuzzing \
  --max-examples "$examples" --seed 1 --generation-deterministic \
  --request-timeout 30 --workers 1 --no-color \
  --report junit --report-dir "$report"

if grep -q "panicked" "$log"; then
  cat "$log"
  echo "api-fuzz: the server panicked"
  exit 1
fi
echo "api-fuzz: no failures; the server's log has no panic"
