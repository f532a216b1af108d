"""The 2048 environment: the CLI's games, the invalid-move rules (the rest: test_envs.py)."""

import json

import numpy as np
import pytest

from bitarcade.envs import Twenty48Env, Twenty48VecEnv

DIRS = "UDLR"  # action i is the CLI's move letter DIRS[i]


def test_seeded_game_is_the_cli_game(cli, tmp_path):
    for seed in (5, 123456789):
        out = tmp_path / f"g{seed}.json"
        cli("2048", "play", "--games", "1", "--seed", str(seed), "--depth", "1", "--record", str(out))
        rec = json.loads(out.read_text())
        env = Twenty48Env()
        obs, info = env.reset(seed=seed)
        for letter in rec["moves"]:
            assert info["action_mask"][DIRS.index(letter)] == 1
            obs, reward, terminated, truncated, info = env.step(DIRS.index(letter))
        assert terminated and not truncated
        assert json.loads(env.record()) == rec
        assert env.score == rec["score"]


def test_invalid_moves_truncate_and_change_nothing():
    env = Twenty48Env(max_invalid=3, invalid_reward=-1.0)
    for seed in range(100):  # the first seed whose start has an illegal move
        _, info = env.reset(seed=seed)
        illegal = [a for a in range(4) if not info["action_mask"][a]]
        if illegal:
            break
    before = env.text()
    for k in range(3):
        _, r, term, trunc, _ = env.step(illegal[0])
        assert r == -1.0 and env.text() == before
    assert trunc and not term


