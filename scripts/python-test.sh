#!/usr/bin/env bash
# The Python package's tests: a virtual environment under target/ with what pytest needs (a
# fresh Debian's own Python refuses packages outside one), `bitarcade` built and installed from
# ./python (the Rust extension with the dev profile, so it reuses what `cargo test --workspace`
# just built; users' `pip install ./python` builds the release profile), then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
export BITARCADE_BIN="${BITARCADE_BIN:-${CARGO_TARGET_DIR:-$PWD/target}/debug/bitarcade}"
if ! command -v python3 >/dev/null 2>&1 || ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3 python3-venv python3-pip >/dev/null
fi
venv=target/python-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
py="$venv/bin/python"
# maturin's build backend runs the `maturin` program by name, and with --no-build-isolation pip
# does not put the environment's bin/ on PATH for it, so put it there here.
export PATH="$PWD/$venv/bin:$PATH"
pip=("$py" -m pip install --quiet --disable-pip-version-check)
echo "-- pip: maturin, numpy, gymnasium, pytest, ray"
"${pip[@]}" "maturin>=1.16,<2" "numpy>=1.22" "gymnasium>=1.0,<2" "pytest>=7" "ray>=2.10"
echo "-- the extension (maturin, the dev profile)"
MATURIN_PEP517_ARGS="--profile dev" "${pip[@]}" --no-build-isolation --force-reinstall --no-deps ./python
[ -x "$BITARCADE_BIN" ] || cargo build -p bitarcade
echo "-- pytest"
"$py" -m pytest -q python/tests
