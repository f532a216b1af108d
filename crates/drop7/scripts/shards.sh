#!/usr/bin/env bash
# One-game shards of a long Drop7 row (the standard games K = 0, 1, ... of one master seed),
# handed out in index order to parallel streams under a declared time window; every finished
# game's record is replayed and the game appended as a TSV row (results_tsv.py rows).
#
#   shards.sh OUT FIRST_K LAST_K STREAMS START_UNTIL STOP_AT TSV -- PLAY_ARGS...
#
#   OUT          folder for gK.json, gK.rec.json, gK.err and log (made if missing)
#   FIRST_K      the first game index; later ones follow in order (OUT/next holds the queue)
#   LAST_K       the last game index of the row (63 for the standard 64 games)
#   STREAMS      games played at once (one per core)
#   START_UNTIL  UTC time (HH:MM) after which no game starts
#   STOP_AT      UTC time (HH:MM) at which a game still running is stopped and not counted:
#                its index is left for the next run, which plays it from the start, so a row
#                finished over several runs has no selection
#   TSV          results file that gets one row per finished, replayed game
#   PLAY_ARGS    the rest of `bitarcade drop7 play` (without --first-game, --games, -j,
#                --json, --record), e.g. --eval ntuple:@tcb.d7n --reveals paired --depth 5
#                --seed 1 --table-bits 20
#
# BITARCADE (default: target/release/bitarcade) is the binary; copy it somewhere first if you
# will rebuild while the row runs. Example, the depth-5 row over tcb.d7n from game 19:
#
#   crates/drop7/scripts/shards.sh /work/s19/d7 19 63 2 20:00 20:40 \
#       crates/drop7/results/depth5-seed1-ntuple-tcb.tsv -- \
#       --eval ntuple:@/work/s19/tcb.d7n --reveals paired --depth 5 --seed 1 --table-bits 20
set -u
if [ $# -lt 8 ] || [ "$8" != "--" ]; then
  sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
OUT=$1 FIRST=$2 LAST=$3 STREAMS=$4 UNTIL=$5 STOP=$6 TSV=$7
shift 8
BIN=${BITARCADE:-target/release/bitarcade}
HERE=$(cd "$(dirname "$0")" && pwd)
[ -x "$BIN" ] || { echo "shards.sh: no binary at $BIN (cargo build --release, or set BITARCADE)" >&2; exit 2; }
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
until_s=$(date -u -d "today $UNTIL" +%s) || exit 2
stop_s=$(date -u -d "today $STOP" +%s) || exit 2
[ "$stop_s" -gt "$until_s" ] || { echo "shards.sh: STOP_AT ($STOP) must come after START_UNTIL ($UNTIL)" >&2; exit 2; }
mkdir -p "$OUT"
[ -f "$OUT/next" ] || echo "$FIRST" > "$OUT/next"

stream() {
  local id=$1
  shift
  while [ "$(date -u +%s)" -lt "$until_s" ]; do
    local k
    k=$(flock "$OUT/next.lock" bash -c 'k=$(cat "$1"); echo $((k + 1)) > "$1"; echo "$k"' _ "$OUT/next")
    if [ "$k" -gt "$LAST" ]; then
      echo "$(date -u +%T) stream $id: the row is complete (last game $LAST)" >> "$OUT/log"
      return
    fi
    echo "$(date -u +%T) stream $id start $k" >> "$OUT/log"
    local left=$((stop_s - $(date -u +%s)))
    nice -n 5 timeout -s TERM "$left" "$BIN" drop7 play --first-game "$k" --games 1 -j 1 \
      --json --record "$OUT/g$k.rec.json" "$@" > "$OUT/g$k.json" 2> "$OUT/g$k.err"
    local rc=$?
    if [ "$rc" -eq 0 ] && "$BIN" drop7 replay "$OUT/g$k.rec.json" > /dev/null; then
      flock "$OUT/tsv.lock" python3 "$HERE/results_tsv.py" rows "$OUT/g$k.json" >> "$TSV"
      echo "$(date -u +%T) stream $id end $k: replayed, row written" >> "$OUT/log"
    else
      echo "$(date -u +%T) stream $id end $k: rc $rc, not counted (play it from the start next time)" >> "$OUT/log"
      return
    fi
  done
  echo "$(date -u +%T) stream $id: no start after $UNTIL" >> "$OUT/log"
}

for i in $(seq 1 "$STREAMS"); do
  stream "$i" "$@" &
done
wait
