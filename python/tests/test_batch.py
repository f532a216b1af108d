"""bitarcade.batch: shards merged into the CLI's output, byte for byte but the measured times,
in this process and on a local Ray; resumable runs."""

import json
import pathlib
import re
import subprocess
import sys

import pytest

from bitarcade import batch

TIMING = re.compile(
    r'("(?:seconds|ms_per_game|game_moves_per_second|game_moves_per_second_per_thread|'
    r'search_nodes_per_second|cpu_seconds|seconds_per_game|search_moves_per_second|'
    r'total_seconds|order_seconds)": )[-0-9.e+]+'
)


def untimed(text: str) -> str:
    """The output with the measured times blanked (they differ between any two runs)."""
    text = TIMING.sub(r"\1T", text)
    text = re.sub(r"\d+\.\d+ M search moves/s", "T M search moves/s", text)
    return re.sub(r"\d+\.\d+ s\b", "T s", text)


SWEEP = {"height": 2, "kicks": "srs"}
SWEEP_CLI = ["tetris", "sweep", "--height", "2", "--kicks", "srs", "-j", "2"]
TOURNAMENT = {"games": 12, "setup": {"size": "6x6"}, "players": ["shortest", "astar", "cycle", "tree"]}
TOURNAMENT_CLI = ["snake", "tournament", "--games", "12", "--size", "6x6", "--players",
                  "shortest,astar,cycle,tree", "-j", "2"]
PLAY = {"games": 6, "seed": 3, "search": {"depth": 1}}
PLAY_CLI = ["2048", "play", "--games", "6", "--seed", "3", "--depth", "1", "-j", "2"]


@pytest.mark.parametrize("as_json", [True, False])
def test_sweep_in_process_equals_the_cli(cli, as_json):
    mine = batch.run("tetris.sweep", SWEEP, shards=3, local=True, json_output=as_json, progress=False)
    theirs = cli(*SWEEP_CLI, *(["--json"] if as_json else [])).stdout
    assert untimed(mine) == untimed(theirs)
    assert "3522" in mine and "57750" in mine


PERCENT = "*p6; *p5,*; *p4,*p2"


def test_percent_in_process_equals_the_cli(cli, tmp_path):
    """tetris.percent in shards (by the queues' first two pieces): the counts, fails, tree and
    checked sample of one run."""
    req = {"pattern": PERCENT, "height": 2, "fails": True, "tree": 2}
    mine = batch.run("tetris.percent", req, shards=3, local=True, json_output=True, progress=False)
    argv = ["tetris", "percent", "--pattern", PERCENT, "--height", "2", "--tree", "2", "-j", "2"]
    theirs = cli(*argv, "--json", "--fails", str(tmp_path / "fails.txt")).stdout
    assert untimed(mine) == untimed(theirs)
    got = json.loads(mine)
    assert (got["solvable"], got["total"]) == (1656, 57960)
    assert len(got["fails"]) == 57960 - 1656
    text = batch.run("tetris.percent", {**req, "fails": False}, shards=2, local=True, progress=False)
    assert untimed(text) == untimed(cli(*argv).stdout)


def test_tournament_and_play_in_process_equal_the_cli(cli):
    mine = batch.run("snake.tournament", TOURNAMENT, shards=3, local=True, json_output=True, progress=False)
    assert untimed(mine) == untimed(cli(*TOURNAMENT_CLI, "--json").stdout)
    mine = batch.run("2048.play", PLAY, shards=4, local=True, json_output=True, progress=False, num_cpus=2)
    assert untimed(mine) == untimed(cli(*PLAY_CLI, "--json").stdout)


