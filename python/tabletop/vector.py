"""Self-play and opponents on one batch: :class:`MultiAgentVecEnv`.

>>> import tabletop
>>> from tabletop.vector import MultiAgentVecEnv
>>> def first_legal(observations, masks):       # a Python opponent, on a batch
...     return masks.argmax(axis=1)
>>> env = MultiAgentVecEnv("kuhn_poker", 4, seed=0,
...                        opponents=[None, {1: "random"}, {0: first_legal}, None])
>>> obs, masks, rewards, terminated, truncated, to_move, info = env.reset()
>>> obs, masks, rewards, terminated, truncated, to_move, info = env.step(masks.argmax(axis=1))
>>> env.set_opponent(0, {1: first_legal})         # a league: game 0's next episode
>>> obs, masks, *_ = env.reset(rows=[0])          # ... starts now

Each game of the batch has two seats, and each seat is a learner (the
caller acts for it through ``step``) or an opponent: a built-in bot named
by a string (``Game.make_bot``'s names; it plays inside the engine, the
GIL released), or a Python callable ``f(observations, masks) -> actions``
evaluated once on the batch of every game where it is to move (a policy,
or a frozen copy of one: :func:`frozen`). ``opponents`` gives them: None
(every seat of every game is a learner: self-play, both seats from one
object), ``{seat: opponent}`` for every game, or a list of those (or None)
per game, for league play. A game needs a learner seat.
``set_opponent(i, {seat: opponent})`` swaps game ``i``'s opponents between
steps: they play from its next episode on (the episode under way keeps its
players; ``reset(rows=[i])`` starts the next one now). ``rows`` (a boolean
array of ``num_envs`` flags, or game indices) on ``reset`` and ``step``
moves those games only; the others keep their decision, their rewards and
flags read 0.

After ``reset`` and every ``step``, each row holds a decision of a learner
seat (``to_move`` says which): the opponents have played in between.
With ``sync=False`` a Python opponent is instead called once per step, on
every row then waiting on it, like EnvPool's asynchronous mode: a game
where one seat decides several times in a row (card war) no longer holds
the whole batch back for a string of small calls. ``info["ready"]`` then
flags the rows at a learner's decision; ``step`` acts on those (its
default ``rows``) and refuses others; the other rows report their rewards
and episode ends as they come, and are ready at a later step.
``rewards`` is ``(num_envs, 2)``, each seat's reward over the step
(opponents' moves included); ``info`` holds, where an episode ended
(``info["_final"]``), ``final_observation`` (both seats' tensors of its
last state, ``(num_envs, 2, *shape)``), ``episode_return`` and
``episode_length``, and ``ready`` (all rows with ``sync=True``). Masks
are int8.
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


class _Seats:
    """One game's players, checked: its built-in bot (name and seat, or
    None), its Python opponent per seat, and which seats are learners."""

    def __init__(self, index: int, seats: Dict[int, Opponent]) -> None:
        if set(seats) - {0, 1}:
            raise tabletop.GameError(f"game {index}: seats are 0 and 1, not {sorted(seats)}")
        if len(seats) == 2:
            raise tabletop.GameError(f"game {index} has no learner seat")
        self.bot: Optional[str] = None
        self.bot_seat = 1
        self.python: List[Optional[Policy]] = [None, None]
        for seat, opponent in seats.items():
            if isinstance(opponent, str):
                self.bot, self.bot_seat = opponent, seat
            elif callable(opponent):
                self.python[seat] = opponent
            else:
                raise tabletop.GameError(
                    f"game {index} seat {seat}: an opponent is a bot name or a callable"
                )
        self.learners = [seat not in seats for seat in (0, 1)]


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
        sync: bool = True,
    ) -> None:
        self.sync = bool(sync)
        seats = [_Seats(i, s) for i, s in enumerate(_per_game(opponents, num_envs))]
        # Filled cell by cell: numpy would take a callable that has a length
        # (a torch module list) for a sequence.
        self._python = np.full((num_envs, 2), None, dtype=object)
        for i, s in enumerate(seats):
            self._python[i, 0], self._python[i, 1] = s.python
        self.learners = np.array([s.learners for s in seats], dtype=bool).reshape(num_envs, 2)
        self._any_python = bool((self._python != None).any())  # noqa: E711 (an object array)
        # set_opponent's Python side, for each game's next episode.
        self._pending: Dict[int, _Seats] = {}
        self.env = tabletop.VecEnv(
            game,
            num_envs,
            seed=seed,
            threads=threads,
            opponent=[s.bot for s in seats],
            opponent_seat=[s.bot_seat for s in seats],
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
            "ready": np.ones(num_envs, bool),
        }
        self._rows = np.arange(num_envs)

    @property
    def game(self) -> tabletop.Game:
        """The game."""
        return self.env.game

    def set_opponent(self, index: int, opponents: Optional[Dict[int, Opponent]]) -> None:
        """Game ``index``'s opponents (``{seat: opponent}`` as in the
        constructor; None: both seats learners) from its next episode on:
        the episode under way keeps its players, ``reset(rows=[index])``
        starts the next one now."""
        if not 0 <= index < self.num_envs:
            raise tabletop.GameError(f"no game {index} among {self.num_envs}")
        seats = _Seats(index, dict(opponents or {}))
        self.env.set_opponent(index, seats.bot, seat=seats.bot_seat)
        self._pending[index] = seats

    def _new_episodes(self, rows: np.ndarray) -> None:
        """Games ``rows`` (a boolean array) started a new episode: the
        opponents set for them take their seats."""
        if not self._pending:
            return
        for i in [i for i in self._pending if rows[i]]:
            seats = self._pending.pop(i)
            self._python[i, 0], self._python[i, 1] = seats.python
            self.learners[i] = seats.learners
        self._any_python = bool((self._python != None).any())  # noqa: E711

    def _bots_only(self) -> bool:
        """No Python opponent plays in the next step: none is seated, and
        none waits for a game's next episode (``set_opponent``)."""
        return not self._any_python and not self._pending

    def _gather(self, first: bool = False) -> None:
        """Adds the last (sub)step of the batch to this step's results;
        ``first``: the step's first, which replaces the last step's
        results (the same as zeroing then adding them, in fewer passes
        over the arrays: with built-in bots only it is the whole step)."""
        env = self.env
        info = self._info
        if first:
            np.copyto(self._rewards, env.rewards)
            np.copyto(self._terminated, env.terminated)
            np.copyto(self._truncated, env.truncated)
            ended = np.logical_or(self._terminated, self._truncated, out=info["_final"])
        else:
            self._rewards += env.rewards
            self._terminated |= env.terminated
            self._truncated |= env.truncated
            ended = env.terminated | env.truncated
            info["_final"] |= ended
        if ended.any():
            # Indices, not the flags: a few rows end in a step, and
            # gathering them by index is the cheaper pass.
            where = ended.nonzero()[0]
            info["final_observation"][where] = env.final_observations[where]
            info["episode_return"][where] = env.episode_returns[where]
            info["episode_length"][where] = env.episode_lengths[where]
            self._new_episodes(ended)

    def _play_opponents(self) -> None:
        """The Python opponents play, each on its whole batch at once,
        until a learner is to move in every game (``sync``), or once."""
        env = self.env
        ready = self._info["ready"]
        ready.fill(True)
        rounds = 0
        while self._any_python:
            who = self._python[self._rows, env.to_move]
            due = np.flatnonzero(who != None)  # noqa: E711 (an object array)
            if due.size == 0:
                return
            if not self.sync and rounds == 1:
                ready[due] = False
                return
            rounds += 1
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

    def _flags(self, rows: Any) -> np.ndarray:
        """``rows`` (flags or indices) as ``num_envs`` flags."""
        flags = np.asarray(rows)
        if flags.dtype == bool:
            if flags.shape != (self.num_envs,):
                raise tabletop.GameError(
                    f"rows holds {flags.size} flags, one per game ({self.num_envs}) needed"
                )
            return flags
        out = np.zeros(self.num_envs, bool)
        try:
            out[flags.astype(np.int64, casting="safe")] = True
        except (IndexError, TypeError) as e:
            raise tabletop.GameError(f"rows must be flags or game indices: {e}") from None
        return out

    def reset(self, seed: Optional[int] = None, rows: Any = None) -> Tuple[Any, ...]:
        """New episodes in every game (``seed`` seeds the batch anew), or
        the next episode of the games ``rows`` chooses (flags or indices;
        the others keep their decision); returns ``(observations, masks,
        rewards, terminated, truncated, to_move, info)``, learners to move
        everywhere."""
        self._start()
        if rows is None:
            self._new_episodes(np.ones(self.num_envs, bool))
            self.env.reset(seed=seed)
        else:
            flags = self._flags(rows)
            self._new_episodes(flags)
            self.env.reset(seed=seed, rows=flags)
        self._play_opponents()
        return self._results()

    def step(self, actions: Any, rows: Any = None) -> Tuple[Any, ...]:
        """Plays one action per game for the learner seat to move (in the
        games ``rows`` chooses only, if given: the others' actions are not
        read; with ``sync=False``, by default the rows ``info["ready"]``
        flags), then the opponents until learners are to move again (once,
        with ``sync=False``);
        returns what ``reset`` returns. The arrays are the environment's
        own, written in place by the next call."""
        if self.sync:
            flags = None if rows is None else self._flags(rows)
        else:
            ready = self._info["ready"]
            flags = ready.copy() if rows is None else self._flags(rows)
            if (flags & ~ready).any():
                raise tabletop.GameError(
                    f"games {np.flatnonzero(flags & ~ready).tolist()} wait on an opponent, "
                    "not a learner: step the rows info['ready'] flags"
                )
        self.env.step(actions, rows=flags)
        self._gather(first=True)
        self._play_opponents()
        return self._results()

    def state(self, index: int) -> tabletop.State:
        """A copy of game ``index``'s state."""
        return self.env.state(index)
