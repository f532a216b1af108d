"""The games on the live contract: legal moves (= the environments' masks), play, copy, records
(through the CLI's replay), the solvers, verbs by name, bad input, progress and Ctrl-C."""

import copy
import json
import os
import signal
import threading
import time

import numpy as np
import pytest

import bitarcade
from bitarcade import envs

CLASSES = {"SameGame": bitarcade.SameGame, "Tetris": bitarcade.Tetris, "Drop7": bitarcade.Drop7,
           "2048": bitarcade.Twenty48, "Snake": bitarcade.Snake}


def _action(game, move, width=15, height=15):
    if game == "2048":
        return "UDLR".index(move)
    if game == "Snake":
        return "URDL".index(move)
    if game == "Drop7":
        return int(move) - 1
    if game == "SameGame":
        x, y = map(int, move.split("."))
        return (height - 1 - y) * width + x
    hold = move.startswith("h")
    _, facing, x, y = move[hold:]
    return hold * 240 + "NESW".index(facing) * 60 + int(y) * 10 + int(x)


@pytest.mark.parametrize("game", list(CLASSES))
def test_masks_equal_the_contracts_legal_moves(game):
    rng = np.random.default_rng(2)
    for seed in (3, 40, 500):
        g = CLASSES[game](seed)
        env = envs.ENVS[game][0]()
        obs, info = env.reset(seed=seed)
        for _ in range(60):
            legal = g.legal()
            mask = info["action_mask"]
            if game == "SameGame":
                # One move per group; the mask marks every cell of every group.
                groups = g.snapshot()["groups"]
                assert all(mask[_action(game, m)] for m in legal)
                assert mask.sum() == sum(gr["size"] for gr in groups) and len(groups) == len(legal)
            else:
                assert sorted(_action(game, m) for m in legal) == list(np.flatnonzero(mask))
            if not legal:
                break
            m = legal[rng.integers(len(legal))]
            g.play(m)
            obs, _, term, trunc, info = env.step(_action(game, m))
            assert str(g) == env.text()
            if term or trunc:
                assert g.over
                break


@pytest.mark.parametrize("game", list(CLASSES))
def test_board_views_match_the_environment(game):
    g = CLASSES[game](8)
    env = envs.ENVS[game][0]()
    obs, _ = env.reset(seed=8)
    rows = g.board.shape[0]
    if game == "Tetris":  # the zone is the bottom of the environment's six rows
        assert np.array_equal(g.board, obs[6 - rows : 6])
    else:
        assert np.array_equal(g.board, obs[:rows])


@pytest.mark.parametrize("game", list(CLASSES))
def test_play_copy_and_errors(game):
    g = CLASSES[game](11)
    first = g.legal()[0]
    h = g.copy()
    g.play(first)
    assert g.moves == first and h.moves == ""
    assert copy.deepcopy(g).moves == first
    before = (g.moves, str(g))
    with pytest.raises(ValueError):
        g.play("not a move")
    assert (g.moves, str(g)) == before  # nothing played
    with pytest.raises(ValueError, match="unknown field"):
        CLASSES[game](1, no_such_setup=1)
    with pytest.raises(ValueError, match="unknown field"):
        g.hint(no_such_search=1)


CLI_NAME = {"SameGame": "samegame", "Tetris": "tetris", "Drop7": "drop7", "2048": "2048", "Snake": "snake"}
SEARCH = {"SameGame": {}, "Tetris": {}, "Drop7": {"depth": 1}, "2048": {"depth": 1}, "Snake": {}}


@pytest.mark.parametrize("game", list(CLASSES))
def test_auto_records_replay_in_the_cli_and_load_back(game, cli, tmp_path):
    g = CLASSES[game](21)
    run = g.auto(max_moves=None if game in ("SameGame", "Tetris") else 40, **SEARCH[game])
    assert run["played"] > 0 and g.moves == run["moves"]
    path = tmp_path / "rec.json"
    g.save(path)
    cli(CLI_NAME[game], "replay", str(path))
    back = CLASSES[game].from_record(path)
    assert back.moves == g.moves and str(back) == str(g) and back.score == g.score


