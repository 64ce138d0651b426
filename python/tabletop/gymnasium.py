"""Gymnasium adapter: one seat of a registered game against an opponent.

>>> from tabletop.gymnasium import TabletopEnv
>>> env = TabletopEnv("kuhn_poker", seat=0, opponent="random")
>>> obs, info = env.reset(seed=0)
>>> obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))

Every game and preset is known to ``gymnasium.make`` once ``tabletop`` is
imported (:mod:`tabletop.registration`):
``gymnasium.make("tabletop/kuhn_poker_classic-v0", seat=1, opponent="ismcts:100")``.

The observation is the learner's float32 observation tensor (computed from
that seat's observation alone); the legal actions are in
``info["action_mask"]`` and ``action_masks()`` (as masked-PPO
implementations ask), int8 as every mask of the package. The opponent is a
bot of ``Game.make_bot`` (``random``, ``flat:N``, ``ismcts:N``,
``heuristic``), or a Python callable ``f(observations, masks) -> actions``
called on a batch of one (a policy, or a frozen copy of the learner:
:func:`tabletop.vector.frozen`); ``set_opponent`` swaps it from the next
``reset``. The bot and the chance events draw from generators seeded by
``reset(seed=...)``. :mod:`tabletop.gymnasium_vector` is the same
environment over a whole batch (``gymnasium.make_vec``). The reward is
the learner's return, given when the game ends. ``observation="dict"``
gives the tensor's planes with their real shapes instead
(``tabletop.spaces.split``: Stratego's board ``(54, 10, 10)``).
``mask_in_observation=True`` makes the observation
``{"observation": ..., "action_mask": int8}``, for frameworks that carry
only observations through their vectorisation (PufferLib's emulation);
``observation_key`` renames the tensor's key (``"observations"`` is what
RLlib's action-masking module reads). ``actions="decisions"`` makes the
action space the game's decision ids only (``Game.decision_ids()``: 27 of
card war's 68 ids are decisions, the rest chance outcomes): action ``k``
is ``decision_ids()[k]``, and the masks have one entry per decision.

An action outside the legal ones is, by default (``illegal_action="lose"``),
the end of the episode with the lowest return of the game as reward and
``info["illegal_action"] = True`` (what Gymnasium's checker and unmasked
agents need); ``illegal_action="raise"`` raises
``tabletop.IllegalActionError`` instead.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple, Union

import gymnasium
import numpy as np

import tabletop
from tabletop import spaces
from tabletop.registration import env_id, register_gymnasium
from tabletop.vector import Policy

# The encodings write finite float32 values (the engines' contract), with
# ranges per game documented in docs/learning.md: the space is every
# finite float32.
_FINITE = float(np.finfo(np.float32).max)

__all__ = ["TabletopEnv", "action_count", "observation_space", "register", "env_id"]


def action_count(game: tabletop.Game, actions: str = "all") -> int:
    """The size of the learner's action space: every id (``"all"``), or
    the decision ids only (``"decisions"``, ``Game.decision_ids()``)."""
    if actions not in ("all", "decisions"):
        raise ValueError('actions must be "all" or "decisions"')
    return game.num_distinct_actions() if actions == "all" else len(game.decision_ids())


def observation_space(
    game: tabletop.Game,
    observation: str = "flat",
    mask_in_observation: bool = False,
    observation_key: str = "observation",
    actions: str = "all",
) -> gymnasium.spaces.Space:
    """The space of one learner's observations (see the module docstring):
    the flat tensor, or its planes (``observation="dict"``), under
    ``observation_key`` with the mask beside it under ``action_mask`` if
    ``mask_in_observation``."""
    if observation not in ("flat", "dict"):
        raise ValueError('observation must be "flat" or "dict"')
    if observation_key == "action_mask":
        raise ValueError('observation_key cannot be "action_mask"')
    space: gymnasium.spaces.Space = (
        spaces.dict_space(game)
        if observation == "dict"
        else gymnasium.spaces.Box(
            low=-_FINITE,
            high=_FINITE,
            shape=tuple(game.observation_tensor_shape()),
            dtype=np.float32,
        )
    )
    if not mask_in_observation:
        return space
    mask = gymnasium.spaces.Box(low=0, high=1, shape=(action_count(game, actions),), dtype=np.int8)
    return gymnasium.spaces.Dict({observation_key: space, "action_mask": mask})


class TabletopEnv(gymnasium.Env):
    """A single-agent Gymnasium environment: the learner plays ``seat``,
    ``opponent`` the other seat (see the module docstring)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        game: Union[str, tabletop.Game] = "kuhn_poker",
        seat: int = 0,
        opponent: Union[str, Policy] = "random",
        illegal_action: str = "lose",
        max_moves: Optional[int] = None,
        render_mode: Optional[str] = None,
        observation: str = "flat",
        mask_in_observation: bool = False,
        observation_key: str = "observation",
        actions: str = "all",
    ) -> None:
        self.game: tabletop.Game = tabletop.load_game(game) if isinstance(game, str) else game
        if seat not in (0, 1):
            raise tabletop.GameError(f"seat {seat} is not 0 or 1")
        if illegal_action not in ("lose", "raise"):
            raise ValueError('illegal_action must be "lose" or "raise"')
        self.observation = observation
        self.mask_in_observation = mask_in_observation
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.seat = seat
        self.opponent: Union[str, Policy] = "random"
        self.set_opponent(opponent)
        self.illegal_action = illegal_action
        self.max_moves = max_moves
        self.render_mode = render_mode
        self.observation_space = observation_space(
            self.game, observation, mask_in_observation, observation_key, actions
        )
        self.observation_key = observation_key
        self.action_space = gymnasium.spaces.Discrete(action_count(self.game, actions))
        self._ids = np.array(self.game.decision_ids()) if actions == "decisions" else None
        self.state: Optional[tabletop.State] = None
        self._bot: Optional[tabletop.Bot] = None
        self._policy: Optional[Policy] = None
        self._moves = 0

    def set_opponent(self, opponent: Union[str, Policy]) -> None:
        """The opponent from the next ``reset`` on: a bot name or a Python
        callable ``f(observations, masks) -> actions`` (called on a batch of
        one: the opponent's tensor and int8 mask, each with a leading axis
        of 1), such as a frozen copy of the learner
        (:func:`tabletop.vector.frozen`)."""
        if isinstance(opponent, str):
            # Made once now so that a bad bot name fails here, not at reset.
            self.game.make_bot(opponent, 0)
        elif not callable(opponent):
            raise tabletop.GameError("an opponent is a bot name or a callable")
        self.opponent = opponent

    def _opponent_action(self) -> int:
        assert self.state is not None
        if self._bot is not None:
            return self._bot.step(self.state)
        other = 1 - self.seat
        obs = self.state.observation_tensor(other)[None]
        mask = self.state.legal_actions_mask(other)[None]
        assert callable(self._policy)
        return int(np.asarray(self._policy(obs, mask)).reshape(-1)[0])

    def _seed(self) -> int:
        return int(self.np_random.integers(0, 1 << 63))

    def _advance(self) -> None:
        """Chance events and the bot's decisions until the learner decides
        or the game ends."""
        assert self.state is not None
        while True:
            player = self.state.current_player()
            if player == tabletop.CHANCE_PLAYER:
                self.state.play_chance(self._seed())
            elif player == 1 - self.seat:
                self.state.apply_action(self._opponent_action())
            else:
                return

    def _observation(self) -> Any:
        assert self.state is not None
        tensor = self.state.observation_tensor(self.seat)
        obs = spaces.split(self.game, tensor) if self.observation == "dict" else tensor
        if self.mask_in_observation:
            return {self.observation_key: obs, "action_mask": self.action_masks()}
        return obs

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as an int8 mask (all 0 once the
        game is over)."""
        assert self.state is not None, "call reset() first"
        mask = self.state.legal_actions_mask(self.seat)
        return mask if self._ids is None else mask[self._ids]

    def _info(self, **extra: Any) -> Dict[str, Any]:
        info: Dict[str, Any] = {"action_mask": self.action_masks()}
        info.update(extra)
        return info

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict] = None
    ) -> Tuple[Any, Dict[str, Any]]:
        """Starts a new game; ``seed`` seeds chance and the bot."""
        super().reset(seed=seed)
        self.state = self.game.new_initial_state()
        bot_seed = self._seed()
        if isinstance(self.opponent, str):
            self._bot, self._policy = self.game.make_bot(self.opponent, bot_seed), None
        else:
            self._bot, self._policy = None, self.opponent
        self._moves = 0
        self._advance()
        return self._observation(), self._info()

    def step(self, action: Any) -> Tuple[Any, float, bool, bool, Dict[str, Any]]:
        """Plays the learner's ``action``, then chance and the bot until the
        learner decides again or the game ends."""
        assert self.state is not None, "call reset() first"
        action = int(action)
        if self.state.is_terminal():
            raise tabletop.GameError("the episode is over: call reset()")
        reason = None
        if not 0 <= action < self.action_space.n:
            reason = f"action id {action} is outside the action space"
        else:
            if self._ids is not None:
                action = int(self._ids[action])
            reason = self.state.illegal_reason(action)
        if reason is not None:
            if self.illegal_action == "raise":
                raise tabletop.IllegalActionError(reason)
            return (
                self._observation(),
                float(self.game.min_utility()),
                True,
                False,
                self._info(illegal_action=True, reason=reason),
            )
        self.state.apply_action(action)
        self._moves += 1
        self._advance()
        terminated = self.state.is_terminal()
        truncated = (
            not terminated and self.max_moves is not None and self._moves >= self.max_moves
        )
        reward = float(self.state.returns()[self.seat]) if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, self._info()

    def render(self) -> Optional[str]:
        """The whole state as text, hidden parts included (for a human
        watching): returned in ``ansi`` mode, printed in ``human`` mode."""
        if self.state is None:
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def register() -> List[str]:
    """Registers every game and preset with ``gymnasium.make`` and returns
    their ids (``import tabletop`` already did; calling it again changes
    nothing): :func:`tabletop.registration.register_gymnasium`."""
    return register_gymnasium()
