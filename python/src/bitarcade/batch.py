"""The batch verbs spread over Ray, merged into exactly what one ``bitarcade`` process prints.

A batch is split into shards (``2048.play`` and ``drop7.play``: the games; ``tetris.sweep``: the
queues, dealt round-robin; ``snake.tournament``: the players; ``samegame.solve``: the boards of
its file); each shard is a Ray task that calls the Rust
library in-process, and the parts are joined by the same code the verb's summary comes from.
The output is byte for byte the CLI's (``--json`` or the text), except the measured times
(``seconds``, the rates derived from them, ``ms_per_game``), which are this run's.

A run with ``results=DIR`` is resumable: each finished shard is written to ``DIR`` as it comes,
and a rerun with the same verb, request and shard count skips the shards already there.

Ray is optional (``pip install ./python[ray]``); ``local=True`` runs the shards one after the
other in this process instead. From the shell::

    python -m bitarcade.batch tetris.sweep height=2 --shards 8 --results sweep2
    python -m bitarcade.batch 2048.play games=100 search.depth=2 --json --results run1
    python -m bitarcade.batch snake.tournament games=200 setup.size=12x12 --address auto
    python -m bitarcade.batch samegame.solve file=@standard.txt --json
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys
import time
from typing import Any, Optional, Union

from . import _core
from .games import _request

#: The verbs that split into shards, with how.
VERBS = dict(_core.batch_verbs())


def _canonical(request: Union[dict, str, None]) -> str:
    """The request as JSON with its keys sorted (the batch's name in a results directory);
    ``pathlib.Path`` values are read as the request's files."""
    if request is None:
        request = {}
    if isinstance(request, str):
        request = json.loads(request)
    request = json.loads(_request(request))
    return json.dumps(request, sort_keys=True, separators=(",", ":"))


def _default_shards(verb: str, request: dict, cpus: int) -> int:
    if verb == "snake.tournament":
        players = request.get("players")
        return len(players) if players else 9
    return max(1, 4 * cpus)


class _Results:
    """The results directory: a manifest naming the batch, and one file per finished shard."""

    def __init__(self, path: Optional[Union[str, pathlib.Path]], verb: str, request: str, n: int):
        self.path = pathlib.Path(path) if path is not None else None
        self.manifest = {"verb": verb, "request": json.loads(request), "shards": n, "seconds_before": 0.0}
        if self.path is None:
            return
        self.path.mkdir(parents=True, exist_ok=True)
        m = self.path / "manifest.json"
        if m.exists():
            old = json.loads(m.read_text())
            same = all(old.get(k) == self.manifest[k] for k in ("verb", "request", "shards"))
            if not same:
                raise ValueError(
                    f"results: {self.path} holds another batch ({old.get('verb')}, "
                    f"{old.get('shards')} shards, request {json.dumps(old.get('request'))}); "
                    "use another directory"
                )
            self.manifest["seconds_before"] = float(old.get("seconds_before", 0.0))
        m.write_text(json.dumps(self.manifest, indent=2, sort_keys=True) + "\n")

    def part(self, k: int) -> Optional[pathlib.Path]:
        if self.path is None:
            return None
        return self.path / f"part-{k:04d}-of-{self.manifest['shards']:04d}.json"

    def done(self, k: int) -> Optional[str]:
        p = self.part(k)
        if p is not None and p.exists():
            return json.loads(p.read_text())["response"]
        return None

    def keep(self, k: int, response: str, seconds: float) -> None:
        p = self.part(k)
        if p is not None:
            tmp = p.with_suffix(".tmp")
            tmp.write_text(json.dumps({"shard": k, "seconds": seconds, "response": response}) + "\n")
            tmp.replace(p)  # a shard is either whole on disk or absent

    def finish(self, output: str, as_json: bool, seconds: float) -> None:
        if self.path is None:
            return
        self.manifest["seconds_before"] = seconds
        (self.path / "manifest.json").write_text(json.dumps(self.manifest, indent=2, sort_keys=True) + "\n")
        (self.path / ("output.json" if as_json else "output.txt")).write_text(output)


def _shard_in_process(verb: str, request: str, k: int, n: int) -> tuple:
    start = time.perf_counter()
    out = _core.batch_shard(verb, request, k, n)
    return k, out, time.perf_counter() - start


def run(
    verb: str,
    request: Union[dict, str, None] = None,
    *,
    shards: Optional[int] = None,
    results: Optional[Union[str, pathlib.Path]] = None,
    json_output: bool = False,
    address: Optional[str] = None,
    local: bool = False,
    progress: bool = True,
    num_cpus: Optional[int] = None,
) -> str:
    """Runs ``verb`` (one of :data:`VERBS`) on ``request`` (the typed API's request, as for
    :func:`bitarcade.run`) in shards, and returns what ``bitarcade`` prints for the whole batch
    (``json_output``: its ``--json``). ``results`` keeps finished shards for a rerun; ``address``
    joins a Ray cluster (default: a local Ray started here); ``local`` runs without Ray."""
    if verb not in VERBS:
        raise ValueError(f"verb: {verb!r} does not split; the batch verbs are {', '.join(VERBS)}")
    req = _canonical(request)
    _core.batch_check(verb, req)
    start = time.perf_counter()
    ray = None
    cpus = num_cpus or os.cpu_count() or 1
    if not local:
        try:
            import ray  # noqa: F811
        except ImportError as e:  # pragma: no cover - depends on the install
            raise ImportError(
                "bitarcade.batch needs Ray: pip install './python[ray]' (or run with local=True)"
            ) from e
        if not ray.is_initialized():
            os.environ.setdefault("RAY_AUTH_MODE", "disabled")
            kw: dict = {"include_dashboard": False, "log_to_driver": False}
            if address:
                kw["address"] = address
            elif num_cpus:
                kw["num_cpus"] = num_cpus
            ray.init(**kw)
        cpus = int(ray.cluster_resources().get("CPU", cpus))
    n = shards or _default_shards(verb, json.loads(req), cpus)
    if n < 1:
        raise ValueError(f"shards: {n} is not a whole number of at least 1")
    store = _Results(results, verb, req, n)
    parts: dict = {}
    for k in range(1, n + 1):
        done = store.done(k)
        if done is not None:
            parts[k] = done
    todo = [k for k in range(1, n + 1) if k not in parts]

    def note():
        if progress:
            print(f"\r{verb}: {len(parts)}/{n} shards", end="", file=sys.stderr, flush=True)

    note()
    if todo and ray is None:
        for k in todo:
            _, out, secs = _shard_in_process(verb, req, k, n)
            parts[k] = out
            store.keep(k, out, secs)
            note()
    elif todo:
        # One thread per task: the tasks themselves fill the cores.
        task = ray.remote(num_cpus=1)(_shard_in_process).options(
            runtime_env={"env_vars": {"RAYON_NUM_THREADS": "1"}}
        )
        pending = [task.remote(verb, req, k, n) for k in todo]
        try:
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)
                for ref in ready:
                    k, out, secs = ray.get(ref)
                    parts[k] = out
                    store.keep(k, out, secs)
                    note()
        except KeyboardInterrupt:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise
    if progress:
        print(file=sys.stderr)
    seconds = store.manifest["seconds_before"] + (time.perf_counter() - start)
    threads = min(cpus, n)
    output = _core.batch_merge(verb, req, [parts[k] for k in range(1, n + 1)], json_output, seconds, threads)
    store.finish(output, json_output, seconds)
    return output


