"""Type stubs for `bitarcade._core`, the Rust half of the package (crates/python): the
environments' core (`Env*`, N environments stepped in one call), the games on the live
contract, every verb by name (`run`), the batch verbs' shards and the 2048 solver.

JSON strings (requests, setups, records, responses) are `str`.
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

import numpy as np
from numpy.typing import NDArray

_Progress = Optional[Callable[[int, Optional[int], str], object]]
"""A long call's progress callback: `progress(done, total, message)`, at most every 50 ms."""

__all__ = [
    "Env2048",
    "EnvSnake",
    "EnvDrop7",
    "EnvSameGame",
    "EnvTetris",
    "SameGame",
    "Tetris",
    "Drop7",
    "Twenty48",
    "Snake",
    "run",
    "verbs",
    "batch_shard",
    "batch_merge",
    "batch_verbs",
    "batch_check",
    "Expectimax2048",
    "pack_2048",
    "DIRS_2048",
]

DIRS_2048: str
"""The direction letters of the actions, as a check that the orders agree."""

class Env2048:
    """N 2048 environments stepped together (see the `env` module)."""

    def __init__(self, num_envs: int, options: str = "{}", rules: str = "{}") -> None: ...
    def copy(self) -> Env2048:
        """An independent copy (every environment's game and counters)."""
    @property
    def shape(self) -> list[int]:
        """The observation's shape."""
    @property
    def actions(self) -> int:
        """The number of actions."""
    @property
    def num_envs(self) -> int:
        """The number of environments."""
    def reset(
        self,
        seeds: Optional[Sequence[int]],
        obs: NDArray[np.uint8],
        mask: NDArray[np.int8],
    ) -> None:
        """Resets every environment (to episode 0 of `seeds[i]`, or to its next episode), writing into `obs` and `mask`."""
    def step(
        self,
        actions: NDArray[np.int64],
        obs: NDArray[np.uint8],
        reward: NDArray[np.float64],
        terminated: NDArray[np.bool_],
        truncated: NDArray[np.bool_],
        mask: NDArray[np.int8],
    ) -> None:
        """Steps every environment with `actions`, writing the results into the buffers (an ended environment starts its next episode instead)."""
    def reset1(self, seed: Optional[int] = None) -> tuple[NDArray[np.uint8], NDArray[np.int8]]:
        """Environment 0 reset to episode 0 of `seed` (or its next episode): the observation and the mask, as new arrays."""
    def step1(self, action: int) -> tuple[NDArray[np.uint8], float, bool, bool, NDArray[np.int8]]:
        """Environment 0 steps with `action`: the observation, the reward, terminated, truncated and the mask (a step after the episode's end is an error)."""
    def text(self, i: int) -> str:
        """Environment `i`'s position in the game's text form."""
    def record(self, i: int) -> str:
        """Environment `i`'s game record, as the CLI's `--record` writes it (JSON)."""
    def mask(self, i: int) -> NDArray[np.int8]:
        """Environment `i`'s action mask now."""
    def score(self, i: int) -> int:
        """Environment `i`'s score."""
    def seed(self, i: int) -> tuple[int, int, int]:
        """Environment `i`'s seed now (the CLI's game it plays), the seed of its last seeded reset and the episodes since."""

