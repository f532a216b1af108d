"""bitarcade: fast bitboard engines and solvers for SameGame, Tetris perfect clears, Drop7, 2048
and Snake, from Python.

- :class:`SameGame`, :class:`Tetris`, :class:`Drop7`, :class:`Twenty48`, :class:`Snake`: games
  with their legal moves, play, copy, text, a numpy board, the solver (``hint``, ``auto``) and
  records in the CLI's JSON (:mod:`bitarcade.games`);
- :func:`run`: any of the games' verbs by name (``samegame.solve``, ``tetris.pc``,
  ``2048.play``, ...) with the typed API's request and response;
- :mod:`bitarcade.envs`: gymnasium environments ``bitarcade/<Game>-v0`` (registered on import)
  and vector environments stepped in one Rust call;
- :mod:`bitarcade.batch`: the batch verbs spread over Ray, merged into the CLI's output.
"""

from . import _core
from . import envs
from .games import Drop7, Game, SameGame, Snake, Tetris, Twenty48, run, text_file, verbs

envs.register()

__all__ = ["Drop7", "Game", "SameGame", "Snake", "Tetris", "Twenty48", "envs", "run", "text_file", "verbs"]
__version__ = "0.1.0"