def _set(request: dict, key: str, text: str) -> None:
    """``a.b=v``: sets request[a][b] to v read as JSON (a bare word is a string; ``@FILE`` is
    the file's contents, for a request's file field)."""
    value: Any
    if text.startswith("@"):
        value = pathlib.Path(text[1:])
    else:
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = text
    *path, last = key.split(".")
    node = request
    for p in path:
        node = node.setdefault(p, {})
    node[last] = value


def main(argv: Optional[list] = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m bitarcade.batch",
        description="Run a bitarcade batch verb in shards on Ray; prints what `bitarcade` prints.",
        epilog="verbs: " + "; ".join(f"{v} (splits {how})" for v, how in VERBS.items())
        + "\nexamples:\n  python -m bitarcade.batch tetris.sweep height=2 --shards 8\n"
        "  python -m bitarcade.batch 2048.play games=100 search.depth=2 --json --results run1",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("verb", help="the batch verb (see below)")
    p.add_argument("settings", nargs="*", metavar="KEY=VALUE",
                   help="request fields (JSON values; a.b=v nests; KEY=@FILE reads a file)")
    p.add_argument("--request", type=pathlib.Path, help="the request as a JSON file (settings apply on top)")
    p.add_argument("--shards", type=int, help="number of shards (default: 4 per CPU; players for a tournament)")
    p.add_argument("--results", type=pathlib.Path, help="keep finished shards here; a rerun resumes")
    p.add_argument("--json", action="store_true", help="print the CLI's --json output")
    p.add_argument("--address", help="a Ray cluster's address (default: start a local Ray)")
    p.add_argument("--local", action="store_true", help="run the shards in this process, without Ray")
    p.add_argument("--num-cpus", type=int, help="CPUs of the local Ray (default: all)")
    a = p.parse_args(argv)
    try:
        request = json.loads(a.request.read_text()) if a.request else {}
        for s in a.settings:
            if "=" not in s:
                raise ValueError(f"setting {s!r}: expected KEY=VALUE")
            k, v = s.split("=", 1)
            _set(request, k, v)
        out = run(a.verb, request, shards=a.shards, results=a.results, json_output=a.json,
                  address=a.address, local=a.local, num_cpus=a.num_cpus)
    except (ValueError, OSError) as e:
        print(f"bitarcade.batch: error: {e}", file=sys.stderr)
        return 2
    sys.stdout.write(out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
