"""gymnasium environments for the five games, stepped by the Rust engines.

Every environment follows the same episode rules (they live in Rust, ``crates/python/src/env.rs``):

- ``reset(seed=S)`` plays exactly the CLI's game from seed ``S`` (``bitarcade 2048 play --seed S``,
  ``bitarcade samegame gen --seed S``, ...); each later ``reset()`` without a seed plays the game
  from seed ``sub_seed(S, e)`` for episode ``e`` (the seed is in ``info["seed"]``).
- An action the mask forbids changes nothing (no spawn, no reveal, no fruit) and earns
  ``invalid_reward``; ``max_invalid`` of them in a row truncate the episode. ``max_steps``
  truncates it too; the game's own end terminates it.
- ``info["action_mask"]`` (int8, 1 for a legal action) is computed after the step's random event;
  with ``mask_in_obs=True`` the observation is a dict of ``observation`` and ``action_mask``.

The vector environments step N games in one Rust call (numpy in and out, no Python per
environment) and reset an ended game on its next step (gymnasium's ``NEXT_STEP`` autoreset).
"""

from __future__ import annotations

import json
from typing import Any, Optional, Sequence, Union

import numpy as np
import gymnasium as gym
from gymnasium import spaces
from gymnasium.vector import VectorEnv
from gymnasium.vector.utils import batch_space

from . import _core

try:  # gymnasium >= 1.1
    from gymnasium.vector import AutoresetMode

    _NEXT_STEP: Any = AutoresetMode.NEXT_STEP
except ImportError:  # pragma: no cover
    _NEXT_STEP = "NextStep"

_RULES = ("max_steps", "max_invalid", "invalid_reward")


def _split(kwargs: dict) -> tuple[str, str]:
    rules = {k: kwargs.pop(k) for k in _RULES if k in kwargs}
    return json.dumps(kwargs), json.dumps(rules)


def _core_of(cls, num_envs: int, kwargs: dict):
    options, rules = _split(dict(kwargs))
    return cls(num_envs, options, rules)


class _Game:
    """What each game's environments share: the core class, the observation's bounds, colours."""

    core: Any = None
    high: int = 255
    palette: np.ndarray = np.zeros((1, 3), np.uint8)
    cell: int = 24
    rows: Optional[int] = None  # the board's rows in the observation (None: all of them)

    @classmethod
    def rgb(cls, obs: np.ndarray) -> np.ndarray:
        grid = np.asarray(obs)
        grid = grid[: cls.rows] if cls.rows is not None else grid
        img = cls.palette[np.minimum(grid, len(cls.palette) - 1)]
        return np.repeat(np.repeat(img, cls.cell, axis=0), cls.cell, axis=1)


class CoreEnv(gym.Env):
    """One game as a gymnasium environment (see the module's docs for the episode rules)."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 8}
    game: type = _Game

    def __init__(self, render_mode: Optional[str] = None, mask_in_obs: bool = False, **options: Any):
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: {render_mode!r} is not one of ansi, rgb_array")
        self.render_mode = render_mode
        self.mask_in_obs = mask_in_obs
        self.options = dict(options)
        self._core = _core_of(self.game.core, 1, options)
        shape = tuple(self._core.shape)
        actions = self._core.actions
        board = spaces.Box(0, self.game.high, shape, np.uint8)
        mask = spaces.Box(0, 1, (actions,), np.int8)
        self.observation_space = (
            spaces.Dict({"observation": board, "action_mask": mask}) if mask_in_obs else board
        )
        self.action_space = spaces.Discrete(actions)
        self._seeded = False
        self._obs: Optional[np.ndarray] = None

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        if seed is None and not self._seeded:
            seed = int(self.np_random.integers(0, 2**63))
        if seed is not None:
            self._seeded = True
        obs, mask = self._core.reset1(seed)
        self._obs = obs
        info = {"action_mask": mask, "seed": self._core.seed(0)[0]}
        return ({"observation": obs, "action_mask": mask} if self.mask_in_obs else obs), info

    def step(self, action):
        obs, reward, terminated, truncated, mask = self._core.step1(action)
        self._obs = obs
        if self.mask_in_obs:
            return {"observation": obs, "action_mask": mask}, reward, terminated, truncated, {"action_mask": mask}
        return obs, reward, terminated, truncated, {"action_mask": mask}

    def action_masks(self) -> np.ndarray:
        """The legal actions now (for maskable policies)."""
        return self._core.mask(0)

    @property
    def score(self) -> int:
        """The game's score so far."""
        return self._core.score(0)

    def text(self) -> str:
        """The position in the game's text form (what the CLI prints)."""
        return self._core.text(0)

    def record(self, player: str = "python") -> str:
        """The episode's record, as the CLI's ``--record`` writes it (JSON): ``bitarcade <game>
        replay`` checks it."""
        return self._core.record(0)

    def render(self):
        if self.render_mode == "ansi":
            return f"{self._core.text(0)}\nscore {self._core.score(0)}\n"
        if self.render_mode == "rgb_array":
            return self.game.rgb(self._obs)
        return None


