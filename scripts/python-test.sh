#!/usr/bin/env bash
# The Python package's tests: installs what pytest needs, builds and installs `bitarcade` from
# ./python (the Rust extension with the dev profile, so it reuses what `cargo test --workspace`
# just built; users' `pip install ./python` builds the release profile), then runs pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v python3 >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq python3 python3-pip >/dev/null
fi
pip=(python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore)
"${pip[@]}" "maturin>=1.16,<2" "numpy>=1.22" "gymnasium>=1.0,<2" "pytest>=7" "ray>=2.10"
MATURIN_PEP517_ARGS="--profile dev" "${pip[@]}" --no-build-isolation --force-reinstall --no-deps ./python
[ -x target/debug/bitarcade ] || cargo build -p bitarcade
python3 -m pytest -q python/tests
