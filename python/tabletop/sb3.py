"""Stable-Baselines3 vector environment over the Rust batch: one learner
seat per game of a ``tabletop.VecEnv``, stepped on every core, with the
legal actions where sb3-contrib's ``MaskablePPO`` reads them.

>>> from sb3_contrib import MaskablePPO
>>> from tabletop.sb3 import TabletopVecEnv
>>> env = TabletopVecEnv("kuhn_poker", 64, opponent="random", seed=0)
>>> model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=256, seed=0, device="cpu")
>>> _ = model.learn(total_timesteps=64 * 16)

It is SB3's ``VecEnv``: ``reset()`` returns the observations (seeded by
``seed()``'s first seed, the batch's), ``step_async``/``step_wait`` the
observations, rewards, dones and one info dict per row; a row whose
episode ended is reset at once and its info holds
``terminal_observation`` and ``TimeLimit.truncated`` (SB3's
conventions), so ``VecMonitor`` and the other wrappers apply.
``env_method("action_masks")`` (what ``get_action_masks`` calls) returns
one int8 mask per row (views of the batch's masks, which the next step
writes), ``action_masks()`` a copy of the ``(num_envs, action_space)``
array. SB3 adds no ``VecMonitor`` to a ``VecEnv`` it is given: wrap it
for episode statistics. The keyword arguments are ``TabletopEnv``'s (``seat``, ``opponent``
-- a bot name, a Python callable such as a frozen copy of the model's
policy, or a list of those per row --, ``illegal_action``, ``max_moves``,
``observation``, ``actions``); ``env_method("set_opponent", opponent, indices=...)``
swaps rows' opponents from their next episode on.
"""

from __future__ import annotations

import operator
from typing import Any, List, Optional, Sequence, Union

import gymnasium
import numpy as np
from stable_baselines3.common.vec_env import VecEnv

import tabletop
from tabletop import spaces
from tabletop.gymnasium import observation_space
from tabletop.learner_batch import LearnerBatch
from tabletop.vector import Opponent

__all__ = ["TabletopVecEnv"]


class _MaskRow(np.ndarray):
    """One row of the batch's masks, a view as ``env_method("action_masks")``
    returns it. sb3-contrib's ``get_action_masks`` stacks that list on every
    step (``np.stack``: a view and a copy per row, about 110 us for 256
    rows); NumPy hands the call to ``__array_function__`` here, which copies
    the batch's array at once when the list is every row in order. Any
    other NumPy function or ufunc runs on plain views and returns plain
    arrays."""

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        if func is np.stack and len(args) == 1 and not kwargs and isinstance(args[0], _MaskRows):
            whole = args[0].whole()
            if whole is not None:
                return whole.copy()
        return func(*_plain(args), **{k: _plain(v) for k, v in kwargs.items()})

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        out = kwargs.get("out")
        if out is not None:
            kwargs["out"] = _plain(out)
        return getattr(ufunc, method)(*_plain(inputs), **kwargs)


def _plain(value: Any) -> Any:
    """``value`` with its mask rows as plain ndarray views (in lists and
    tuples too), so that NumPy does not dispatch to ``_MaskRow`` again."""
    if isinstance(value, _MaskRow):
        return value.view(np.ndarray)
    if isinstance(value, (list, tuple)):
        items = [_plain(v) for v in value]
        return items if isinstance(value, list) else tuple(items)
    return value


class _MaskRows(list):
    """``env_method("action_masks")``'s list of every row, which knows the
    array its rows are views of."""

    def __init__(self, rows: List[_MaskRow], masks: np.ndarray) -> None:
        super().__init__(rows)
        self._rows = rows
        self._masks = masks

    def whole(self) -> Optional[np.ndarray]:
        """The batch's masks if the list still holds every row in order
        (a caller may have changed it), else None."""
        rows = self._rows
        if len(self) == len(rows) and all(map(operator.is_, self, rows)):
            return self._masks
        return None


