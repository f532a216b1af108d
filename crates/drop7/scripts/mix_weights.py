#!/usr/bin/env python3
"""Linear mixes of `fitted` weight files (as `bitarcade drop7 fit --out` writes them).

    mix_weights.py K1 FILE1 [K2 FILE2 ...] > OUT.txt

writes K1 * FILE1 + K2 * FILE2 + ... feature by feature, for `--eval fitted:@OUT.txt`.
`ready` as FILE stands for `Ready::default()` written as fitted weights (crowding
900,500,375,800,4500, readiness 1,200: the test `fitted_spans_ready` checks the identity).
"""
import sys

NAMES = ("bias v1 v2 v3 v4 v5 v6 v7 solid cracked h1 h2 h3 h4 h5 h6 h7 full_d1 full_d2 "
         "full_d3 full_d4 full_d5 six_d1 six_d2 ready latent mismatch exposed d2 d3 d4 d5 "
         "bumps").split()


def ready():
    disc, solid, cracked, tall, full, rd = 900.0, 500.0, 375.0, 800.0, 4500.0, 1200.0
    w = dict.fromkeys(NAMES, 0.0)
    for v in range(1, 8):
        w[f"v{v}"] = -disc
    w["solid"], w["cracked"] = -disc - solid, -disc - cracked
    for h in (5, 6, 7):
        w[f"h{h}"] = -tall * (h - 4) ** 2
    for d in range(1, 6):
        w[f"full_d{d}"] = -full * (6 - d)
    w["ready"] = rd
    return w


def read(path):
    if path == "ready":
        return ready()
    w = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                name, value = line.split()
                w[name] = float(value)
    if list(w) != NAMES:
        sys.exit(f"{path}: expected the {len(NAMES)} features in order")
    return w


def main(args):
    if len(args) < 2 or len(args) % 2:
        sys.exit(__doc__)
    total = dict.fromkeys(NAMES, 0.0)
    parts = []
    for k, path in zip(args[::2], args[1::2]):
        w = read(path)
        for n in NAMES:
            total[n] += float(k) * w[n]
        parts.append(f"{k} * {path}")
    print("# mix_weights.py: " + " + ".join(parts))
    for n in NAMES:
        print(f"{n} {total[n]!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