@pytest.mark.parametrize("game", list(CLASSES))
def test_hint_gives_a_legal_move(game):
    g = CLASSES[game](5)
    h = g.hint(**SEARCH[game])
    assert h["move"] in g.legal()


def test_records_of_another_game_are_refused():
    rec = bitarcade.Twenty48(1).play("L").record()
    with pytest.raises(ValueError, match="record"):
        bitarcade.Drop7.from_record(rec)
    with pytest.raises(ValueError, match="record"):
        bitarcade.Snake.from_record("{not json")
    with pytest.raises(FileNotFoundError):
        bitarcade.Snake.from_record("no/such/record.json")


def test_run_verbs_by_name(cli):
    gen = bitarcade.run("samegame.gen", width=6, height=4, colors=3, seed=9)
    assert gen["boards"][0].strip() == cli(
        "samegame", "gen", "--width", "6", "--height", "4", "--colors", "3", "--seed", "9").stdout.strip()
    pc = bitarcade.run("tetris.pc", queue="TJISLOZTJZI")
    assert pc["report"]["found"] and pc["report"]["height"] == 4
    with pytest.raises(ValueError, match="verb"):
        bitarcade.run("chess.play")
    with pytest.raises(ValueError, match="unknown field"):
        bitarcade.run("2048.play", gamez=3)
    assert "tetris.sweep" in bitarcade.verbs()


def test_progress_is_reported():
    seen = []
    bitarcade.run("2048.play", games=4, search={"depth": 1}, progress=lambda d, t, m: seen.append((d, t, m)))
    assert seen


def test_a_raising_progress_callback_stops_the_run():
    def boom(done, total, message):
        raise RuntimeError("stop here")

    with pytest.raises(RuntimeError, match="stop here"):
        bitarcade.run("2048.play", games=200, search={"depth": 2}, progress=boom)


def test_ctrl_c_stops_a_long_solve():
    # A shell that starts the suite in the background (`cmd &` without job control) hands it
    # SIGINT ignored, and Python then installs no handler: the signal would never arrive and
    # the run below would go on for hours. Python's own handler makes it arrive either way.
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.4, os.kill, (os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            bitarcade.run("2048.play", games=100000, search={"depth": 3})
    finally:
        timer.cancel()
        if old is not None:
            signal.signal(signal.SIGINT, old)
    assert time.monotonic() - start < 3.0


def test_expectimax_solver_equals_the_cli_best(cli):
    env = envs.Twenty48Env()
    _, info = env.reset(seed=17)
    solver = bitarcade._core.Expectimax2048(depth=2)
    rng = np.random.default_rng(4)
    for _ in range(12):
        for _ in range(int(rng.integers(1, 25))):
            obs, _, term, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            if term:
                break
        if term:
            break
        board = bitarcade._core.pack_2048(env._obs.reshape(16).tolist())
        mine = solver.best(board)
        theirs = json.loads(cli("2048", "best", env.text(), "--depth", "2", "--json").stdout)
        assert bitarcade._core.DIRS_2048[mine] == theirs["best"]
    with pytest.raises(ValueError, match="cells"):
        bitarcade._core.pack_2048([16] + [0] * 15)


def test_from_text_starts_where_the_text_says(cli):
    board = "1120\n1220\n0012\n"
    g = bitarcade.SameGame.from_text(board)
    assert str(g).strip() == board.strip() and g.board.shape == (3, 4)
    assert len(g.legal()) == 4  # the 1s, the 2s, the 0s on the right, the 0s at the bottom
    t = bitarcade.Tetris.from_text("XXXXXX....\nXXXXXX....\n", "OOT")
    assert t.board.sum() == 12
    h = t.hint()
    assert h["move"] in t.legal()
    with pytest.raises(ValueError, match="field"):
        bitarcade.Tetris.from_text("XXX\n", "IJ")