class CoreVecEnv(VectorEnv):
    """N environments of one game stepped in one Rust call.

    ``reset(seed=S)`` seeds environment ``i`` with ``S + i`` (a list gives each its own seed), so
    environment ``i`` plays exactly what a single environment reset with ``seed=S + i`` plays.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "autoreset_mode": _NEXT_STEP}
    game: type = _Game

    def __init__(self, num_envs: int = 1, render_mode: Optional[str] = None, mask_in_obs: bool = False, **options: Any):
        if not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs: {num_envs!r} is not a whole number of at least 1")
        self.num_envs = int(num_envs)
        self.render_mode = render_mode
        self.mask_in_obs = mask_in_obs
        self._core = _core_of(self.game.core, self.num_envs, options)
        self._shape = (self.num_envs,) + tuple(self._core.shape)
        self._actions = self._core.actions
        board = spaces.Box(0, self.game.high, tuple(self._core.shape), np.uint8)
        mask = spaces.Box(0, 1, (self._actions,), np.int8)
        self.single_observation_space = (
            spaces.Dict({"observation": board, "action_mask": mask}) if mask_in_obs else board
        )
        self.single_action_space = spaces.Discrete(self._actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._seeded = False
        self._obs: Optional[np.ndarray] = None

    def reset(self, *, seed: Union[None, int, Sequence[int]] = None, options: Optional[dict] = None):
        if seed is None and not self._seeded:
            seed = int(np.random.default_rng().integers(0, 2**63))
        seeds = None
        if seed is not None:
            if isinstance(seed, (int, np.integer)):
                seeds = [int(seed) + i for i in range(self.num_envs)]
            else:
                seeds = [int(s) for s in seed]
            self._seeded = True
        obs = np.empty(self._shape, np.uint8)
        mask = np.empty((self.num_envs, self._actions), np.int8)
        self._core.reset(seeds, obs, mask)
        self._obs = obs
        return self._wrap(obs, mask), {"action_mask": mask}

    def step(self, actions):
        actions = np.ascontiguousarray(actions, dtype=np.int64).reshape(-1)
        n = self.num_envs
        obs = np.empty(self._shape, np.uint8)
        reward = np.empty(n, np.float64)
        terminated = np.empty(n, np.bool_)
        truncated = np.empty(n, np.bool_)
        mask = np.empty((n, self._actions), np.int8)
        self._core.step(actions, obs, reward, terminated, truncated, mask)
        self._obs = obs
        return self._wrap(obs, mask), reward, terminated, truncated, {"action_mask": mask}

    def _wrap(self, obs, mask):
        return {"observation": obs, "action_mask": mask} if self.mask_in_obs else obs

    def text(self, i: int) -> str:
        """Environment ``i``'s position in the game's text form."""
        return self._core.text(i)

    def record(self, i: int) -> str:
        """Environment ``i``'s record, as the CLI's ``--record`` writes it (JSON)."""
        return self._core.record(i)

    def render(self):
        if self.render_mode == "ansi":
            return [self._core.text(i) for i in range(self.num_envs)]
        if self.render_mode == "rgb_array" and self._obs is not None:
            return [self.game.rgb(o) for o in self._obs]
        return None


def _hex(colours: Sequence[str]) -> np.ndarray:
    return np.array([[int(c[i : i + 2], 16) for i in (1, 3, 5)] for c in colours], np.uint8)


class _Twenty48(_Game):
    core = _core.Env2048
    high = 15
    cell = 32
    palette = _hex(
        ["#cdc1b4", "#eee4da", "#ede0c8", "#f2b179", "#f59563", "#f67c5f", "#f65e3b", "#edcf72",
         "#edcc61", "#edc850", "#edc53f", "#edc22e", "#3c3a32", "#2f2d27", "#24221e", "#1a1916"]
    )


class Twenty48Env(CoreEnv):
    """2048: the observation is the 4x4 board of tile log2s (uint8, 0 empty, 1 a 2, ..., 15 a
    32768); action 0 up, 1 down, 2 left, 3 right; the reward is the score a move gains.
    Terminated when no move is left (or a move would make a 65536)."""

    game = _Twenty48


class Twenty48VecEnv(CoreVecEnv):
    """N 2048 environments stepped in one Rust call (see :class:`Twenty48Env`)."""

    game = _Twenty48


class _Snake(_Game):
    core = _core.EnvSnake
    high = 4
    cell = 16
    palette = _hex(["#1d2330", "#4caf50", "#1b5e20", "#e53935", "#a5d6a7"])


class SnakeEnv(CoreEnv):
    """Snake: the observation is the board, rows from the top (uint8: 0 empty, 1 body, 2 head,
    3 fruit, 4 tail); action 0 up, 1 right, 2 down, 3 left; a fruit earns 1, a fatal move
    ``death_reward`` (-1). Reversing onto the neck is the one illegal action. Terminated when
    the snake dies or fills the board; truncated by the stall limit (``stall`` moves without
    eating). Options: ``size="WxH"`` (10x10), ``start_len``, ``stall``, ``death_reward``."""

    game = _Snake


class SnakeVecEnv(CoreVecEnv):
    """N Snake environments stepped in one Rust call (see :class:`SnakeEnv`)."""

    game = _Snake


class _Drop7(_Game):
    core = _core.EnvDrop7
    high = 255
    cell = 32
    rows = 7
    palette = _hex(["#202a38", "#2e9d4b", "#e8c02a", "#f08a1c", "#d8352a", "#c2378f", "#2aa3d8",
                    "#2c55c8", "#8a8f98", "#c0c4cc"])


class Drop7Env(CoreEnv):
    """Drop7: the observation is 8 rows of 7 (uint8): the board from the top row down (0 empty,
    1-7 a number, 8 a gray disc, 9 a cracked one), then ``[next disc (1-7, 8 gray), drops left,
    level, 0, 0, 0, 0]``; action ``c`` drops the disc in column ``c`` (0 the leftmost); the
    reward is the turn's points. A full column is the one illegal action. Options:
    ``mode="hardcore"`` or ``"normal"``, ``gray_share=(1, 8)``, ``fatal_rise_bonus``,
    ``no_rise_chain`` (the CLI's options of the same names)."""

    game = _Drop7


class Drop7VecEnv(CoreVecEnv):
    """N Drop7 environments stepped in one Rust call (see :class:`Drop7Env`)."""

    game = _Drop7


class _SameGame(_Game):
    core = _core.EnvSameGame
    high = 8
    cell = 20
    palette = _hex(["#101418", "#e53935", "#43a047", "#1e88e5", "#fdd835", "#8e24aa", "#00acc1",
                    "#fb8c00", "#eceff1"])


class SameGameEnv(CoreEnv):
    """SameGame: the observation is the board, rows from the top (uint8: 0 empty, 1-8 a colour),
    as shown (empty columns closed up to the left); action ``row * width + column`` clicks that
    cell and removes its group; the reward is the group's points ((n - 2)^2, and the clear
    bonus of 1,000 for the last). Cells outside every group of two are illegal. Terminated
    when no group is left. Options: ``width``, ``height`` (15, 15), ``colors`` (5): the board
    of ``bitarcade samegame gen --seed S``."""

    game = _SameGame


class SameGameVecEnv(CoreVecEnv):
    """N SameGame environments stepped in one Rust call (see :class:`SameGameEnv`)."""

    game = _SameGame


class _Tetris(_Game):
    core = _core.EnvTetris
    high = 255
    cell = 24
    rows = 6
    palette = _hex(["#14181f", "#9aa4b1", "#05070a"])


class TetrisEnv(CoreEnv):
    """Tetris perfect clears: each step places one piece. Action
    ``hold * 240 + facing * 60 + y * 10 + x`` places the current piece (or, with ``hold`` 1,
    the piece hold gives) in facing N E S W with its lowest cell on row ``y`` and its leftmost
    on column ``x``; the mask holds the placements reachable through the kick table (SRS+).
    The observation is 7 rows of 10 (uint8): the 6-row zone from the top (0 empty, 1 filled,
    2 above the perfect clear's height), then ``[current, hold, next five, rows left,
    placements, lines]`` with pieces 0-6 (I O T S Z J L), 7 for none. The reward is the lines
    a placement clears plus ``pc_reward`` (10) for the perfect clear, which terminates the
    episode (as does a dead end). Options: the CLI's ``pc`` setup (``queue``, ``hold``,
    ``use_hold``, ``kicks``, ``field``, ``fumen``, ``height``, ``min_height``, ``pieces``);
    without a queue, seed ``S`` deals the queue of ``bitarcade tetris bench --seed S``."""

    game = _Tetris


class TetrisVecEnv(CoreVecEnv):
    """N Tetris environments stepped in one Rust call (see :class:`TetrisEnv`)."""

    game = _Tetris


ENVS = {
    "SameGame": (SameGameEnv, SameGameVecEnv),
    "Tetris": (TetrisEnv, TetrisVecEnv),
    "Drop7": (Drop7Env, Drop7VecEnv),
    "2048": (Twenty48Env, Twenty48VecEnv),
    "Snake": (SnakeEnv, SnakeVecEnv),
}


def register() -> None:
    """Registers ``bitarcade/<Game>-v0`` for every game (done on ``import bitarcade``)."""
    for key, (env, vec) in ENVS.items():
        env_id = f"bitarcade/{key}-v0"
        if env_id in gym.registry:
            continue
        gym.register(
            id=env_id,
            entry_point=f"{__name__}:{env.__name__}",
            vector_entry_point=f"{__name__}:{vec.__name__}",
            disable_env_checker=False,
        )
