#!/usr/bin/env bash
# The SameGame browser bot's figures (BENCHMARKS.md, B1-B3), on a release build: a real
# `bitarcade serve`, Debian's Chromium, the bot reading pixels and clicking.
#
#   scripts/samebot-bench.sh [BOARDS]     # BOARDS for the misread rows, default 100
#
# B1: seven 30x20 three-colour boards one after another (the canvas page, its New game button).
# B2: 15x10 three-colour boards (canvas page), 20x10 on the arcade page (its smallest 10-row size).
# B3: misreads and mismatches over BOARDS boards on each page (the arcade's Random seed button,
# clicked where it is whether the status line above it holds one line or two).
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-100}"
bin=target/release/bitarcade
[ -x "$bin" ] || cargo build --release -p bitarcade
chromium="${CHROMIUM:-$(command -v chromium)}"
log=$(mktemp)
"$bin" serve --port 0 >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -f "$log"' EXIT
url=""
for _ in $(seq 100); do
  url=$(grep -o 'http://127.0.0.1:[0-9]*/' "$log" || true)
  [ -n "$url" ] && break
  sleep 0.1
done
canvas="file://$PWD/crates/arcade/e2e/fixtures/canvas-samegame.html"
out=target/samebot-bench
mkdir -p "$out"
bot() { "$bin" samegame bot --chromium "$chromium" --json "$@"; }
cat >"$out/summary.py" <<'PY'
import json, statistics as st, sys
r = json.load(open(sys.argv[1]))
b = r["boards"]
per = [(x["read_ms"] + x["solve_ms"] + x["click_ms"]) / 1e3 for x in b]
clicks = sum(len(x["moves"]) for x in b)
ms = sum(x["click_ms"] for x in b)
cleared = sum(x["cleared"] for x in b)
mism = sum(x["mismatches"] for x in b)
same = sum(x["score"] == x["predicted"] for x in b)
print(f"{sys.argv[2]}: {len(b)} boards, {cleared} cleared, mismatches {mism}, score = predicted on {same}; "
      f"whole run {r['seconds']:.1f} s; per board median {st.median(per):.2f} s, max {max(per):.2f} s; "
      f"{clicks} clicks, {clicks / (ms / 1e3):.1f} clicks/s; read median {st.median(x['read_ms'] for x in b):.0f} ms, "
      f"solve median {st.median(x['solve_ms'] for x in b):.0f} ms")
PY
summary() { python3 "$out/summary.py" "$1" "$2"; }
bot --url "$canvas?seed=1&w=30&h=20&c=3&tile=24" --boards 7 --next-click 188,604 >"$out/b1.json"
summary "$out/b1.json" "B1 canvas 30x20x3, seven boards"
bot --url "$canvas?seed=100&w=15&h=10&c=3" --boards 20 --next-click 188,394 >"$out/b2-canvas.json"
summary "$out/b2-canvas.json" "B2 canvas 15x10x3"
bot --url "${url}#/samegame?w=20&h=10&c=3&seed=1" >"$out/b2-arcade.json"
summary "$out/b2-arcade.json" "B2 arcade 20x10x3"
bot --url "$canvas?seed=1000&w=15&h=10&c=3" --boards "$n" --next-click 188,394 >"$out/b3-canvas.json"
summary "$out/b3-canvas.json" "B3 canvas 15x10x3"
bot --url "${url}#/samegame?w=10&h=10&c=3&seed=1" --boards "$n" --next-click 736,319 >"$out/b3-arcade.json"
summary "$out/b3-arcade.json" "B3 arcade 10x10x3 (Random seed)"