class EnvSnake:
    """N Snake environments stepped together (see the `env` module)."""

    def __init__(self, num_envs: int, options: str = "{}", rules: str = "{}") -> None: ...
    def copy(self) -> EnvSnake:
        """An independent copy (every environment's game and counters)."""
    @property
    def shape(self) -> list[int]:
        """The observation's shape."""
    @property
    def actions(self) -> int:
        """The number of actions."""
    @property
    def num_envs(self) -> int:
        """The number of environments."""
    def reset(
        self,
        seeds: Optional[Sequence[int]],
        obs: NDArray[np.uint8],
        mask: NDArray[np.int8],
    ) -> None:
        """Resets every environment (to episode 0 of `seeds[i]`, or to its next episode), writing into `obs` and `mask`."""
    def step(
        self,
        actions: NDArray[np.int64],
        obs: NDArray[np.uint8],
        reward: NDArray[np.float64],
        terminated: NDArray[np.bool_],
        truncated: NDArray[np.bool_],
        mask: NDArray[np.int8],
    ) -> None:
        """Steps every environment with `actions`, writing the results into the buffers (an ended environment starts its next episode instead)."""
    def reset1(self, seed: Optional[int] = None) -> tuple[NDArray[np.uint8], NDArray[np.int8]]:
        """Environment 0 reset to episode 0 of `seed` (or its next episode): the observation and the mask, as new arrays."""
    def step1(self, action: int) -> tuple[NDArray[np.uint8], float, bool, bool, NDArray[np.int8]]:
        """Environment 0 steps with `action`: the observation, the reward, terminated, truncated and the mask (a step after the episode's end is an error)."""
    def text(self, i: int) -> str:
        """Environment `i`'s position in the game's text form."""
    def record(self, i: int) -> str:
        """Environment `i`'s game record, as the CLI's `--record` writes it (JSON)."""
    def mask(self, i: int) -> NDArray[np.int8]:
        """Environment `i`'s action mask now."""
    def score(self, i: int) -> int:
        """Environment `i`'s score."""
    def seed(self, i: int) -> tuple[int, int, int]:
        """Environment `i`'s seed now (the CLI's game it plays), the seed of its last seeded reset and the episodes since."""

class EnvDrop7:
    """N Drop7 environments stepped together (see the `env` module)."""

    def __init__(self, num_envs: int, options: str = "{}", rules: str = "{}") -> None: ...
    def copy(self) -> EnvDrop7:
        """An independent copy (every environment's game and counters)."""
    @property
    def shape(self) -> list[int]:
        """The observation's shape."""
    @property
    def actions(self) -> int:
        """The number of actions."""
    @property
    def num_envs(self) -> int:
        """The number of environments."""
    def reset(
        self,
        seeds: Optional[Sequence[int]],
        obs: NDArray[np.uint8],
        mask: NDArray[np.int8],
    ) -> None:
        """Resets every environment (to episode 0 of `seeds[i]`, or to its next episode), writing into `obs` and `mask`."""
    def step(
        self,
        actions: NDArray[np.int64],
        obs: NDArray[np.uint8],
        reward: NDArray[np.float64],
        terminated: NDArray[np.bool_],
        truncated: NDArray[np.bool_],
        mask: NDArray[np.int8],
    ) -> None:
        """Steps every environment with `actions`, writing the results into the buffers (an ended environment starts its next episode instead)."""
    def reset1(self, seed: Optional[int] = None) -> tuple[NDArray[np.uint8], NDArray[np.int8]]:
        """Environment 0 reset to episode 0 of `seed` (or its next episode): the observation and the mask, as new arrays."""
    def step1(self, action: int) -> tuple[NDArray[np.uint8], float, bool, bool, NDArray[np.int8]]:
        """Environment 0 steps with `action`: the observation, the reward, terminated, truncated and the mask (a step after the episode's end is an error)."""
    def text(self, i: int) -> str:
        """Environment `i`'s position in the game's text form."""
    def record(self, i: int) -> str:
        """Environment `i`'s game record, as the CLI's `--record` writes it (JSON)."""
    def mask(self, i: int) -> NDArray[np.int8]:
        """Environment `i`'s action mask now."""
    def score(self, i: int) -> int:
        """Environment `i`'s score."""
    def seed(self, i: int) -> tuple[int, int, int]:
        """Environment `i`'s seed now (the CLI's game it plays), the seed of its last seeded reset and the episodes since."""

