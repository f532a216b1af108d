#!/usr/bin/env python3
"""Per-game rows of `bitarcade 2048 play --json` runs, their summary, and comparisons.

    results_tsv.py rows RUN.json [RUN.json ...] >> results/FILE.tsv
        one line per game: seed, score, moves, max_tile, nodes, cpu_seconds.
        `seed` is the master seed S of the game that `--games 1 --seed S` plays: the run's
        seed for a one-game run, FIRST + index for a `--seeds FIRST..LAST` run (a game of a
        `--games N` run with N > 1 has no master seed and is refused). `cpu_seconds` is the
        first field of RUN.time when that file exists beside RUN.json (the user time written
        by `/usr/bin/time -f "%U ..." -o RUN.time`), else empty.
    results_tsv.py summary A.tsv
        games, average with a 95% interval, median, best, the reach rate of 8192, 16384 and
        32768 with Wilson 95% intervals, nodes per move, CPU seconds per game.
    results_tsv.py compare A.tsv B.tsv
        for 16384 and 32768: both counts and Fisher's exact two-sided p; on the seeds both
        files hold, the mean score difference A - B with a 95% interval and the wins.

Lines starting with '#' are comments. Python 3 standard library only.
"""
import json
import math
import os
import statistics
import sys
from math import comb

COLUMNS = ["seed", "score", "moves", "max_tile", "nodes", "cpu_seconds"]
TILES = (8192, 16384, 32768)


def rows(paths):
    for path in paths:
        with open(path) as f:
            report = json.load(f)
        games = report["games"]
        if "seeds" in report:
            first = int(report["seeds"].split("..")[0])
            masters = [first + g["index"] for g in games]
        elif len(games) == 1:
            masters = [report["seed"]]
        else:
            sys.exit(f"{path}: a --games {len(games)} run has no master seed per game")
        cpu = ""
        stem = path[:-5] if path.endswith(".json") else path
        if os.path.exists(stem + ".time") and len(games) == 1:
            with open(stem + ".time") as f:
                cpu = f"{float(f.read().split()[0]):.2f}"
        for s, g in zip(masters, games):
            print("\t".join(str(x) for x in
                            [s, g["score"], g["moves"], g["max_tile"], g["nodes"], cpu]))


def read(path):
    out = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cells = line.rstrip("\n").split("\t")
            if cells[0] == "seed":
                continue
            row = dict(zip(COLUMNS, cells))
            out[int(row["seed"])] = row
    if not out:
        sys.exit(f"{path}: no rows")
    return out


def wilson(k, n, z=1.96):
    p = k / n
    den = 1 + z * z / n
    c = p + z * z / (2 * n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return 100 * (c - h) / den, 100 * (c + h) / den


def fisher(k1, n1, k2, n2):
    """Fisher's exact test, two-sided (tables no more likely than the observed one)."""
    k, n = k1 + k2, n1 + n2
    prob = lambda a: comb(n1, a) * comb(n2, k - a) / comb(n, k)
    p0 = prob(k1)
    lo, hi = max(0, k - n2), min(k, n1)
    return min(1.0, sum(prob(a) for a in range(lo, hi + 1) if prob(a) <= p0 * (1 + 1e-9)))


def summary(path):
    r = read(path)
    seeds = sorted(r)
    sc = [int(r[s]["score"]) for s in seeds]
    n = len(sc)
    mean = sum(sc) / n
    half = 1.96 * statistics.stdev(sc) / math.sqrt(n) if n > 1 else 0.0
    print(f"games {n} (seeds {seeds[0]}..{seeds[-1]})")
    print(f"average {mean:,.0f} +- {half:,.0f}, median {statistics.median(sc):,.0f}, "
          f"best {max(sc):,}")
    for t in TILES:
        k = sum(int(r[s]["max_tile"]) >= t for s in seeds)
        lo, hi = wilson(k, n)
        print(f"{t}: {k}/{n} = {100 * k / n:.0f}% [{lo:.1f}, {hi:.1f}]")
    moves = sum(int(r[s]["moves"]) for s in seeds)
    nodes = sum(int(r[s]["nodes"]) for s in seeds)
    line = f"nodes per move {nodes / moves:,.0f}"
    cpus = [float(r[s]["cpu_seconds"]) for s in seeds if r[s].get("cpu_seconds")]
    if len(cpus) == n:
        line += f", CPU s per game {sum(cpus) / n:.1f}, game moves per CPU s {moves / sum(cpus):.1f}"
    print(line)


def compare(a_path, b_path):
    a, b = read(a_path), read(b_path)
    for t in TILES[1:]:
        ka = sum(int(x["max_tile"]) >= t for x in a.values())
        kb = sum(int(x["max_tile"]) >= t for x in b.values())
        print(f"{t}: A {ka}/{len(a)}, B {kb}/{len(b)}, Fisher two-sided p = "
              f"{fisher(ka, len(a), kb, len(b)):.4f}")
    both = sorted(set(a) & set(b))
    if len(both) > 1:
        d = [int(a[s]["score"]) - int(b[s]["score"]) for s in both]
        n = len(d)
        mean = sum(d) / n
        half = 1.96 * statistics.stdev(d) / math.sqrt(n)
        print(f"paired on {n} seeds: A - B {mean:,.0f} (95% CI {mean - half:,.0f} .. "
              f"{mean + half:,.0f}), A better in {sum(x > 0 for x in d)}, "
              f"worse in {sum(x < 0 for x in d)}")


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "rows":
        rows(sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "summary":
        summary(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        compare(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    try:
        main()
    except OSError as e:
        sys.exit(f"{e.filename}: {e.strerror}")
    except (ValueError, KeyError) as e:
        sys.exit(f"malformed input: {e!r}")
