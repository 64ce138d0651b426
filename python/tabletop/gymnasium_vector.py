"""Gymnasium vector environment over the Rust batch: ``TabletopEnv`` in
every row of one ``tabletop.VecEnv``, stepped on every core.

>>> import gymnasium, tabletop
>>> envs = gymnasium.make_vec("tabletop/kuhn_poker_classic-v0", num_envs=8, opponent="random")
>>> obs, info = envs.reset(seed=0)
>>> obs, rewards, terminated, truncated, info = envs.step(info["action_mask"].argmax(axis=1))

Every id of :mod:`tabletop.registration` has this class as its
``vector_entry_point``, so ``gymnasium.make_vec`` builds it (and RLlib's
``gym_env_vectorize_mode="vector_entry_point"``); the keyword arguments are
``TabletopEnv``'s (``seat``, ``opponent``, ``illegal_action``,
``max_moves``, ``observation``, ``mask_in_observation``,
``observation_key``, ``actions``), each row behaving as one ``TabletopEnv``: the same
spaces, rewards, flags and ``info["action_mask"]`` (batched, with its
``_action_mask`` flags), ``action_masks()`` for the whole batch. ``seat``
and ``opponent`` may also be lists, one per row (a league:
:class:`tabletop.learner_batch.LearnerBatch`); ``set_opponent`` swaps a
row's opponent from its next episode on.

``autoreset_mode`` is one of Gymnasium's three (``metadata["autoreset_mode"]``):

- ``AutoresetMode.NEXT_STEP`` (the default, Gymnasium's): a row whose episode
  ended shows its last observation; the next ``step`` ignores its action
  and returns its new episode's first observation, reward 0.
- ``AutoresetMode.SAME_STEP``: the row shows the new episode's first
  observation at once; ``info["final_obs"]`` (an object array, with
  ``info["_final_obs"]``) holds the last one.
- ``AutoresetMode.DISABLED``: as ``NEXT_STEP``, but the row must be reset
  by ``reset(options={"reset_mask": rows})`` before it steps again.

``copy=False`` returns the environment's own observation arrays, written
in place by the next call, instead of copies (Gymnasium's ``copy``).
``num_envs``, ``seed`` (the batch's, reseeded by ``reset(seed=...)``) and
``threads`` (0: every core) are ``tabletop.VecEnv``'s.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Tuple, Union

import gymnasium
import numpy as np
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

import tabletop
from tabletop import spaces
from tabletop.gymnasium import observation_space
from tabletop.learner_batch import LearnerBatch
from tabletop.vector import Opponent

__all__ = ["TabletopVectorEnv"]


class TabletopVectorEnv(gymnasium.vector.VectorEnv):
    """See the module docstring."""

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(
        self,
        game: Union[str, tabletop.Game] = "kuhn_poker",
        num_envs: int = 1,
        seat: Union[int, Sequence[int]] = 0,
        opponent: Union[Opponent, Sequence[Opponent]] = "random",
        illegal_action: str = "lose",
        max_moves: Optional[int] = None,
        observation: str = "flat",
        mask_in_observation: bool = False,
        observation_key: str = "observation",
        actions: str = "all",
        autoreset_mode: Union[str, AutoresetMode] = AutoresetMode.NEXT_STEP,
        copy: bool = True,
        seed: int = 0,
        threads: int = 0,
        render_mode: Optional[str] = None,
    ) -> None:
        if render_mode is not None:
            raise ValueError("the vector environment does not render; render a row's state")
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
        self.num_envs = num_envs
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.metadata = dict(self.metadata, autoreset_mode=self.autoreset_mode)
        self.observation = observation
        self.mask_in_observation = mask_in_observation
        self.observation_key = observation_key
        self.copy = copy
        self.single_observation_space = observation_space(
            self.game, observation, mask_in_observation, observation_key, actions
        )
        self.single_action_space = gymnasium.spaces.Discrete(self.batch.action_space)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        # Rows whose episode ended and that show its last observation
        # (next-step and disabled modes).
        self._waiting = np.zeros(num_envs, bool)
        self._obs = np.zeros((num_envs, *self.game.observation_tensor_shape()), np.float32)
        self._masks = np.zeros((num_envs, self.single_action_space.n), np.int8)
        self._all = np.ones(num_envs, bool)
        self._shown_masks = self._masks

    def set_opponent(self, index: int, opponent: Opponent, seat: Optional[int] = None) -> None:
        """Row ``index``'s opponent (a bot name or a callable; and the
        learner's ``seat``) from its next episode on."""
        self.batch.set_opponent(index, opponent, seat)

    def action_masks(self) -> np.ndarray:
        """``(num_envs, action_space)`` int8: each row's legal actions now
        (all 0 in a row that shows an ended episode)."""
        return self._shown_masks

    def _view(self) -> Tuple[Any, Dict[str, Any]]:
        """The observations and info of the rows now, the waiting rows
        showing their episode's last tensor and an empty mask."""
        batch = self.batch
        waiting = self._waiting.any()
        if self.copy:
            tensor, masks = batch.observations.copy(), batch.masks.copy()
        elif waiting:
            np.copyto(self._obs, batch.observations)
            np.copyto(self._masks, batch.masks)
            tensor, masks = self._obs, self._masks
        else:
            tensor, masks = batch.observations, batch.masks
        if waiting:
            tensor[self._waiting] = batch.final_observations[self._waiting]
            masks[self._waiting] = 0
        self._shown_masks = masks
        obs: Any = spaces.split(self.game, tensor) if self.observation == "dict" else tensor
        if self.mask_in_observation:
            obs = {self.observation_key: obs, "action_mask": masks}
        return obs, {"action_mask": masks, "_action_mask": self._all}

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Any, Dict[str, Any]]:
        """New episodes in every row (``seed`` seeds the batch anew), or in
        the rows of ``options["reset_mask"]`` (a bool array of
        ``num_envs``) only."""
        super().reset(seed=seed)
        mask = (options or {}).get("reset_mask")
        if mask is None:
            self.batch.reset(seed=seed)
            self._waiting[:] = False
            return self._view()
        mask = np.asarray(mask)
        if mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
            raise ValueError(f"options['reset_mask'] must be a bool array of shape ({self.num_envs},)")
        if seed is not None:
            raise ValueError("a seed reseeds the whole batch: reset(seed=...) without reset_mask")
        # A waiting row's next episode has started already, its decision
        # written: showing it is its reset.
        fresh = mask & ~self._waiting
        if fresh.any():
            self.batch.reset(rows=fresh)
        self._waiting &= ~mask
        return self._view()

    def step(self, actions: Any) -> Tuple[Any, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """One action per row (ignored in a row that shows an ended
        episode, next-step mode); see the module docstring."""
        batch = self.batch
        mode = self.autoreset_mode
        waiting = self._waiting
        if mode == AutoresetMode.DISABLED and waiting.any():
            raise tabletop.GameError(
                f"rows {np.flatnonzero(waiting).tolist()} ended: reset them with options['reset_mask']"
            )
        rows = ~waiting if waiting.any() else None
        _, _, rewards, terminated, truncated = batch.step(actions, rows=rows)
        ended = batch.ended
        if mode == AutoresetMode.SAME_STEP:
            self._waiting[:] = False
        else:
            self._waiting[:] = ended
        obs, info = self._view()
        if batch.illegal.any():
            info["illegal_action"] = batch.illegal.copy()
            info["_illegal_action"] = batch.illegal.copy()
        if mode == AutoresetMode.SAME_STEP and ended.any():
            final = np.full(self.num_envs, None, dtype=object)
            for i in np.flatnonzero(ended):
                final[i] = self._final_obs(i)
            info["final_obs"] = final
            info["_final_obs"] = ended.copy()
            info["final_info"] = np.full(self.num_envs, None, dtype=object)
            info["final_info"][ended] = [{} for _ in range(int(ended.sum()))]
            info["_final_info"] = ended.copy()
        return obs, rewards.astype(np.float64), terminated.copy(), truncated.copy(), info

    def _final_obs(self, i: int) -> Any:
        """Row ``i``'s last observation of its ended episode, as one row's
        observation space has it."""
        tensor = self.batch.final_observations[i].copy()
        obs: Any = spaces.split(self.game, tensor) if self.observation == "dict" else tensor
        if self.mask_in_observation:
            return {self.observation_key: obs, "action_mask": np.zeros_like(self._masks[i])}
        return obs

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""