class EnvSameGame:
    """N SameGame environments stepped together (see the `env` module)."""

    def __init__(self, num_envs: int, options: str = "{}", rules: str = "{}") -> None: ...
    def copy(self) -> EnvSameGame:
        """An independent copy (every environment's game and counters)."""
    @property
    def shape(self) -> list[int]:
        """The observation's shape."""
    @property
    def actions(self) -> int:
        """The number of actions."""
    @property
    def num_envs(self) -> int:
        """The number of environments."""
    def reset(
        self,
        seeds: Optional[Sequence[int]],
        obs: NDArray[np.uint8],
        mask: NDArray[np.int8],
    ) -> None:
        """Resets every environment (to episode 0 of `seeds[i]`, or to its next episode), writing into `obs` and `mask`."""
    def step(
        self,
        actions: NDArray[np.int64],
        obs: NDArray[np.uint8],
        reward: NDArray[np.float64],
        terminated: NDArray[np.bool_],
        truncated: NDArray[np.bool_],
        mask: NDArray[np.int8],
    ) -> None:
        """Steps every environment with `actions`, writing the results into the buffers (an ended environment starts its next episode instead)."""
    def reset1(self, seed: Optional[int] = None) -> tuple[NDArray[np.uint8], NDArray[np.int8]]:
        """Environment 0 reset to episode 0 of `seed` (or its next episode): the observation and the mask, as new arrays."""
    def step1(self, action: int) -> tuple[NDArray[np.uint8], float, bool, bool, NDArray[np.int8]]:
        """Environment 0 steps with `action`: the observation, the reward, terminated, truncated and the mask (a step after the episode's end is an error)."""
    def text(self, i: int) -> str:
        """Environment `i`'s position in the game's text form."""
    def record(self, i: int) -> str:
        """Environment `i`'s game record, as the CLI's `--record` writes it (JSON)."""
    def mask(self, i: int) -> NDArray[np.int8]:
        """Environment `i`'s action mask now."""
    def score(self, i: int) -> int:
        """Environment `i`'s score."""
    def seed(self, i: int) -> tuple[int, int, int]:
        """Environment `i`'s seed now (the CLI's game it plays), the seed of its last seeded reset and the episodes since."""

class EnvTetris:
    """N Tetris environments stepped together (see the `env` module)."""

    def __init__(self, num_envs: int, options: str = "{}", rules: str = "{}") -> None: ...
    def copy(self) -> EnvTetris:
        """An independent copy (every environment's game and counters)."""
    @property
    def shape(self) -> list[int]:
        """The observation's shape."""
    @property
    def actions(self) -> int:
        """The number of actions."""
    @property
    def num_envs(self) -> int:
        """The number of environments."""
    def reset(
        self,
        seeds: Optional[Sequence[int]],
        obs: NDArray[np.uint8],
        mask: NDArray[np.int8],
    ) -> None:
        """Resets every environment (to episode 0 of `seeds[i]`, or to its next episode), writing into `obs` and `mask`."""
    def step(
        self,
        actions: NDArray[np.int64],
        obs: NDArray[np.uint8],
        reward: NDArray[np.float64],
        terminated: NDArray[np.bool_],
        truncated: NDArray[np.bool_],
        mask: NDArray[np.int8],
    ) -> None:
        """Steps every environment with `actions`, writing the results into the buffers (an ended environment starts its next episode instead)."""
    def reset1(self, seed: Optional[int] = None) -> tuple[NDArray[np.uint8], NDArray[np.int8]]:
        """Environment 0 reset to episode 0 of `seed` (or its next episode): the observation and the mask, as new arrays."""
    def step1(self, action: int) -> tuple[NDArray[np.uint8], float, bool, bool, NDArray[np.int8]]:
        """Environment 0 steps with `action`: the observation, the reward, terminated, truncated and the mask (a step after the episode's end is an error)."""
    def text(self, i: int) -> str:
        """Environment `i`'s position in the game's text form."""
    def record(self, i: int) -> str:
        """Environment `i`'s game record, as the CLI's `--record` writes it (JSON)."""
    def mask(self, i: int) -> NDArray[np.int8]:
        """Environment `i`'s action mask now."""
    def score(self, i: int) -> int:
        """Environment `i`'s score."""
    def seed(self, i: int) -> tuple[int, int, int]:
        """Environment `i`'s seed now (the CLI's game it plays), the seed of its last seeded reset and the episodes since."""