def test_drop7_play_and_samegame_set_in_process_equal_the_cli(cli, tmp_path):
    req = {"games": 5, "seed": 2, "search": {"depth": 1}}
    argv = ["drop7", "play", "--games", "5", "--seed", "2", "--depth", "1", "-j", "2"]
    mine = batch.run("drop7.play", req, shards=3, local=True, json_output=True, progress=False, num_cpus=2)
    assert untimed(mine) == untimed(cli(*argv, "--json").stdout)
    text = batch.run("drop7.play", req, shards=2, local=True, progress=False, num_cpus=2)
    assert untimed(text) == untimed(cli(*argv).stdout)
    boards = tmp_path / "boards.txt"
    boards.write_text(cli("samegame", "gen", "--count", "3", "--width", "8", "--height", "6",
                          "--colors", "3", "--seed", "5").stdout)
    req = {"file": pathlib.Path(boards), "width": 16}
    argv = ["samegame", "solve", str(boards), "--width", "16", "-j", "2"]
    mine = batch.run("samegame.solve", req, shards=2, local=True, json_output=True,
                     progress=False, num_cpus=2)
    theirs = cli(*argv, "--json").stdout
    assert untimed(mine) == untimed(theirs)
    text = batch.run("samegame.solve", req, shards=3, local=True, progress=False, num_cpus=2)
    assert untimed(text) == untimed(cli(*argv).stdout)


def test_resume_skips_finished_shards_and_refuses_another_batch(tmp_path, cli):
    out = tmp_path / "run"
    first = batch.run("tetris.sweep", SWEEP, shards=4, results=out, local=True, json_output=True, progress=False)
    parts = sorted(out.glob("part-*.json"))
    assert len(parts) == 4
    # Mark one kept shard: a rerun must take it from disk, not recompute it.
    kept = json.loads(parts[0].read_text())
    resp = json.loads(kept["response"])
    resp["solvable"] += 1000
    kept["response"] = json.dumps(resp)
    parts[0].write_text(json.dumps(kept))
    parts[1].unlink()  # and one shard is missing: it is run again
    again = batch.run("tetris.sweep", SWEEP, shards=4, results=out, local=True, json_output=True, progress=False)
    assert json.loads(again)["solvable"] == json.loads(first)["solvable"] + 1000
    assert len(list(out.glob("part-*.json"))) == 4
    assert (out / "output.json").read_text() == again
    with pytest.raises(ValueError, match="another batch"):
        batch.run("tetris.sweep", {"height": 2, "kicks": "srs+"}, shards=4, results=out, local=True)


def test_bad_batches_raise_value_error():
    with pytest.raises(ValueError, match="does not split"):
        batch.run("samegame.gen", {}, local=True)
    with pytest.raises(ValueError, match="unknown field"):
        batch.run("tetris.sweep", {"heigth": 2}, shards=2, local=True, progress=False)
    with pytest.raises(ValueError, match="shard"):
        batch.run("tetris.sweep", {"shard": {"k": 1, "n": 2}}, shards=2, local=True, progress=False)


def test_command_line(cli, tmp_path):
    p = subprocess.run([sys.executable, "-m", "bitarcade.batch", "tetris.sweep", "height=2", "kicks=srs",
                        "--shards", "2", "--local", "--json"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert untimed(p.stdout) == untimed(cli(*SWEEP_CLI, "--json").stdout)
    boards = tmp_path / "b.txt"
    boards.write_text(cli("samegame", "gen", "--count", "2", "--width", "6", "--height", "5", "--seed", "8").stdout)
    p = subprocess.run([sys.executable, "-m", "bitarcade.batch", "samegame.solve", f"file=@{boards}", "width=4",
                        "--local", "--json", "--shards", "2"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert untimed(p.stdout) == untimed(cli("samegame", "solve", str(boards), "--width", "4", "--json").stdout)
    p = subprocess.run([sys.executable, "-m", "bitarcade.batch", "tetris.sweep", "height=nine", "--local"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "height" in p.stderr


@pytest.fixture(scope="module")
def ray_local():
    ray = pytest.importorskip("ray", reason="Ray is not installed: pip install './python[ray]' to run the Ray tests")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_sweep_and_tournament_on_ray_equal_the_cli(ray_local, cli, tmp_path):
    mine = batch.run("tetris.sweep", SWEEP, shards=4, results=tmp_path / "s", json_output=True, progress=False)
    assert untimed(mine) == untimed(cli(*SWEEP_CLI, "--json").stdout)
    mine = batch.run("snake.tournament", TOURNAMENT, json_output=True, progress=False)
    assert untimed(mine) == untimed(cli(*TOURNAMENT_CLI, "--json").stdout)
    mine = batch.run("2048.play", PLAY, shards=3, json_output=False, progress=False)
    assert untimed(mine).splitlines()[:4] == untimed(cli(*PLAY_CLI).stdout).splitlines()[:4]
