#!/usr/bin/env python3
"""Seeded coordinate search over the `ready` evaluator's weights.

Every candidate plays the same games (`bitarcade drop7 play --seed SEED --games N`), so
comparisons are paired; a step is kept only if the mean rises. Deterministic: the same
arguments give the same path. Usage:

    tune.py BITARCADE --depth 2 --reveal-samples 8 --games 512 --seed 1000 --passes 2
"""
import argparse
import json
import subprocess
import sys

NAMES = ["disc", "solid", "cracked", "tall", "full", "ready", "latent"]


def mean(bin_, w, a):
    spec = "ready:" + ",".join(f"{x:g}" for x in w)
    out = subprocess.run(
        ["nice", "-n", "5", bin_, "drop7", "play", "--eval", spec, "--depth", str(a.depth),
         "--reveal-samples", a.reveal_samples, "--games", str(a.games), "--seed", str(a.seed),
         "-j", str(a.threads), "--json"],
        check=True, capture_output=True, text=True).stdout
    return json.loads(out)["summary"]["mean"]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("bin")
    p.add_argument("--depth", type=int, default=2)
    p.add_argument("--reveal-samples", default="8")
    p.add_argument("--games", type=int, default=512)
    p.add_argument("--seed", type=int, default=1000)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--passes", type=int, default=2)
    p.add_argument("--start", default="600,500,250,800,3000,1200,0")
    a = p.parse_args()
    w = [float(x) for x in a.start.split(",")]
    best = mean(a.bin, w, a)
    print(f"start {w} mean {best:.0f}", flush=True)
    for ps in range(a.passes):
        for i, name in enumerate(NAMES):
            for f in (1.5, 1 / 1.5) if ps == 0 else (1.25, 0.8):
                cand = list(w)
                cand[i] = cand[i] * f if cand[i] != 0 else 300.0
                m = mean(a.bin, cand, a)
                kept = m > best
                print(f"pass {ps} {name} x{f:.2f}: {cand} mean {m:.0f} {'KEEP' if kept else ''}",
                      flush=True)
                if kept:
                    w, best = cand, m
                    break
    print("best", ",".join(f"{x:g}" for x in w), f"{best:.0f}")


if __name__ == "__main__":
    sys.exit(main())
