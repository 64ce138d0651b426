"""PufferLib native environment over the Rust batch: one agent per game
of a ``tabletop.VecEnv``, no per-game Python (PufferLib 3.0's
``PufferEnv``, as its compiled Ocean environments are).

>>> import numpy as np, pufferlib, pufferlib.vector
>>> from tabletop.pufferlib import TabletopPufferEnv
>>> vecenv = pufferlib.vector.make(TabletopPufferEnv, backend=pufferlib.PufferEnv,
...                                env_kwargs=dict(game="kuhn_poker", num_envs=64, opponent="random"))
>>> obs, infos = vecenv.reset(seed=0)
>>> masks = obs[:, -vecenv.single_action_space.n:]          # the legal actions ride in the observation
>>> obs, rewards, terminals, truncations, infos = vecenv.step(masks.argmax(axis=1))

``num_envs`` games are ``num_agents`` agents, each the learner's seat of
its game against ``opponent`` (a bot name, a Python callable, or a list of
those per game; ``set_opponent`` swaps one from its game's next episode
on). PufferLib carries one Box observation and no mask, so each agent's
observation is its float32 tensor followed by its int8 mask as 0/1
(``action_space`` values: ``split(observations)`` gives them back apart).
The environment writes into PufferLib's buffers (``buf``, shared memory
under its ``Multiprocessing`` backend), resets a finished game at once
(its row is the next episode's first decision, ``terminals`` or
``truncations`` set), and returns, for a step where games ended, one info
dict with their mean ``episode_return`` and their count ``episodes``. An
illegal action loses the game (``illegal_action="lose"``, the default:
PufferLib's trainer does not mask its samples) and counts in
``illegal_actions``.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import gymnasium
import numpy as np
import pufferlib

import tabletop
from tabletop.learner_batch import LearnerBatch
from tabletop.vector import Opponent

__all__ = ["TabletopPufferEnv"]

# The encodings write finite float32 values (docs/learning.md).
_FINITE = float(np.finfo(np.float32).max)


class TabletopPufferEnv(pufferlib.PufferEnv):
    """See the module docstring; ``seed`` and ``threads`` are
    ``tabletop.VecEnv``'s, the other arguments ``TabletopEnv``'s."""

    def __init__(
        self,
        game: Union[str, tabletop.Game] = "kuhn_poker",
        num_envs: int = 1,
        seat: Union[int, Sequence[int]] = 0,
        opponent: Union[Opponent, Sequence[Opponent]] = "random",
        illegal_action: str = "lose",
        max_moves: Optional[int] = None,
        actions: str = "all",
        seed: int = 0,
        threads: int = 0,
        buf: Optional[Dict[str, np.ndarray]] = None,
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
        self._size = self.game.observation_tensor_size()
        space = self.batch.action_space
        self.single_observation_space = gymnasium.spaces.Box(
            low=-_FINITE, high=_FINITE, shape=(self._size + space,), dtype=np.float32
        )
        self.single_action_space = gymnasium.spaces.Discrete(space)
        self.num_agents = num_envs
        super().__init__(buf)

    def split(self, observations: np.ndarray) -> Tuple[np.ndarray, np.ndarray]:
        """Rows of observations back as (flat tensors, 0/1 masks)."""
        return observations[..., : self._size], observations[..., self._size :]

    def set_opponent(self, index: int, opponent: Opponent, seat: Optional[int] = None) -> None:
        """Game ``index``'s opponent (and the learner's seat) from its next
        episode on."""
        self.batch.set_opponent(index, opponent, seat)

    def _write(self) -> None:
        batch = self.batch
        tensors, masks = self.split(self.observations)
        tensors[:] = batch.observations.reshape(self.num_agents, -1)
        masks[:] = batch.masks

    def reset(self, seed: Optional[int] = None) -> Tuple[np.ndarray, List[Dict[str, Any]]]:
        """New episodes in every game (``seed`` seeds the batch anew)."""
        self.batch.reset(seed=seed)
        self._write()
        self.rewards[:] = 0
        self.terminals[:] = False
        self.truncations[:] = False
        return self.observations, []

    def step(self, actions: Any) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, List[Dict[str, Any]]]:
        """One action per agent; see the module docstring."""
        batch = self.batch
        _, _, rewards, terminated, truncated = batch.step(actions)
        self._write()
        self.rewards[:] = rewards
        self.terminals[:] = terminated
        self.truncations[:] = truncated
        infos: List[Dict[str, Any]] = []
        if batch.ended.any():
            infos.append(
                {
                    "episode_return": float(rewards[batch.ended].mean()),
                    "episodes": int(batch.ended.sum()),
                    "illegal_actions": int(batch.illegal.sum()),
                }
            )
        return self.observations, self.rewards, self.terminals, self.truncations, infos

    def close(self) -> None:
        """Nothing to release."""
