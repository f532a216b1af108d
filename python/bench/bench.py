"""The Python package's speed, each figure a median of paired rounds in one run:

1. one 2048 environment through ``gym.make``, beside gymnasium-2048 (same loop, same random
   actions, episodes reset as they end);
2. the vector environments (4,096 games) of 2048, Drop7 and Snake: the step call alone, on
   random legal actions drawn before it;
3. the overhead of a Python call into a solver: ``Expectimax2048.best`` from Python against the
   same search looped in Rust.

    pip install ./python gymnasium-2048 && python python/bench/bench.py
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # numpy's BLAS threads would take a core

import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import gymnasium as gym  # noqa: E402
import numpy as np  # noqa: E402

import bitarcade  # noqa: E402
from bitarcade import _core, envs  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", "5"))


def single_env_rate(env_id: str, steps: int, seed: int) -> float:
    env = gym.make(env_id)
    rng = np.random.default_rng(seed)
    actions = rng.integers(0, 4, steps).tolist()
    env.reset(seed=seed)
    step = env.step
    t = time.perf_counter()
    for a in actions:
        _, _, term, trunc, _ = step(a)
        if term or trunc:
            env.reset()
    rate = steps / (time.perf_counter() - t)
    env.close()
    return rate


def vector_rate(game: str, n: int, calls: int, seed: int) -> float:
    vec = envs.ENVS[game][1](n)
    _, info = vec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = 0.0
    for _ in range(calls):
        m = info["action_mask"].astype(np.float32)
        acts = (m + 0.5 * rng.random(m.shape, dtype=np.float32)).argmax(1)  # a random legal action
        t = time.perf_counter()
        _, _, _, _, info = vec.step(acts)
        total += time.perf_counter() - t
    return n * calls / total


def call_overhead(depth: int, board: int, calls: int) -> tuple:
    solver = _core.Expectimax2048(depth=depth)
    solver.best(board)
    best = solver.best
    t = time.perf_counter()
    for _ in range(calls):
        best(board)
    py_ns = (time.perf_counter() - t) / calls * 1e9
    rust_ns = solver.time_in_rust(board, calls)
    return py_ns, rust_ns


def main() -> None:
    try:
        import gymnasium_2048  # noqa: F401
    except ImportError:
        sys.exit("pip install gymnasium-2048 first: the single-environment figure is a ratio to it")
    theirs, ours = [], []
    for r in range(ROUNDS):
        theirs.append(single_env_rate("gymnasium_2048/TwentyFortyEight-v0", 20_000, r))
        ours.append(single_env_rate("bitarcade/2048-v0", 400_000, r))
    t, o = statistics.median(theirs), statistics.median(ours)
    print("| measure | figure |")
    print("|---|---|")
    print(f"| gymnasium-2048 through gym.make | {t:,.0f} steps/s |")
    print(f"| bitarcade/2048-v0 through gym.make | {o:,.0f} steps/s ({o / t:.1f}x) |")
    for game in ("2048", "Drop7", "Snake"):
        rates = [vector_rate(game, 4096, 300, r) for r in range(ROUNDS)]
        print(f"| {game} vector env, 4,096 games, step call | {statistics.median(rates) / 1e6:.2f} M steps/s |")
    board = _core.Twenty48(5).snapshot()
    b = int(__import__("json").loads(board)["bits"], 16)
    for depth in (1, 2):
        runs = [call_overhead(depth, b, 100_000 if depth == 1 else 20_000) for _ in range(ROUNDS)]
        py = statistics.median(p for p, _ in runs)
        rust = statistics.median(r for _, r in runs)
        print(f"| Expectimax2048.best, depth {depth}: Python call / Rust loop / overhead | "
              f"{py:,.0f} ns / {rust:,.0f} ns / {py - rust:,.0f} ns |")
    print(f"\n(threads: {os.cpu_count()}, bitarcade {bitarcade.__version__}, numpy {np.__version__}, "
          f"gymnasium {gym.__version__})")


if __name__ == "__main__":
    main()
