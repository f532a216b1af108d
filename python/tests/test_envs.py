"""Every environment: gymnasium's checker, the CLI's games and records, the vector envs, masks,
illegal actions, bad input and rendering."""

import json

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import bitarcade  # noqa: F401  (registers the ids)
from bitarcade import envs

GAMES = list(envs.ENVS)
SENTINEL = -12345.0  # an invalid_reward no legal step can earn


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("mask_in_obs", [False, True])
def test_check_env_passes(game, mask_in_obs):
    env = gym.make(f"bitarcade/{game}-v0", mask_in_obs=mask_in_obs)
    check_env(env.unwrapped)
    assert env.observation_space.contains(env.reset(seed=1)[0])


def _random_episode(env, seed, rng, max_steps=2000):
    _, info = env.reset(seed=seed)
    for _ in range(max_steps):
        legal = np.flatnonzero(info["action_mask"])
        _, _, term, trunc, info = env.step(int(rng.choice(legal)))
        if term or trunc:
            return
    raise AssertionError("the episode did not end")


@pytest.mark.parametrize("game", GAMES)
def test_masks_are_exactly_the_legal_actions(game):
    env_cls = envs.ENVS[game][0]
    env = env_cls(invalid_reward=SENTINEL)
    rng = np.random.default_rng(5)
    _, info = env.reset(seed=21)
    n = env.action_space.n
    for _ in range(25):
        mask = info["action_mask"]
        actions = range(n) if n <= 16 else rng.choice(n, 40, replace=False)
        for a in actions:
            probe = env._core.copy()
            before = probe.text(0)
            _, reward, _, _, _ = probe.step1(int(a))
            if mask[a]:
                assert reward != SENTINEL, (a, before)
            else:
                assert reward == SENTINEL and probe.text(0) == before, (a, before)
        legal = np.flatnonzero(mask)
        _, _, term, trunc, info = env.step(int(rng.choice(legal)))
        if term or trunc:
            _, info = env.reset()


@pytest.mark.parametrize("game", GAMES)
def test_vector_env_equals_single_envs(game):
    env_cls, vec_cls = envs.ENVS[game]
    n = 260 if game in ("2048", "Snake", "Drop7") else 6  # past the parallel threshold where cheap
    kw = {"max_steps": 60} if game in ("Snake",) else {}
    vec = vec_cls(n, **kw)
    singles = [env_cls(**kw) for _ in range(n)]
    obs, info = vec.reset(seed=1000)
    for i, e in enumerate(singles):
        o, inf = e.reset(seed=1000 + i)
        assert np.array_equal(o, obs[i]) and np.array_equal(inf["action_mask"], info["action_mask"][i])
    rng = np.random.default_rng(7)
    pending = [False] * n
    ended = 0
    for _ in range(120 if n > 10 else 60):
        # Mostly legal actions, some illegal ones.
        acts = np.array([
            rng.choice(np.flatnonzero(m)) if m.any() and rng.random() < 0.9 else rng.integers(0, len(m))
            for m in info["action_mask"]
        ])
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
                ended += t or u
            assert np.array_equal(o, obs[i])
            assert np.array_equal(inf["action_mask"], info["action_mask"][i])
            assert e.text() == vec.text(i)
    assert ended > 0


@pytest.mark.parametrize("game", [g for g in GAMES if g != "Tetris"])  # Tetris: a PC's record, below
def test_records_replay_in_the_cli(game, cli, tmp_path):
    env = envs.ENVS[game][0]()
    _random_episode(env, 77, np.random.default_rng(1))
    path = tmp_path / "record.json"
    path.write_text(env.record())
    name = "2048" if game == "2048" else game.lower()
    cli(name, "replay", str(path))


def _replay_in_env(env, seed, actions):
    _, info = env.reset(seed=seed)
    term = trunc = False
    for a in actions:
        assert info["action_mask"][a] == 1, a
        _, _, term, trunc, info = env.step(a)
    return term, trunc


def test_snake_seed_is_the_cli_game(cli, tmp_path):
    out = tmp_path / "s.json"
    cli("snake", "play", "--seed", "9", "--player", "shortest", "--record", str(out))
    rec = json.loads(out.read_text())
    env = envs.SnakeEnv()
    term, _ = _replay_in_env(env, 9, ["URDL".index(m) for m in rec["moves"]])
    assert term
    assert json.loads(env.record()) == {**rec, "player": "hand"}


def test_drop7_seed_is_the_cli_game(cli, tmp_path):
    out = tmp_path / "d.json"
    cli("drop7", "play", "--games", "1", "--seed", "4", "--depth", "1", "--record", str(out))
    rec = json.loads(out.read_text())
    env = envs.Drop7Env()
    moves = [t["column"] - 1 for t in rec["turns"]]
    term, _ = _replay_in_env(env, 4, moves)
    assert term
    mine = json.loads(env.record())
    # The same game; only the player differs (the CLI's records its search depth).
    assert {**mine, "depth": None} == {**rec, "depth": None}