class SameGame:
    """A SameGame game on the live contract."""

    def __init__(self, seed: int = 1, setup: str = "{}") -> None:
        """The game of `setup` (JSON, the contract's setup) and `seed`."""
    @staticmethod
    def from_record(record: str, index: int = 0) -> SameGame:
        """The game of a record (JSON, as the CLI's `--record` writes it), after the game's own replay has accepted it; `index` picks one of a list."""
    def legal(self) -> list[str]:
        """The legal moves, in the game's notation and order."""
    def play(self, moves: str) -> None:
        """Plays one move (the game's notation) or several (its move list); an illegal move raises ValueError and changes nothing."""
    def copy(self) -> SameGame:
        """An independent copy."""
    @property
    def moves(self) -> str:
        """The moves played, as one move list."""
    @property
    def seed(self) -> int:
        """The seed."""
    @property
    def setup(self) -> str:
        """The setup, as JSON."""
    @property
    def score(self) -> int:
        """The score now."""
    @property
    def status(self) -> tuple[str, str, str]:
        """How the game stands: (phase, code, message)."""
    def snapshot(self) -> str:
        """The position, structured (JSON)."""
    def record(self, player: str = "hand") -> str:
        """The game's record (JSON, the CLI's); `player` names who played."""
    def hint(self, search: str = "{}", progress: _Progress = None) -> str:
        """The solver's move and every legal move's value (JSON), with `search` (JSON, the game's search settings, the CLI's defaults where absent)."""
    def auto(self, search: str = "{}", max_moves: int = ..., progress: _Progress = None) -> str:
        """The solver plays on from here, at most `max_moves` moves; the moves are played on this game too. Returns the run (JSON: played, stop, status, score, moves, record)."""
    def __copy__(self) -> SameGame: ...
    def __deepcopy__(self, _memo: object) -> SameGame: ...
    def __str__(self) -> str: ...
    def __repr__(self) -> str: ...

class Tetris:
    """A Tetris game on the live contract."""

    def __init__(self, seed: int = 1, setup: str = "{}") -> None:
        """The game of `setup` (JSON, the contract's setup) and `seed`."""
    @staticmethod
    def from_record(record: str, index: int = 0) -> Tetris:
        """The game of a record (JSON, as the CLI's `--record` writes it), after the game's own replay has accepted it; `index` picks one of a list."""
    def legal(self) -> list[str]:
        """The legal moves, in the game's notation and order."""
    def play(self, moves: str) -> None:
        """Plays one move (the game's notation) or several (its move list); an illegal move raises ValueError and changes nothing."""
    def copy(self) -> Tetris:
        """An independent copy."""
    @property
    def moves(self) -> str:
        """The moves played, as one move list."""
    @property
    def seed(self) -> int:
        """The seed."""
    @property
    def setup(self) -> str:
        """The setup, as JSON."""
    @property
    def score(self) -> int:
        """The score now."""
    @property
    def status(self) -> tuple[str, str, str]:
        """How the game stands: (phase, code, message)."""
    def snapshot(self) -> str:
        """The position, structured (JSON)."""
    def record(self, player: str = "hand") -> str:
        """The game's record (JSON, the CLI's); `player` names who played."""
    def hint(self, search: str = "{}", progress: _Progress = None) -> str:
        """The solver's move and every legal move's value (JSON), with `search` (JSON, the game's search settings, the CLI's defaults where absent)."""
    def auto(self, search: str = "{}", max_moves: int = ..., progress: _Progress = None) -> str:
        """The solver plays on from here, at most `max_moves` moves; the moves are played on this game too. Returns the run (JSON: played, stop, status, score, moves, record)."""
    def __copy__(self) -> Tetris: ...
    def __deepcopy__(self, _memo: object) -> Tetris: ...
    def __str__(self) -> str: ...
    def __repr__(self) -> str: ...

