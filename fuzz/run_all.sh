#!/usr/bin/env bash
# Runs cargo-fuzz targets one at a time for SECONDS each (default 60) and prints a Markdown
# row per target: executions, seconds, exec/s, new corpus units, peak RSS, result.
#
#   fuzz/run_all.sh                      # every target
#   SECONDS_PER_TARGET=300 fuzz/run_all.sh tetris_field snake_board
#
# Needs the nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`). Each target starts
# from its committed seed corpus (crates/fuzzing/corpus/<target>, read only) and the inputs of
# earlier runs (fuzz/corpus/<target>, where libFuzzer writes new ones). FUZZ_SKIP_KNOWN=1 (the
# default here; set it to 0 to see them) makes the known defects of crates/fuzzing/src/known.rs
# return quietly; any other crash stops the target and is saved under fuzz/artifacts/<target>/.
# Logs go to fuzz/logs/<target>.log. Builds every target once, without a sanitizer (the code
# under test is safe Rust; panics and overflow checks are the oracle) and with debug assertions,
# then runs the binaries themselves (`cargo fuzz run` would rebuild whenever a source changed;
# SKIP_BUILD=1 runs the binaries already built).
set -uo pipefail
cd "$(dirname "$0")/.."
secs="${SECONDS_PER_TARGET:-60}"
export FUZZ_SKIP_KNOWN="${FUZZ_SKIP_KNOWN:-1}"
if [ "$#" -gt 0 ]; then targets=("$@"); else mapfile -t targets < <(cargo +nightly fuzz list); fi
if [ "${SKIP_BUILD:-0}" = 0 ]; then cargo +nightly fuzz build -s none || exit 1; fi
bin="fuzz/target/x86_64-unknown-linux-gnu/release"
mkdir -p fuzz/logs
echo "| target | executions | seconds | exec/s | new units | peak RSS MB | result |"
echo "|---|---:|---:|---:|---:|---:|---|"
for t in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$t" "fuzz/artifacts/$t"
  log="fuzz/logs/$t.log"
  "$bin/$t" -artifact_prefix="fuzz/artifacts/$t/" -max_total_time="$secs" -rss_limit_mb=2048 \
    -timeout=10 -print_final_stats=1 "fuzz/corpus/$t" "crates/fuzzing/corpus/$t" >"$log" 2>&1
  rc=$?
  stat() { grep -m1 "^stat::$1:" "$log" | awk '{print $2}'; }
  runs="$(stat number_of_executed_units)"
  time="$(grep -oE 'Done [0-9]+ runs in [0-9]+ second' "$log" | awk '{print $5}')"
  if [ "$rc" -eq 0 ]; then
    result="no crash"
  else
    art="$(grep -m1 -oE 'Test unit written to [^ ]+' "$log" | awk '{print $5}')"
    result="crash (exit $rc): ${art:-see $log}"
    runs="${runs:-$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')}"
    time="${time:-$(grep -oE 'time: [0-9]+s' "$log" | tail -1)}"
  fi
  rate=""
  if [ -n "${runs:-}" ] && [ -n "${time:-}" ] && [ "${time:-0}" -gt 0 ] 2>/dev/null; then
    rate=$((runs / time))
  fi
  echo "| $t | ${runs:-?} | ${time:-?} | ${rate:-?} | $(stat new_units_added) | $(stat peak_rss_mb) | $result |"
done