def test_samegame_seed_is_the_cli_board(cli, tmp_path):
    out = tmp_path / "g.json"
    cli("samegame", "solve", "--seed", "12", "--width", "8", "--record", str(out))
    rec = json.loads(out.read_text())
    env = envs.SameGameEnv()
    env.reset(seed=12)
    assert env.text().strip() == cli("samegame", "gen", "--seed", "12").stdout.strip()
    term, _ = _replay_in_env(env, 12, [(14 - m["y"]) * 15 + m["x"] for m in rec["moves"]])
    assert term
    mine = json.loads(env.record())
    assert mine["moves"] == rec["moves"] and mine["board"] == rec["board"]


CANONICAL = {"I": {"S": "N", "W": "E"}, "S": {"S": "N", "W": "E"}, "Z": {"S": "N", "W": "E"},
             "O": {"E": "N", "S": "N", "W": "N"}}


def test_tetris_queue_and_solution_are_the_cli_game(cli, tmp_path):
    env = envs.TetrisEnv()
    env.reset(seed=31)
    queue = env.text().split("current ")[1].split()[0] + env.text().split("next ")[1].split()[0]
    out = tmp_path / "t.json"
    cli("tetris", "pc", "--queue", queue, "--record", str(out))
    rec = json.loads(out.read_text())
    actions = []
    for s in rec["steps"]:
        f = CANONICAL.get(s["piece"], {}).get(s["facing"], s["facing"])
        x = min(c[0] for c in s["cells"])
        y = min(c[1] for c in s["cells"])
        actions.append(int(s["hold"]) * 240 + "NESW".index(f) * 60 + y * 10 + x)
    term, _ = _replay_in_env(env, 31, actions)
    assert term and env.score == rec["height"]
    mine = json.loads(env.record())
    assert mine["steps"] == rec["steps"] and mine["queue"] == rec["queue"]
    path = tmp_path / "mine.json"
    path.write_text(env.record())
    cli("tetris", "replay", str(path))


@pytest.mark.parametrize("game", GAMES)
def test_bad_input_raises_value_error(game):
    env_cls, vec_cls = envs.ENVS[game]
    env = env_cls()
    env.reset(seed=1)
    n = env.action_space.n
    with pytest.raises(ValueError, match=f"action: {n} is not an action"):
        env.step(n)
    with pytest.raises(ValueError, match="unknown field"):
        env_cls(no_such_option=3)
    with pytest.raises(ValueError, match="num_envs"):
        vec_cls(0)
    vec = vec_cls(3)
    vec.reset(seed=0)
    with pytest.raises(ValueError, match=r"actions\[1\]: -1"):
        vec.step(np.array([0, -1, 0]))
    with pytest.raises(ValueError, match="render_mode"):
        env_cls(render_mode="human")


@pytest.mark.parametrize("bad", [{"size": "0x5"}, {"size": "40x40"}])
def test_snake_bad_size(bad):
    with pytest.raises(ValueError, match="size"):
        envs.SnakeEnv(**bad)


def test_other_bad_options():
    with pytest.raises(ValueError, match="width"):
        envs.SameGameEnv(width=65)
    with pytest.raises(ValueError, match="colors"):
        envs.SameGameEnv(colors=9)
    with pytest.raises(ValueError, match="mode"):
        envs.Drop7Env(mode="sequence")
    with pytest.raises(ValueError, match="gray_share"):
        envs.Drop7Env(mode="normal", gray_share=[3, 2])
    with pytest.raises(ValueError, match="queue"):
        envs.TetrisEnv(queue="TXQ")


@pytest.mark.parametrize("game", GAMES)
def test_render_modes(game):
    env_cls = envs.ENVS[game][0]
    env = env_cls(render_mode="rgb_array")
    obs, _ = env.reset(seed=0)
    img = env.render()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 1  # not a blank picture
    env = env_cls(render_mode="ansi")
    env.reset(seed=0)
    assert env.render().startswith(env.text())


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_episode_any_way(game):
    env_cls, vec_cls = envs.ENVS[game]
    a, b = env_cls(), env_cls()
    oa, _ = a.reset(seed=5)
    ob, _ = b.reset(seed=5)
    assert np.array_equal(oa, ob)
    # Later episodes follow the seed too: reset() twice gives sub_seed(5, 1), sub_seed(5, 2).
    a.reset()
    b.reset()
    assert a.text() == b.text() and a._core.seed(0) == b._core.seed(0)
    assert a._core.seed(0)[2] == 1
