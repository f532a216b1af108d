#!/usr/bin/env bash
# One-game shards of a long 2048 row, handed out in seed order to parallel streams, under a
# declared time window; every finished game is replayed and appended as a TSV row.
#
#   shards.sh OUT FIRST_SEED STREAMS START_UNTIL STOP_AT TSV -- PLAY_ARGS...
#
#   OUT          folder for gS.json, gS.rec.json, gS.time, gS.err and log (made if missing)
#   FIRST_SEED   the first master seed S; later seeds follow in order (OUT/next holds the queue)
#   STREAMS      games played at once (one per core)
#   START_UNTIL  UTC time (HH:MM) after which no game starts
#   STOP_AT      UTC time (HH:MM) at which a game still running is stopped and not counted:
#                its seed is left for the next run, which must play it from the start, so a
#                row finished over several runs has no selection
#   TSV          results file that gets one row per finished, replayed game (results_tsv.py rows)
#   PLAY_ARGS    the rest of `bitarcade 2048 play` (without --games, --seed, --json, --record)
#
# BITARCADE (default: target/release/bitarcade) is the binary; copy it somewhere first if you
# will rebuild while the row runs. LAST_SEED, if set, is the row's last seed: no later seed starts.
# Example, session 15's row (nneonneo's depth rule):
#
#   crates/twenty48/scripts/shards.sh /work/s15/g2048 30007 2 08:25 09:02 \
#       crates/twenty48/results/reference-rule-seeds30000.tsv -- --depth-offset 1 --min-depth 4
set -u
if [ $# -lt 7 ] || [ "$7" != "--" ]; then
  sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
OUT=$1 FIRST=$2 STREAMS=$3 UNTIL=$4 STOP=$5 TSV=$6
shift 7
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
    local s
    s=$(flock "$OUT/next.lock" bash -c 's=$(cat "$1"); echo $((s + 1)) > "$1"; echo "$s"' _ "$OUT/next")
    if [ -n "${LAST_SEED:-}" ] && [ "$s" -gt "$LAST_SEED" ]; then
      echo "$(date -u +%T) stream $id: queue done (LAST_SEED $LAST_SEED)" >> "$OUT/log"
      return
    fi
    echo "$(date -u +%T) stream $id start $s" >> "$OUT/log"
    local left=$((stop_s - $(date -u +%s)))
    nice -n 5 /usr/bin/time -f "%U %e" -o "$OUT/g$s.time" timeout -s TERM "$left" \
      "$BIN" 2048 play --games 1 --seed "$s" --threads 1 --json --record "$OUT/g$s.rec.json" "$@" \
      > "$OUT/g$s.json" 2> "$OUT/g$s.err"
    local rc=$?
    if [ "$rc" -eq 0 ] && "$BIN" 2048 replay "$OUT/g$s.rec.json" > /dev/null; then
      flock "$OUT/tsv.lock" python3 "$HERE/results_tsv.py" rows "$OUT/g$s.json" >> "$TSV"
      echo "$(date -u +%T) stream $id end $s: replayed, row written" >> "$OUT/log"
    else
      echo "$(date -u +%T) stream $id end $s: rc $rc, not counted (play it from the start next time)" >> "$OUT/log"
      return
    fi
  done
  echo "$(date -u +%T) stream $id: no start after $UNTIL" >> "$OUT/log"
}

for k in $(seq 1 "$STREAMS"); do
  stream "$k" "$@" &
done
wait
