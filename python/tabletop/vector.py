"""Self-play and opponents on one batch: :class:`MultiAgentVecEnv`.

>>> import tabletop
>>> from tabletop.vector import MultiAgentVecEnv
>>> def first_legal(observations, masks):       # a Python opponent, on a batch
...     return masks.argmax(axis=1)
>>> env = MultiAgentVecEnv("kuhn_poker", 4, seed=0,
...                        opponents=[None, {1: "random"}, {0: first_legal}, None])
>>> obs, masks, rewards, terminated, truncated, to_move, info = env.reset()
>>> obs, masks, rewards, terminated, truncated, to_move, info = env.step(masks.argmax(axis=1))

Each game of the batch has two seats, and each seat is a learner (the
caller acts for it through ``step``) or an opponent: a built-in bot named
by a string (``Game.make_bot``'s names; it plays inside the engine, the
GIL released), or a Python callable ``f(observations, masks) -> actions``
evaluated once on the batch of every game where it is to move (a policy,
or a frozen copy of one: :func:`frozen`). ``opponents`` gives them: None
(every seat of every game is a learner: self-play, both seats from one
object), ``{seat: opponent}`` for every game, or a list of those (or None)
per game, for league play. A game needs a learner seat.

After ``reset`` and every ``step``, each row holds a decision of a learner
seat (``to_move`` says which): the opponents have played in between.
``rewards`` is ``(num_envs, 2)``, each seat's reward over the step
(opponents' moves included); ``info`` holds, where an episode ended
(``info["_final"]``), ``final_observation`` (both seats' tensors of its
last state, ``(num_envs, 2, *shape)``), ``episode_return`` and
``episode_length``. Masks are int8.
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

import tabletop

__all__ = ["MultiAgentVecEnv", "frozen", "Policy", "Opponent"]

#: A Python opponent: legal action ids for a batch of observations and masks.
Policy = Callable[[np.ndarray, np.ndarray], Any]
#: A seat's opponent: a built-in bot's name or a Python policy.
Opponent = Union[str, Policy]


def frozen(policy: Any) -> Any:
    """A copy of ``policy`` (any callable, e.g. a torch module wrapped in a
    function) that later training of the original does not change: the
    frozen opponent of self-play leagues."""
    return copy.deepcopy(policy)


def _per_game(opponents: Any, n: int) -> List[Dict[int, Opponent]]:
    if opponents is None or isinstance(opponents, dict):
        return [dict(opponents or {}) for _ in range(n)]
    listed = list(opponents)
    if len(listed) != n:
        raise tabletop.GameError(f"opponents lists {len(listed)} games, one per game ({n}) needed")
    return [dict(o or {}) for o in listed]


class MultiAgentVecEnv:
    """See the module docstring. ``game``, ``num_envs``, ``seed``,
    ``threads`` and ``max_steps`` are ``tabletop.VecEnv``'s."""

    def __init__(
        self,
        game: Union[str, tabletop.Game],
        num_envs: int,
        seed: int = 0,
        threads: int = 0,
        opponents: Union[None, Dict[int, Opponent], Sequence[Optional[Dict[int, Opponent]]]] = None,
        max_steps: Optional[int] = None,
    ) -> None:
        per_game = _per_game(opponents, num_envs)
        bots: List[Optional[str]] = [None] * num_envs
        bot_seats = [1] * num_envs
        self._python = np.full((num_envs, 2), None, dtype=object)
        for i, seats in enumerate(per_game):
            if set(seats) - {0, 1}:
                raise tabletop.GameError(f"game {i}: seats are 0 and 1, not {sorted(seats)}")
            if len(seats) == 2:
                raise tabletop.GameError(f"game {i} has no learner seat")
            for seat, opponent in seats.items():
                if isinstance(opponent, str):
                    bots[i], bot_seats[i] = opponent, seat
                elif callable(opponent):
                    self._python[i, seat] = opponent
                else:
                    raise tabletop.GameError(
                        f"game {i} seat {seat}: an opponent is a bot name or a callable"
                    )
        self.learners = np.array(
            [[seat not in seats for seat in (0, 1)] for seats in per_game], dtype=bool
        )
        self.env = tabletop.VecEnv(
            game,
            num_envs,
            seed=seed,
            threads=threads,
            opponent=bots,
            opponent_seat=bot_seats,
            max_steps=max_steps,
        )
        self.num_envs = num_envs
        shape = tuple(self.env.observation_shape)
        self._rewards = np.zeros((num_envs, 2), np.float32)
        self._terminated = np.zeros(num_envs, bool)
        self._truncated = np.zeros(num_envs, bool)
        self._info: Dict[str, np.ndarray] = {
            "final_observation": np.zeros((num_envs, 2, *shape), np.float32),
            "episode_return": np.zeros((num_envs, 2), np.float32),
            "episode_length": np.zeros(num_envs, np.int64),
            "_final": np.zeros(num_envs, bool),
        }
        self._rows = np.arange(num_envs)

    @property
    def game(self) -> tabletop.Game:
        """The game."""
        return self.env.game

    def _gather(self) -> None:
        """Adds the last (sub)step of the batch to this step's results."""
        env = self.env
        self._rewards += env.rewards
        self._terminated |= env.terminated
        self._truncated |= env.truncated
        ended = env.terminated | env.truncated
        if ended.any():
            info = self._info
            info["final_observation"][ended] = env.final_observations[ended]
            info["episode_return"][ended] = env.episode_returns[ended]
            info["episode_length"][ended] = env.episode_lengths[ended]
            info["_final"] |= ended

    def _play_opponents(self) -> None:
        """The Python opponents play, each on its whole batch at once,
        until a learner is to move in every game."""
        env = self.env
        while True:
            who = self._python[self._rows, env.to_move]
            due = np.flatnonzero(who != None)  # noqa: E711 (an object array)
            if due.size == 0:
                return
            actions = np.zeros(self.num_envs, np.int64)
            for policy in {id(p): p for p in who[due]}.values():
                rows = due[[p is policy for p in who[due]]]
                chosen = np.asarray(policy(env.observations[rows], env.masks[rows]))
                actions[rows] = chosen.reshape(-1)
            flags = np.zeros(self.num_envs, bool)
            flags[due] = True
            env.step(actions, rows=flags)
            self._gather()

    def _start(self) -> None:
        self._rewards[:] = 0
        self._terminated[:] = False
        self._truncated[:] = False
        self._info["_final"][:] = False

    def _results(self) -> Tuple[Any, ...]:
        env = self.env
        return (
            env.observations,
            env.masks,
            self._rewards,
            self._terminated,
            self._truncated,
            env.to_move,
            self._info,
        )

    def reset(self, seed: Optional[int] = None) -> Tuple[Any, ...]:
        """New episodes in every game (``seed`` seeds the batch anew);
        returns ``(observations, masks, rewards, terminated, truncated,
        to_move, info)``, learners to move everywhere."""
        self._start()
        self.env.reset(seed=seed)
        self._play_opponents()
        return self._results()

    def step(self, actions: Any) -> Tuple[Any, ...]:
        """Plays one action per game for the learner seat to move, then
        the opponents until learners are to move again; returns what
        ``reset`` returns. The arrays are the environment's own, written in
        place by the next call."""
        self._start()
        self.env.step(actions)
        self._gather()
        self._play_opponents()
        return self._results()

    def state(self, index: int) -> tabletop.State:
        """A copy of game ``index``'s state."""
        return self.env.state(index)