class Drop7:
    """A Drop7 game on the live contract."""

    def __init__(self, seed: int = 1, setup: str = "{}") -> None:
        """The game of `setup` (JSON, the contract's setup) and `seed`."""
    @staticmethod
    def from_record(record: str, index: int = 0) -> Drop7:
        """The game of a record (JSON, as the CLI's `--record` writes it), after the game's own replay has accepted it; `index` picks one of a list."""
    def legal(self) -> list[str]:
        """The legal moves, in the game's notation and order."""
    def play(self, moves: str) -> None:
        """Plays one move (the game's notation) or several (its move list); an illegal move raises ValueError and changes nothing."""
    def copy(self) -> Drop7:
        """An independent copy."""
    @property
    def moves(self) -> str:
        """The moves played, as one move list."""
    @property
    def seed(self) -> int:
        """The seed."""
    @property
    def setup(self) -> str:
        """The setup, as JSON."""
    @property
    def score(self) -> int:
        """The score now."""
    @property
    def status(self) -> tuple[str, str, str]:
        """How the game stands: (phase, code, message)."""
    def snapshot(self) -> str:
        """The position, structured (JSON)."""
    def record(self, player: str = "hand") -> str:
        """The game's record (JSON, the CLI's); `player` names who played."""
    def hint(self, search: str = "{}", progress: _Progress = None) -> str:
        """The solver's move and every legal move's value (JSON), with `search` (JSON, the game's search settings, the CLI's defaults where absent)."""
    def auto(self, search: str = "{}", max_moves: int = ..., progress: _Progress = None) -> str:
        """The solver plays on from here, at most `max_moves` moves; the moves are played on this game too. Returns the run (JSON: played, stop, status, score, moves, record)."""
    def __copy__(self) -> Drop7: ...
    def __deepcopy__(self, _memo: object) -> Drop7: ...
    def __str__(self) -> str: ...
    def __repr__(self) -> str: ...

class Twenty48:
    """A 2048 game on the live contract."""

    def __init__(self, seed: int = 1, setup: str = "{}") -> None:
        """The game of `setup` (JSON, the contract's setup) and `seed`."""
    @staticmethod
    def from_record(record: str, index: int = 0) -> Twenty48:
        """The game of a record (JSON, as the CLI's `--record` writes it), after the game's own replay has accepted it; `index` picks one of a list."""
    def legal(self) -> list[str]:
        """The legal moves, in the game's notation and order."""
    def play(self, moves: str) -> None:
        """Plays one move (the game's notation) or several (its move list); an illegal move raises ValueError and changes nothing."""
    def copy(self) -> Twenty48:
        """An independent copy."""
    @property
    def moves(self) -> str:
        """The moves played, as one move list."""
    @property
    def seed(self) -> int:
        """The seed."""
    @property
    def setup(self) -> str:
        """The setup, as JSON."""
    @property
    def score(self) -> int:
        """The score now."""
    @property
    def status(self) -> tuple[str, str, str]:
        """How the game stands: (phase, code, message)."""
    def snapshot(self) -> str:
        """The position, structured (JSON)."""
    def record(self, player: str = "hand") -> str:
        """The game's record (JSON, the CLI's); `player` names who played."""
    def hint(self, search: str = "{}", progress: _Progress = None) -> str:
        """The solver's move and every legal move's value (JSON), with `search` (JSON, the game's search settings, the CLI's defaults where absent)."""
    def auto(self, search: str = "{}", max_moves: int = ..., progress: _Progress = None) -> str:
        """The solver plays on from here, at most `max_moves` moves; the moves are played on this game too. Returns the run (JSON: played, stop, status, score, moves, record)."""
    def __copy__(self) -> Twenty48: ...
    def __deepcopy__(self, _memo: object) -> Twenty48: ...
    def __str__(self) -> str: ...
    def __repr__(self) -> str: ...