class TabletopVecEnv(VecEnv):
    """See the module docstring."""

    def __init__(
        self,
        game: Union[str, tabletop.Game] = "kuhn_poker",
        num_envs: int = 1,
        seat: Union[int, Sequence[int]] = 0,
        opponent: Union[Opponent, Sequence[Opponent]] = "random",
        illegal_action: str = "lose",
        max_moves: Optional[int] = None,
        observation: str = "flat",
        actions: str = "all",
        seed: int = 0,
        threads: int = 0,
    ) -> None:
        self.batch = LearnerBatch(
            game,
            num_envs,
            seat=seat,
            opponent=opponent,
            seed=seed,
            threads=threads,
            max_steps=max_moves,
            illegal_action=illegal_action,
            actions=actions,
        )
        self.game: tabletop.Game = self.batch.game
        self.observation = observation
        self.render_mode: Optional[str] = None
        self._actions: Optional[np.ndarray] = None
        # The batch writes its masks in place, into the same array: its
        # rows' views are made once.
        self._mask_rows: List[_MaskRow] = list(self.batch.masks.view(_MaskRow))
        super().__init__(
            num_envs,
            observation_space(self.game, observation),
            gymnasium.spaces.Discrete(self.batch.action_space),
        )

    def _obs(self, tensor: np.ndarray) -> Any:
        return spaces.split(self.game, tensor) if self.observation == "dict" else tensor.copy()

    def reset(self) -> Any:
        """New episodes in every row; the batch is seeded anew by the seed
        ``seed()`` gave, if any."""
        seed = self._seeds[0]
        obs, _ = self.batch.reset(seed=seed)
        self._reset_seeds()
        self._reset_options()
        return self._obs(obs)

    def step_async(self, actions: np.ndarray) -> None:
        """Keeps the actions for ``step_wait``."""
        self._actions = actions

    def step_wait(self) -> Any:
        """Steps every row (see the module docstring)."""
        if self._actions is None:
            raise tabletop.GameError("step_async first")
        batch = self.batch
        obs, _, rewards, terminated, truncated = batch.step(self._actions)
        self._actions = None
        infos: List[dict] = [{} for _ in range(self.num_envs)]
        # Python ints for the few rows that ended: cheaper to index with
        # than NumPy's.
        for i in batch.ended.nonzero()[0].tolist():
            infos[i]["terminal_observation"] = self._obs(batch.final_observations[i])
            infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        for i in batch.illegal.nonzero()[0].tolist():
            infos[i]["illegal_action"] = True
        return self._obs(obs), rewards, terminated | truncated, infos

    def action_masks(self) -> np.ndarray:
        """``(num_envs, action_space)`` int8: each row's legal actions now."""
        return self.batch.masks.copy()

    def set_opponent(self, opponent: Opponent, seat: Optional[int] = None, indices: Any = None) -> None:
        """The rows' opponent (and learner seat) from their next episode on."""
        for i in self._get_indices(indices):
            self.batch.set_opponent(i, opponent, seat)

    def close(self) -> None:
        """Nothing to release."""

    def get_attr(self, attr_name: str, indices: Any = None) -> List[Any]:
        """The attribute for each row: the batch's, the same in every row
        (``seat``: each row's learner seat)."""
        rows = list(self._get_indices(indices))
        if attr_name == "seat":
            return [int(self.batch.seat[i]) for i in rows]
        value = getattr(self, attr_name)
        return [value for _ in rows]

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        """Sets an attribute of the batch: every row at once."""
        if len(list(self._get_indices(indices))) != self.num_envs:
            raise tabletop.GameError("the rows share their attributes: set them for every row")
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any, indices: Any = None, **method_kwargs: Any) -> List[Any]:
        """``action_masks`` (one mask per row) or ``set_opponent`` (each
        row's opponent) for the rows ``indices`` chooses."""
        rows = list(self._get_indices(indices))
        if method_name == "action_masks":
            # Views of the batch's masks (written by the next step):
            # get_action_masks stacks them into a new array at once, which
            # _MaskRow turns into one copy of the batch's array.
            if indices is None:
                return _MaskRows(self._mask_rows, self.batch.masks)
            return [self._mask_rows[i] for i in rows]
        if method_name == "set_opponent":
            self.set_opponent(*method_args, indices=rows, **method_kwargs)
            return [None for _ in rows]
        raise AttributeError(f"the rows have no method {method_name!r}: action_masks, set_opponent")

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> List[bool]:
        """No row is a wrapped Gymnasium environment."""
        return [False for _ in self._get_indices(indices)]
