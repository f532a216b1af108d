#!/usr/bin/env python3
"""The boards a 2048 game record's moves were chosen on, to check a build's decisions.

    record_boards.py RECORD.rec.json [FROM [STEP]]

Rebuilds every board of the record (a plain Python 4x4 engine, independent of the crate's)
and prints `index<TAB>board<TAB>move` for each move whose index i satisfies i >= FROM * moves
(FROM a fraction, default 0) and i % STEP == 0 (default 1), the board in the text form
`bitarcade 2048 best` reads. Checking a build against a record played by another one (session
17, BENCHMARKS.md):

    record_boards.py g30029.rec.json 0.5 97 | while IFS=$'\\t' read -r i b m; do
      got=$(bitarcade 2048 best "$b" --depth-offset 1 --min-depth 4 --json |
            python3 -c 'import json, sys; print(json.load(sys.stdin)["best"])')
      [ "$got" = "$m" ] || echo "move $i: recorded $m, chose $got"
    done

(`best` searches with a fresh table, as `play` does every move by default, so a move's choice
depends only on its board and the search options.)
"""
import json
import sys


def slide(line):
    """One row moved towards index 0, merging equal pairs once."""
    tiles = [x for x in line if x]
    out = []
    i = 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            out.append(2 * tiles[i])
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return out + [0] * (4 - len(out))


def move(board, d):
    """The board (16 tile values, row-major from the top) after move `d` (U, D, L or R)."""
    rows = [board[4 * r : 4 * r + 4] for r in range(4)]
    if d in "LR":
        rows = [slide(r) if d == "L" else slide(r[::-1])[::-1] for r in rows]
    else:
        cols = [[rows[r][c] for r in range(4)] for c in range(4)]
        cols = [slide(c) if d == "U" else slide(c[::-1])[::-1] for c in cols]
        rows = [[cols[c][r] for c in range(4)] for r in range(4)]
    return [x for r in rows for x in r]


def text(board):
    return "/".join(
        " ".join(str(x) if x else "." for x in board[4 * r : 4 * r + 4]) for r in range(4)
    )


def main(argv):
    if len(argv) not in (2, 3, 4):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        sys.exit(2)
    with open(argv[1]) as f:
        rec = json.load(f)
    start = float(argv[2]) if len(argv) > 2 else 0.0
    step = int(argv[3]) if len(argv) > 3 else 1
    board = [0] * 16
    for cell, tile in rec["spawns"][:2]:
        board[cell] = tile
    n = len(rec["moves"])
    for i, d in enumerate(rec["moves"]):
        if i >= start * n and i % step == 0:
            print(i, text(board), d, sep="\t")
        after = move(board, d)
        if after == board:
            sys.exit(f"move {i}: {d} changes nothing on {text(board)}")
        cell, tile = rec["spawns"][i + 2]
        if after[cell]:
            sys.exit(f"move {i}: spawn on the full cell {cell}")
        after[cell] = tile
        board = after


if __name__ == "__main__":
    main(sys.argv)