class Snake:
    """A Snake game on the live contract."""

    def __init__(self, seed: int = 1, setup: str = "{}") -> None:
        """The game of `setup` (JSON, the contract's setup) and `seed`."""
    @staticmethod
    def from_record(record: str, index: int = 0) -> Snake:
        """The game of a record (JSON, as the CLI's `--record` writes it), after the game's own replay has accepted it; `index` picks one of a list."""
    def legal(self) -> list[str]:
        """The legal moves, in the game's notation and order."""
    def play(self, moves: str) -> None:
        """Plays one move (the game's notation) or several (its move list); an illegal move raises ValueError and changes nothing."""
    def copy(self) -> Snake:
        """An independent copy."""
    @property
    def moves(self) -> str:
        """The moves played, as one move list."""
    @property
    def seed(self) -> int:
        """The seed."""
    @property
    def setup(self) -> str:
        """The setup, as JSON."""
    @property
    def score(self) -> int:
        """The score now."""
    @property
    def status(self) -> tuple[str, str, str]:
        """How the game stands: (phase, code, message)."""
    def snapshot(self) -> str:
        """The position, structured (JSON)."""
    def record(self, player: str = "hand") -> str:
        """The game's record (JSON, the CLI's); `player` names who played."""
    def hint(self, search: str = "{}", progress: _Progress = None) -> str:
        """The solver's move and every legal move's value (JSON), with `search` (JSON, the game's search settings, the CLI's defaults where absent)."""
    def auto(self, search: str = "{}", max_moves: int = ..., progress: _Progress = None) -> str:
        """The solver plays on from here, at most `max_moves` moves; the moves are played on this game too. Returns the run (JSON: played, stop, status, score, moves, record)."""
    def __copy__(self) -> Snake: ...
    def __deepcopy__(self, _memo: object) -> Snake: ...
    def __str__(self) -> str: ...
    def __repr__(self) -> str: ...

class Expectimax2048:
    """The 2048 expectimax (the CLI's `2048 best` on the row heuristic) at a fixed depth, with its transposition table kept between calls (a new generation per search, as `play`)."""

    def __init__(self, depth: int = 2, tt_bits: int = 20, prob_cutoff: float = 1e-4) -> None:
        """A searcher of `depth` move layers, a table of `2^tt_bits` entries (the CLI's 20 by default, so the answers are `2048 best --depth D`'s), chance nodes below `prob_cutoff` evaluated, not expanded."""
    def best(self, board: int) -> int:
        """The best move on `board` (the packed board: 16 nibbles, cell `4 r + c` in bits `16 r + 4 c`, each a tile's log2), as the index of up, down, left, right (the environment's action); -1 when no move is legal."""
    def values(self, board: int) -> list[Optional[float]]:
        """Every move's expected value (None for an illegal move), up, down, left, right."""
    @property
    def nodes(self) -> int:
        """Search nodes so far (four per expanded move node)."""
    def time_in_rust(self, board: int, n: int) -> float:
        """Nanoseconds per `best(board)` measured in Rust over `n` calls (no Python in the loop): the search's own cost, to tell a Python call's overhead from it."""

def run(verb: str, request: str = "{}", progress: _Progress = None) -> str:
    """Runs a verb by name on a request (JSON) and returns its whole response (JSON), off the GIL; Ctrl-C stops it. `progress(done, total, message)` is called now and then."""

def verbs() -> list[tuple[str, str]]:
    """The verbs `run` knows: (name, what it does)."""

def batch_shard(verb: str, request: str, k: int, n: int, progress: _Progress = None) -> str:
    """Part `k` of `n` of a batch verb on a request (JSON): its whole response (JSON), off the GIL."""

def batch_merge(
    verb: str, request: str, parts: Sequence[str], json: bool, seconds: float, threads: int
) -> str:
    """The parts' responses joined into what one process prints for the whole batch."""

def batch_check(verb: str, request: str) -> None:
    """Checks a batch verb's request (JSON) before any shard runs."""

def batch_verbs() -> list[tuple[str, str]]:
    """The verbs that split into shards: (name, how)."""

def pack_2048(cells: Sequence[int]) -> int:
    """Packs a 4x4 grid of tile log2s (row by row) into the engine's board word."""
