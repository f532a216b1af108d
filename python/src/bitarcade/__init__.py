"""bitarcade: fast bitboard engines and solvers for SameGame, Tetris perfect clears, Drop7, 2048
and Snake.

- :mod:`bitarcade.envs`: gymnasium environments ``bitarcade/<Game>-v0`` (registered on import)
  and vector environments stepped in one Rust call;
"""

from . import _core
from . import envs

envs.register()

__all__ = ["envs"]
__version__ = "0.1.0"
