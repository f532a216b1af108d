#!/usr/bin/env bash
# Every test of the workspace: the Rust tests, the Python package, then the web arcade in a real
# browser.
# On a fresh machine it installs what the browser suite needs: Debian's Chromium (apt) and the
# suite's Node packages (npm ci, from the committed lockfile; no browser is downloaded).
set -euo pipefail
cd "$(dirname "$0")/.."
# The CLI the Python, browser and API suites run (they read BITARCADE_BIN): the one
# `cargo test --workspace` builds, under CARGO_TARGET_DIR when that is set.
export BITARCADE_BIN="${BITARCADE_BIN:-${CARGO_TARGET_DIR:-$PWD/target}/debug/bitarcade}"

echo "== cargo test --workspace"
# The dev profile (the test profile's settings under the dev profile's name), so the Python
# extension's build below (maturin, --profile dev) reuses these libraries instead of building
# every crate a second time.
cargo test --workspace --profile dev

echo "== the Python package (pytest)"
scripts/python-test.sh

echo "== the web arcade in Chromium"
# The binary the suite serves: `cargo test --workspace` has just built it for the CLI tests.
[ -x "$BITARCADE_BIN" ] || cargo build -p bitarcade
if ! command -v chromium >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi
cd crates/arcade/e2e
npm ci --no-audit --no-fund --loglevel=error
CHROMIUM="$(command -v chromium)" npm test

echo "== the JSON API under schemathesis (driven by /api/openapi.json)"
cd ../../..
scripts/api-fuzz.sh
