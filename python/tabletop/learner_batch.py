"""One learner seat per game of a batch: what the framework vector
adapters share (:mod:`tabletop.gymnasium_vector`, :mod:`tabletop.sb3`,
:mod:`tabletop.pufferlib`).

>>> from tabletop.learner_batch import LearnerBatch
>>> batch = LearnerBatch("kuhn_poker", 4, seat=0, opponent="random", seed=0)
>>> obs, masks = batch.reset()
>>> obs, masks, rewards, terminated, truncated = batch.step(masks.argmax(axis=1))

Each game's learner plays ``seat`` (one seat for every game, or a list per
game) and ``opponent`` the other seat: a built-in bot's name, a Python
callable ``f(observations, masks) -> actions`` evaluated once on the batch
of every game where it is to move (a policy, a frozen copy of one), or a
list of those per game (:class:`tabletop.vector.MultiAgentVecEnv` plays
them). ``set_opponent`` swaps a game's opponent from its next episode on.

``step`` returns the learner's view: its observation and mask in every
row (a game that ended is reset at once: its row is the next episode's
first decision), its reward over the step (the opponent's moves
included), and the flags; where an episode ended, ``final_observations``
holds the learner's tensor of its last state. An action outside the legal
ones, with ``illegal_action="lose"`` (the default), ends that game with the
game's lowest return for the learner (``illegal`` flags it) and starts the
next; ``"raise"`` raises ``tabletop.IllegalActionError`` and changes
nothing. ``actions="decisions"`` makes the learner's action space the
game's decision ids only (``Game.decision_ids()``, the ids without chance
outcomes: 27 of card war's 68): action ``k`` is ``ids[k]``, and the masks
have one column per decision.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np

import tabletop
from tabletop.vector import MultiAgentVecEnv, Opponent

__all__ = ["LearnerBatch"]


def _per_game(value: Any, n: int, what: str) -> list:
    if isinstance(value, (list, tuple)):
        if len(value) != n:
            raise tabletop.GameError(f"{what} lists {len(value)} values, one per game ({n}) needed")
        return list(value)
    return [value] * n


class LearnerBatch:
    """See the module docstring; ``game``, ``num_envs``, ``seed``,
    ``threads`` and ``max_steps`` are ``tabletop.VecEnv``'s."""

    def __init__(
        self,
        game: Union[str, tabletop.Game],
        num_envs: int,
        seat: Union[int, Sequence[int]] = 0,
        opponent: Union[Opponent, Sequence[Opponent]] = "random",
        seed: int = 0,
        threads: int = 0,
        max_steps: Optional[int] = None,
        illegal_action: str = "lose",
        actions: str = "all",
    ) -> None:
        if actions not in ("all", "decisions"):
            raise ValueError('actions must be "all" or "decisions"')
        if illegal_action not in ("lose", "raise"):
            raise ValueError('illegal_action must be "lose" or "raise"')
        seats = _per_game(seat, num_envs, "seat")
        if any(s not in (0, 1) for s in seats):
            raise tabletop.GameError(f"a seat is 0 or 1, not {sorted(set(seats) - {0, 1})}")
        opponents = _per_game(opponent, num_envs, "opponent")
        if any(o is None for o in opponents):
            raise tabletop.GameError("every game needs an opponent (a bot name or a callable)")
        self.multi = MultiAgentVecEnv(
            game,
            num_envs,
            seed=seed,
            threads=threads,
            opponents=[{1 - s: o} for s, o in zip(seats, opponents)],
            max_steps=max_steps,
        )
        self.env = self.multi.env
        self.game: tabletop.Game = self.env.game
        self.num_envs = num_envs
        self.illegal_action = illegal_action
        self.seat = np.array(seats, dtype=np.int64)
        self._next_seat = self.seat.copy()
        self._rows = np.arange(num_envs)
        # The learner's action ids: every id, or the decisions only (the
        # space without its chance outcomes), read from the batch's masks
        # into a buffer of their own after each call.
        self.ids: Optional[np.ndarray] = (
            np.array(self.game.decision_ids(), np.int64) if actions == "decisions" else None
        )
        self.action_space = self.env.action_space if self.ids is None else len(self.ids)
        self._space = self.action_space
        self._masks = self.env.masks if self.ids is None else self.env.masks[:, self.ids]
        self._worst = float(self.game.min_utility())
        self.final_observations = np.zeros(
            (num_envs, *self.env.observation_shape), np.float32
        )
        self.ended = np.zeros(num_envs, bool)
        self.illegal = np.zeros(num_envs, bool)

    @property
    def observations(self) -> np.ndarray:
        """``(num_envs, *shape)`` float32: the learner's tensor in each game
        (the batch's own array, written in place)."""
        return self.env.observations

    @property
    def masks(self) -> np.ndarray:
        """``(num_envs, action_space)`` int8: the learner's legal actions
        (over the decision ids only with ``actions="decisions"``)."""
        return self._masks

    def _read_masks(self) -> None:
        if self.ids is not None:
            np.take(self.env.masks, self.ids, axis=1, out=self._masks)

    def set_opponent(self, index: int, opponent: Opponent, seat: Optional[int] = None) -> None:
        """Game ``index``'s opponent (and the learner's ``seat``, unchanged
        if None) from its next episode on; ``reset(rows=[index])`` starts
        it now."""
        learner = int(self._next_seat[index]) if seat is None else seat
        if learner not in (0, 1):
            raise tabletop.GameError(f"seat {learner} is not 0 or 1")
        if opponent is None:
            raise tabletop.GameError("every game needs an opponent (a bot name or a callable)")
        self.multi.set_opponent(index, {1 - learner: opponent})
        self._next_seat[index] = learner

    def _new_seats(self, rows: np.ndarray) -> None:
        self.seat[rows] = self._next_seat[rows]

    def reset(self, seed: Optional[int] = None, rows: Any = None) -> Tuple[np.ndarray, np.ndarray]:
        """New episodes everywhere (``seed`` seeds the batch anew), or in
        the games ``rows`` chooses (flags or indices); returns
        ``(observations, masks)``, the batch's own arrays."""
        flags = np.ones(self.num_envs, bool) if rows is None else self.multi._flags(rows)
        self._new_seats(flags)
        obs, *_ = self.multi.reset(seed=seed, rows=rows)
        self._read_masks()
        self.ended[:] = False
        self.illegal[:] = False
        return obs, self._masks

    def _clip(self, actions: np.ndarray) -> np.ndarray:
        """``actions`` clipped into the learner's ids. Two ufuncs, not
        ``np.clip``, which looks up the integer type's limits on every
        call (a few microseconds of each step, 20 under load)."""
        return np.minimum(np.maximum(actions, 0), self._space - 1)

    def _legal(self, actions: np.ndarray, flags: Optional[np.ndarray]) -> np.ndarray:
        """Which rows' actions are legal (rows not stepped count as legal)."""
        # One comparison for both bounds: a negative id read as unsigned
        # is above any action space.
        inside = actions.view(np.uint64) < self._space
        legal = self._masks[self._rows, self._clip(actions)] != 0
        legal &= inside
        if flags is not None:
            legal |= ~flags
        return legal

    def step(
        self, actions: Any, rows: Any = None
    ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Plays the learner's action in every game (or the games ``rows``
        chooses), then the opponents until the learner decides again;
        returns ``(observations, masks, rewards, terminated, truncated)``
        (the learner's reward; where an episode ended, ``ended`` is set and
        ``final_observations`` holds its last tensor)."""
        acts = np.asarray(actions).reshape(-1)
        if acts.shape != (self.num_envs,):
            raise tabletop.GameError(f"{acts.size} actions, one per game ({self.num_envs}) needed")
        acts = acts.astype(np.int64, copy=False)
        multi = self.multi
        flags = None if rows is None else multi._flags(rows)
        illegal = None
        out = None
        if self.illegal_action == "lose" and self.ids is None and multi._bots_only():
            # The engine checks every action before any game moves and
            # refuses the step whole: the step is tried first, and the
            # actions are checked here only if it is refused (with a
            # Python opponent, a refusal may come after the learner's
            # move: those steps are checked first).
            try:
                out = multi.step(acts, rows=flags)
            except tabletop.IllegalActionError:
                out = None
        if out is None:
            if self.illegal_action == "lose":
                legal = self._legal(acts, flags)
                if not legal.all():
                    illegal = ~legal
                    # The forfeit's last tensor, before the row moves on.
                    forfeit_obs = self.env.observations[illegal].copy()
                    acts = np.where(legal, acts, 0)
                    flags = legal if flags is None else flags & legal
            if self.ids is not None:
                acts = self.ids[self._clip(acts)]
            out = multi.step(acts, rows=flags)
        _, _, rewards, terminated, truncated, _, info = out
        ended = info["_final"]
        reward = rewards[self._rows, self.seat]
        self.ended[:] = ended
        if ended.any():
            where = ended.nonzero()[0]
            self.final_observations[where] = info["final_observation"][where, self.seat[where]]
            self._new_seats(ended)
        if self.illegal.any():
            self.illegal[:] = False
        if illegal is not None:
            terminated, truncated = terminated.copy(), truncated.copy()
            self.final_observations[illegal] = forfeit_obs
            multi.reset(rows=illegal)
            self._new_seats(illegal)
            reward[illegal] = self._worst
            terminated[illegal] = True
            self.ended |= illegal
            self.illegal[:] = illegal
        self._read_masks()
        return self.env.observations, self._masks, reward, terminated, truncated
