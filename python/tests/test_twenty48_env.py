"""The 2048 environment: gymnasium's checker, the CLI's games, the vector env, masks, records."""

import json

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import bitarcade
from bitarcade.envs import Twenty48Env, Twenty48VecEnv

DIRS = "UDLR"  # action i is the CLI's move letter DIRS[i]


def test_check_env_passes():
    check_env(gym.make("bitarcade/2048-v0").unwrapped)
    check_env(gym.make("bitarcade/2048-v0", mask_in_obs=True).unwrapped)


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


def test_record_replays_in_the_cli(cli, tmp_path):
    env = Twenty48Env()
    _, info = env.reset(seed=99)
    rng = np.random.default_rng(3)
    done = False
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        _, _, term, trunc, info = env.step(int(rng.choice(legal)))
        done = term or trunc
    path = tmp_path / "r.json"
    path.write_text(env.record())
    out = cli("2048", "replay", str(path)).stdout
    assert str(env.score) in out


def test_masks_are_the_legal_moves():
    env = Twenty48Env()
    _, info = env.reset(seed=11)
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(300):
        # A legal action changes the board; an illegal one leaves everything as it was.
        board = env.text()
        legal = info["action_mask"]
        seen.add(int(legal.sum()))
        a = int(rng.integers(0, 4))
        obs, reward, term, trunc, info2 = env.step(a)
        if legal[a]:
            assert env._core.text(0) != board
        else:
            assert env._core.text(0) == board and reward == 0.0
        info = info2
        if term or trunc:
            break
    assert len(seen) > 1  # the walk met positions with illegal moves


def test_vector_env_equals_single_envs():
    n = 300  # past the size where the vector env steps in parallel
    vec = Twenty48VecEnv(n)
    singles = [Twenty48Env() for _ in range(n)]
    obs, info = vec.reset(seed=1000)
    for i, e in enumerate(singles):
        o, inf = e.reset(seed=1000 + i)
        assert np.array_equal(o, obs[i]) and np.array_equal(inf["action_mask"], info["action_mask"][i])
    rng = np.random.default_rng(7)
    pending = [False] * n
    for _ in range(400):
        acts = rng.integers(0, 4, n)
        obs, rew, term, trunc, info = vec.step(acts)
        for i, e in enumerate(singles):
            if pending[i]:  # NEXT_STEP autoreset: this step started the next episode
                o, inf = e.reset()
                assert rew[i] == 0 and not term[i] and not trunc[i]
                pending[i] = False
            else:
                o, r, t, u, inf = e.step(int(acts[i]))
                assert (r, t, u) == (rew[i], term[i], trunc[i])
                pending[i] = t or u
            assert np.array_equal(o, obs[i])
            assert np.array_equal(inf["action_mask"], info["action_mask"][i])


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


def test_bad_input_raises_value_error():
    env = Twenty48Env()
    env.reset(seed=1)
    with pytest.raises(ValueError, match="action: 4"):
        env.step(4)
    with pytest.raises(ValueError, match="unknown field"):
        Twenty48Env(colours=3)
    with pytest.raises(ValueError, match="num_envs"):
        Twenty48VecEnv(0)
    vec = Twenty48VecEnv(3)
    vec.reset(seed=0)
    with pytest.raises(ValueError, match=r"actions\[1\]: -1"):
        vec.step(np.array([0, -1, 2]))


def test_render_modes():
    env = Twenty48Env(render_mode="rgb_array")
    env.reset(seed=0)
    img = env.render()
    assert img.dtype == np.uint8 and img.shape == (4 * 32, 4 * 32, 3)
    env = Twenty48Env(render_mode="ansi")
    env.reset(seed=0)
    assert "score 0" in env.render()
