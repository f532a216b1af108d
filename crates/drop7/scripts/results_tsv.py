#!/usr/bin/env python3
"""Per-game rows of `bitarcade drop7 play --json` runs, and paired comparisons.

    results_tsv.py rows RUN.json [RUN.json ...] >> results/FILE.tsv
        one line per game: index, seed, score, moves, level, over, cpu_seconds, search_moves
        (games of a run played with --first-game K carry their batch index K, K+1, ...)
    results_tsv.py pair A.tsv B.tsv
        the games both files hold (matched by index, seeds checked equal): count, means,
        mean paired difference A - B with a 95% CI (Student t), paired t and its two-sided p
        (normal approximation, as `drop7 ab`), wins and losses.
    results_tsv.py summary A.tsv
        one row file: games, mean with a 95% CI (Student t), median, best, worst, moves a game,
        CPU seconds a move; lists indices missing below the highest (a repeated index is an error).

Lines starting with '#' are comments. Python 3 standard library only.
"""
import json
import math
import statistics
import sys

COLUMNS = ["index", "seed", "score", "moves", "level", "over", "cpu_seconds", "search_moves"]


def rows(paths):
    for path in paths:
        with open(path) as f:
            report = json.load(f)
        first = report.get("first_game", 0)
        for k, g in enumerate(report["results"]):
            cpu = g.get("cpu_seconds")
            print("\t".join(str(x) for x in [
                g.get("index", first + k), g["seed"], g["score"], g["moves"], g["level"],
                str(g["over"]).lower(), "" if cpu is None else f"{cpu:.1f}",
                g["stats"]["moves"]]))


def read(path):
    out = {}
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cells = line.rstrip("\n").split("\t")
            if cells[0] == "index":
                continue
            row = dict(zip(COLUMNS, cells))
            if int(row["index"]) in out:
                sys.exit(f"{path}: game {row['index']} appears twice")
            out[int(row["index"])] = row
    return out


def t95(df):
    # Two-sided 95% Student t quantiles for small df, 1.96 beyond.
    table = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
             9: 2.262, 10: 2.228, 12: 2.179, 15: 2.131, 20: 2.086, 25: 2.060, 30: 2.042,
             40: 2.021, 60: 2.000}
    for k in sorted(table):
        if df <= k:
            return table[k]
    return 1.96


def pair(a_path, b_path):
    a, b = read(a_path), read(b_path)
    both = sorted(set(a) & set(b))
    for i in both:
        if a[i]["seed"] != b[i]["seed"]:
            sys.exit(f"game {i}: seeds differ ({a[i]['seed']} vs {b[i]['seed']})")
    n = len(both)
    if n == 0:
        sys.exit("no game in common")
    sa = [int(a[i]["score"]) for i in both]
    sb = [int(b[i]["score"]) for i in both]
    d = [x - y for x, y in zip(sa, sb)]
    mean = sum(d) / n
    print(f"games {n} (indices {both[0]}..{both[-1]})")
    print(f"A mean {sum(sa) / n:.0f}, B mean {sum(sb) / n:.0f}")
    if n > 1:
        sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
        se = sd / math.sqrt(n)
        half = t95(n - 1) * se
        t = mean / se if se > 0 else 0.0
        p = math.erfc(abs(t) / math.sqrt(2))
        print(f"A - B {mean:.0f} (95% CI {mean - half:.0f} .. {mean + half:.0f}), paired t {t:.2f}, "
              f"p {p:.4f} (two-sided, normal approx.)")
    print(f"A better in {sum(x > 0 for x in d)}, worse in {sum(x < 0 for x in d)}")
    for i, x, y in zip(both, sa, sb):
        print(f"  game {i}: {x} vs {y} ({x - y:+d})")


def summary(path):
    r = read(path)
    idx = sorted(r)
    n = len(idx)
    if n == 0:
        sys.exit(f"{path}: no game rows")
    missing = sorted(set(range(idx[-1] + 1)) - set(idx))
    sc = [int(r[i]["score"]) for i in idx]
    mean = statistics.fmean(sc)
    print(f"games {n} (indices {idx[0]}..{idx[-1]}"
          + (f", missing {', '.join(map(str, missing))})" if missing else ")"))
    line = f"mean {mean:,.0f}"
    if n > 1:
        half = t95(n - 1) * statistics.stdev(sc) / math.sqrt(n)
        line += f" (95% CI {mean - half:,.0f} .. {mean + half:,.0f})"
    print(f"{line}, median {statistics.median(sc):,.0f}, best {max(sc):,}, worst {min(sc):,}")
    moves = sum(int(r[i]["moves"]) for i in idx)
    line = f"moves {moves:,} ({moves / n:.1f} a game)"
    cpus = [float(r[i]["cpu_seconds"]) for i in idx if r[i].get("cpu_seconds")]
    if len(cpus) == n:
        line += f", CPU s {sum(cpus):,.0f} ({sum(cpus) / moves:.2f} a move)"
    print(line)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "rows":
        rows(sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "pair":
        pair(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "summary":
        summary(sys.argv[2])
    else:
        sys.exit(__doc__)
