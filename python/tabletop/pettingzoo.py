"""PettingZoo adapter: any registered game as an AEC (turn-based) environment.

>>> from tabletop.pettingzoo import env
>>> e = env("kuhn_poker")
>>> e.reset(seed=1)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

``game`` is a specification (``"stratego(variant=czech)"``), a
``tabletop.Game``, or one of the ids Gymnasium knows the presets by
(``"tabletop/stratego_czech-v0"``, :mod:`tabletop.registration`).

Agents are ``player_0`` and ``player_1`` (the engine's seats 0 and 1).
Each observation is a dict: ``"observation"``, the agent's float32
observation tensor (computed from that agent's observation alone), and
``"action_mask"``, an int8 mask over ``Discrete(num_distinct_actions)``
that is all zeros unless the agent is to move. Chance events (deals,
draws) are played inside the environment from its generator, seeded by
``reset(seed=...)``. Rewards come at the end: each agent's return.

An illegal action follows PettingZoo's convention for masked games (its
classic environments' ``TerminateIllegalWrapper``): by default
(``illegal_action="lose"``) the agent that played it loses, with the
game's lowest return and the other agent its highest, the episode ends
and ``infos[agent]["illegal_action"]`` is True, so that a framework's own
check sampling an unmasked action (RLlib's) never makes the environment
raise; ``illegal_action="raise"`` raises ``tabletop.IllegalActionError``
and changes nothing. ``observation_key`` renames the tensor's key
(``"observations"`` is what RLlib's action-masking module reads).
``max_moves`` truncates an episode after that many decisions.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Union

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import tabletop
from tabletop.registration import spec_of

# The encodings write finite float32 values (the engines' contract), with
# ranges per game documented in docs/learning.md: the space is every
# finite float32.
_FINITE = float(np.finfo(np.float32).max)

__all__ = ["TabletopAECEnv", "env", "raw_env"]


def _agent(seat: int) -> str:
    return f"player_{seat}"


class TabletopAECEnv(AECEnv):
    """A registered game as a PettingZoo AEC environment (see the module
    docstring). ``game`` is a ``tabletop.Game`` or a specification."""

    metadata = {"render_modes": ["ansi", "human"], "name": "tabletop_v0", "is_parallelizable": False}

    def __init__(
        self,
        game: Union[str, tabletop.Game] = "kuhn_poker",
        render_mode: Optional[str] = None,
        max_moves: Optional[int] = None,
        illegal_action: str = "lose",
        observation_key: str = "observation",
    ) -> None:
        super().__init__()
        if illegal_action not in ("lose", "raise"):
            raise ValueError('illegal_action must be "lose" or "raise"')
        if observation_key == "action_mask":
            raise ValueError('observation_key cannot be "action_mask"')
        self.illegal_action = illegal_action
        self.observation_key = observation_key
        self.game: tabletop.Game = (
            tabletop.load_game(spec_of(game)) if isinstance(game, str) else game
        )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.max_moves = max_moves
        self.metadata = dict(self.metadata, name=f"tabletop_{self.game.name}_v0")
        self.possible_agents: List[str] = [_agent(0), _agent(1)]
        shape = tuple(self.game.observation_tensor_shape())
        space = self.game.num_distinct_actions()
        self._observation_spaces = {
            a: gymnasium.spaces.Dict(
                {
                    observation_key: gymnasium.spaces.Box(
                        low=-_FINITE, high=_FINITE, shape=shape, dtype=np.float32
                    ),
                    "action_mask": gymnasium.spaces.Box(
                        low=0, high=1, shape=(space,), dtype=np.int8
                    ),
                }
            )
            for a in self.possible_agents
        }
        self._action_spaces = {a: gymnasium.spaces.Discrete(space) for a in self.possible_agents}
        self.state: Optional[tabletop.State] = None
        self._np_random: Optional[np.random.Generator] = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        """The (fixed) observation space of ``agent``."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        """``Discrete(num_distinct_actions)``; legal ids in the action mask."""
        return self._action_spaces[agent]

    def _chance_seed(self) -> int:
        assert self._np_random is not None
        return int(self._np_random.integers(0, 1 << 63))

    def _settle(self) -> None:
        """Plays chance events until a player decides or the game ends, and
        points ``agent_selection`` at the player to move."""
        assert self.state is not None
        while self.state.is_chance_node():
            self.state.play_chance(self._chance_seed())
        player = self.state.current_player()
        if player >= 0:
            self.agent_selection = _agent(player)

    def reset(self, seed: Optional[int] = None, options: Optional[dict] = None) -> None:
        """Starts a new game; ``seed`` seeds the chance events."""
        if seed is not None or self._np_random is None:
            self._np_random = np.random.default_rng(seed)
        self.state = self.game.new_initial_state()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self._moves = 0
        self.agent_selection = self.agents[0]
        self._settle()

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        """``agent``'s observation tensor and action mask."""
        assert self.state is not None, "call reset() first"
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.game.num_distinct_actions(), np.int8)
        if self.state.current_player() == seat:
            mask[:] = self.state.legal_actions_mask()
        return {self.observation_key: self.state.observation_tensor(seat), "action_mask": mask}

    def step(self, action: Optional[int]) -> None:
        """Plays ``action`` for ``agent_selection`` (``None`` once it is
        done). An illegal action loses the game, or raises with
        ``illegal_action="raise"`` (see the module docstring)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state is not None
        self._cumulative_rewards[agent] = 0.0
        if self.illegal_action == "lose" and self.state.illegal_reason(int(action)) is not None:
            self._lose(agent)
            return
        self.state.apply_action(int(action))
        self._moves += 1
        self.rewards = {a: 0.0 for a in self.agents}
        self._settle()
        if self.state.is_terminal():
            returns = self.state.returns()
            self.rewards = {_agent(i): float(r) for i, r in enumerate(returns)}
            self.terminations = {a: True for a in self.agents}
        elif self.max_moves is not None and self._moves >= self.max_moves:
            self.truncations = {a: True for a in self.agents}
        if self.state.is_terminal() or self.truncations[agent]:
            # Both are done: the dead steps start with the other agent.
            self.agent_selection = self.possible_agents[1 - self.possible_agents.index(agent)]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _lose(self, agent: str) -> None:
        """Ends the game: ``agent`` played an illegal action."""
        worst, best = float(self.game.min_utility()), float(self.game.max_utility())
        self.rewards = {a: worst if a == agent else best for a in self.agents}
        self.terminations = {a: True for a in self.agents}
        self.infos[agent] = {"illegal_action": True}
        self.agent_selection = self.possible_agents[1 - self.possible_agents.index(agent)]
        self._accumulate_rewards()

    def render(self) -> Optional[str]:
        """The whole state as text, hidden parts included (for a human
        watching, not for a player): returned in ``ansi`` mode, printed in
        ``human`` mode."""
        if self.state is None:
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def raw_env(game: Union[str, tabletop.Game] = "kuhn_poker", **kwargs: Any) -> TabletopAECEnv:
    """The environment without PettingZoo's checking wrappers."""
    return TabletopAECEnv(game, **kwargs)


def env(game: Union[str, tabletop.Game] = "kuhn_poker", **kwargs: Any) -> AECEnv:
    """The environment wrapped as PettingZoo's own environments are (order
    enforcing, actions inside the space)."""
    e: AECEnv = raw_env(game, **kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e
