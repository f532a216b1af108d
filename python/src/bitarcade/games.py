"""The five games as Python objects, on the engines' live contract (what the web arcade plays):
a game from a seed and a setup, its legal moves, play, copy, text, status, a numpy view of the
board, the game's solver (``hint`` for one move, ``auto`` to play on), and records in the CLI's
JSON. Moves are written in the game's notation, as in the CLI and the web arcade:

========  ===========================================  ==========
game      a move                                       example
========  ===========================================  ==========
SameGame  a click ``x.y`` (column, row from the bottom)  ``3.0``
Tetris    a placement ``[h]PFxy`` (hold, piece, facing)  ``TN30``
Drop7     a column ``1``-``7``                         ``4``
2048      a direction ``U D L R``                      ``L``
Snake     a direction ``U R D L``                      ``R``
========  ===========================================  ==========

Long calls (``hint``, ``auto``, :func:`run`) release the GIL, report progress through
``progress(done, total, message)`` and stop on Ctrl-C (KeyboardInterrupt). Bad input raises
ValueError with the CLI's one-line message.
"""

from __future__ import annotations

import json
import pathlib
from typing import Any, Callable, Optional, Union

import numpy as np

from . import _core

Progress = Optional[Callable[[int, Optional[int], str], Any]]


def _request(kwargs: dict) -> str:
    """A request as JSON; paths become the API's input files (name and bytes)."""

    def conv(v):
        if isinstance(v, pathlib.Path):
            return {"name": str(v), "bytes": list(v.read_bytes())}
        if isinstance(v, dict):
            return {k: conv(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [conv(x) for x in v]
        return v

    return json.dumps(conv(kwargs))


def run(verb: str, progress: Progress = None, **request: Any) -> dict:
    """Runs one of the games' verbs (see :func:`verbs`) on a request given as keyword
    arguments, the fields of the typed API's request (the CLI's options, with ``_`` for ``-``),
    and returns its whole response. A ``pathlib.Path`` value is read as the request's file.

    >>> r = run("samegame.gen", width=5, height=3, colors=3, seed=7)
    >>> r["boards"][0].count("\\n")
    3
    """
    return json.loads(_core.run(verb, _request(request), progress))


def verbs() -> dict:
    """The verbs :func:`run` knows, with what each does."""
    return dict(_core.verbs())


def text_file(text: str, name: str = "input") -> dict:
    """An in-memory file for a request's file field (a board file, a record)."""
    return {"name": name, "bytes": list(text.encode())}


class Game:
    """A game in progress (the base of :class:`SameGame`, :class:`Tetris`, :class:`Drop7`,
    :class:`Twenty48` and :class:`Snake`).

    ``Game(seed, **setup)`` starts the game the CLI plays from ``seed`` with the setup (the web
    arcade's setup fields: board size, colours, rules, queue, ...).
    """

    _core_cls: Any = None

    def __init__(self, seed: int = 1, **setup: Any):
        self._g = self._core_cls(seed, json.dumps(setup))

    @classmethod
    def _wrap(cls, g) -> "Game":
        obj = cls.__new__(cls)
        obj._g = g
        return obj

    @classmethod
    def from_record(cls, record: Union[str, dict, list, pathlib.Path], index: int = 0) -> "Game":
        """The game of a record (the CLI's ``--record`` JSON: text, a dict, a list of records
        or a path), once the game's own replay accepts it."""
        if isinstance(record, str) and not record.lstrip().startswith(("{", "[")):
            record = pathlib.Path(record)  # a file name
        if isinstance(record, pathlib.Path):
            record = record.read_text()
        elif not isinstance(record, str):
            record = json.dumps(record)
        return cls._wrap(cls._core_cls.from_record(record, index))

    def legal(self) -> list:
        """The legal moves now, in the game's notation."""
        return self._g.legal()

    def play(self, moves: str) -> "Game":
        """Plays a move, or a move list; an illegal move raises ValueError and plays nothing."""
        self._g.play(moves)
        return self

    def copy(self) -> "Game":
        """An independent copy."""
        return self._wrap(self._g.copy())

    __copy__ = copy

    def __deepcopy__(self, memo):
        return self.copy()

    def __str__(self) -> str:
        return str(self._g)

    def __repr__(self) -> str:
        return repr(self._g)

    @property
    def moves(self) -> str:
        """The moves played, as one move list."""
        return self._g.moves

    @property
    def seed(self) -> int:
        return self._g.seed

    @property
    def setup(self) -> dict:
        """The setup, every field filled in."""
        return json.loads(self._g.setup)

    @property
    def score(self) -> int:
        return self._g.score

    @property
    def status(self) -> dict:
        """How the game stands: ``phase`` (playing, won, over), ``code`` and ``message``."""
        phase, code, message = self._g.status
        return {"phase": phase, "code": code, "message": message}

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self._g.status[0] != "playing"

    def snapshot(self) -> dict:
        """The position, structured (as the web arcade's API serves it)."""
        return json.loads(self._g.snapshot())

    @property
    def board(self) -> np.ndarray:
        """The board as a uint8 array, in the encoding of the game's environment."""
        raise NotImplementedError

    def record(self, player: str = "python") -> dict:
        """The game's record, as the CLI's ``--record`` writes it (``bitarcade <game> replay``
        checks it)."""
        return json.loads(self._g.record(player))

    def save(self, path: Union[str, pathlib.Path], player: str = "python") -> None:
        """Writes the record to ``path``."""
        pathlib.Path(path).write_text(self._g.record(player) + "\n")

    def hint(self, progress: Progress = None, **search: Any) -> dict:
        """The solver's move (``move``), every legal move's value where the game has values,
        and the solver's detail. ``search`` holds the game's search settings (the CLI's
        defaults where absent)."""
        return json.loads(self._g.hint(json.dumps(search), progress))

    def auto(self, max_moves: Optional[int] = None, progress: Progress = None, **search: Any) -> dict:
        """The solver plays on from here (at most ``max_moves`` moves), on this game. Returns
        the run: moves played, why it stopped, the status, score, moves and record."""
        limit = 2**64 - 1 if max_moves is None else max_moves
        return json.loads(self._g.auto(json.dumps(search), limit, progress))


def _hex_words(words) -> list:
    return [int(w, 16) for w in words]


class SameGame(Game):
    """SameGame (setup: ``width``, ``height``, ``colors``, or ``board`` as text; ``rules``).
    ``SameGame(seed)`` is the board of ``bitarcade samegame gen --seed S``."""

    _core_cls = _core.SameGame

    @classmethod
    def from_text(cls, text: str, **setup: Any) -> "SameGame":
        """The game from a board in the text form (rows from the top, digits ``0``-``7`` for
        the colours, ``.`` for an empty cell), as ``bitarcade samegame solve`` reads it."""
        return cls(0, board=text, **setup)

    @property
    def board(self) -> np.ndarray:
        """Rows from the top, 0 empty and 1-8 a colour."""
        rows = self.snapshot()["board"].strip("\n").split("\n")
        return np.array([[0 if c == "." else int(c) + 1 for c in r] for r in rows], np.uint8)


class Tetris(Game):
    """A Tetris perfect clear (setup: the CLI's ``pc`` options: ``queue``, ``hold``,
    ``use_hold``, ``kicks``, ``field``, ``height``, ...). ``Tetris(seed)`` deals the queue of
    ``bitarcade tetris bench --seed S``."""

    _core_cls = _core.Tetris

    @classmethod
    def from_text(cls, field: str, queue: str, **setup: Any) -> "Tetris":
        """The perfect clear from a field in the text form (rows from the top, 10 cells each,
        ``.`` empty) and a queue (current piece first), as ``bitarcade tetris pc`` takes them."""
        return cls(0, field=field, queue=queue, **setup)

    @property
    def board(self) -> np.ndarray:
        """The perfect clear's zone, rows from the top, 1 filled."""
        return np.array(self.snapshot()["cells"], np.uint8).reshape(-1, 10)


class Drop7(Game):
    """Drop7 (setup: ``mode``, ``gray_share``, ...). ``Drop7(seed)`` is the game of
    ``bitarcade drop7 play --games 1 --seed S``."""

    _core_cls = _core.Drop7

    @property
    def board(self) -> np.ndarray:
        """7 rows from the top: 0 empty, 1-7 a number, 8 gray, 9 cracked."""
        cols = _hex_words(self.snapshot()["bits"])
        return np.array([[(c >> (4 * (6 - r))) & 0xF for c in cols] for r in range(7)], np.uint8)


class Twenty48(Game):
    """2048. ``Twenty48(seed)`` is the game of ``bitarcade 2048 play --games 1 --seed S``."""

    _core_cls = _core.Twenty48

    @property
    def board(self) -> np.ndarray:
        """The 4x4 board of tile log2s (0 empty)."""
        b = int(self.snapshot()["bits"], 16)
        return np.array([(b >> (4 * c)) & 0xF for c in range(16)], np.uint8).reshape(4, 4)


class Snake(Game):
    """Snake (setup: ``size`` as ``"WxH"``, ``start_len``, ``stall``). ``Snake(seed)`` is the
    game of ``bitarcade snake play --seed S``."""

    _core_cls = _core.Snake

    @property
    def board(self) -> np.ndarray:
        """Rows from the top: 0 empty, 1 body, 2 head, 3 fruit, 4 tail."""
        s = self.snapshot()
        grid = np.zeros(s["width"] * s["height"], np.uint8)
        body = s["body"]
        grid[body] = 1
        grid[body[-1]] = 4
        grid[body[0]] = 2
        if s["fruit"] is not None:
            grid[s["fruit"]] = 3
        return grid.reshape(s["height"], s["width"])


GAMES = {"samegame": SameGame, "tetris": Tetris, "drop7": Drop7, "2048": Twenty48, "snake": Snake}
