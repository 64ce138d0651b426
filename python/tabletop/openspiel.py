"""OpenSpiel adapter: every registered game and preset as a pyspiel Python game.

>>> import pyspiel, tabletop.openspiel
>>> names = tabletop.openspiel.register()
>>> game = pyspiel.load_game("tabletop_kuhn_poker_classic")

``register()`` registers ``tabletop_<game>_<preset>`` (``tabletop_<game>``
for a game without presets) for every game of ``tabletop.registered_games()``,
with OpenSpiel's ``GameType`` and ``GameInfo`` taken from the engine's
metadata. Every parameter of the game is a pyspiel parameter with its
default (``pyspiel.load_game("tabletop_kuhn_poker_classic(ante=2)")``).
Any OpenSpiel algorithm that accepts a Python game then runs on it: CFR,
exploitability, MCCFR, ISMCTS, MCTS, NFSP, PSRO, ...

Chance stays explicit (``EXPLICIT_STOCHASTIC``); the observation tensor is
the engine's (``Game.observation_tensor_shape()``, flattened), the
information-state string the engine's. The information-state tensor is the
observation tensor: an engine's information state is its player's
observation (what that player has seen and been told), the
information-state string names it exactly, and the tensor is the engine's
encoding of it. OpenSpiel's algorithms that learn from
``information_state_tensor`` (deep CFR, NFSP, policy gradients) therefore
run on every game.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Union

import numpy as np
import pyspiel

import tabletop

__all__ = ["register", "registered_names", "openspiel_name", "TabletopGame", "TabletopState"]

_REGISTERED: Dict[str, str] = {}

_CHANCE_MODES = {
    "explicit_stochastic": pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    "deterministic": pyspiel.GameType.ChanceMode.DETERMINISTIC,
}
_INFORMATION = {
    "imperfect": pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    "perfect": pyspiel.GameType.Information.PERFECT_INFORMATION,
}
_UTILITY = {
    "zero_sum": pyspiel.GameType.Utility.ZERO_SUM,
    "constant_sum": pyspiel.GameType.Utility.CONSTANT_SUM,
    "general_sum": pyspiel.GameType.Utility.GENERAL_SUM,
}


def openspiel_name(game: str, preset: Optional[str] = None) -> str:
    """The pyspiel short name of ``game``'s ``preset``: ``tabletop_<game>_<preset>``
    (letters, digits and underscores only)."""
    name = f"tabletop_{game}" + (f"_{preset}" if preset else "")
    return re.sub(r"[^A-Za-z0-9_]", "_", name).lower()


def _typed_default(text: str) -> Union[bool, int, float, str]:
    """A parameter default as written in a specification, as the pyspiel
    parameter type it reads as."""
    lower = text.lower()
    if lower in ("true", "false"):
        return lower == "true"
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def _spec_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _seed_from(sampler: Any) -> int:
    """A 63-bit seed from an OpenSpiel probability sampler (a callable
    returning a float in [0, 1)), an int, or a numpy generator."""
    if isinstance(sampler, (int, np.integer)):
        return int(sampler) & ((1 << 63) - 1)
    if isinstance(sampler, np.random.Generator):
        return int(sampler.integers(0, 1 << 63))
    if isinstance(sampler, np.random.RandomState):
        return int(sampler.randint(0, 1 << 62))
    if callable(sampler):
        return int(float(sampler()) * (1 << 53))
    raise TypeError("probability_sampler must be a callable, an int or a numpy generator")


class TabletopState(pyspiel.State):
    """A pyspiel state wrapping a ``tabletop.State``; made by
    ``TabletopGame.new_initial_state``."""

    def __init__(self, game: "TabletopGame", native: Optional[tabletop.State] = None) -> None:
        super().__init__(game)
        self._native: tabletop.State = (
            native if native is not None else game.native.new_initial_state()
        )

    @property
    def native(self) -> tabletop.State:
        """The wrapped ``tabletop.State``."""
        return self._native

    def current_player(self) -> int:
        """The seat to move, ``pyspiel.PlayerId.CHANCE`` or ``TERMINAL``."""
        return self._native.current_player()

    def _legal_actions(self, player: int) -> List[int]:
        """The legal action ids of ``player`` (the one to move)."""
        return self._native.legal_actions()

    def chance_outcomes(self) -> List[tuple]:
        """``(action, probability)`` pairs at a chance node."""
        return self._native.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        """Applies ``action``; an illegal one raises ``tabletop.IllegalActionError``."""
        self._native.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        """The action in the game's notation."""
        return self._native.action_to_string(action)

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._native.is_terminal()

    def returns(self) -> List[float]:
        """Both players' returns (zeros before the end)."""
        return self._native.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "TabletopState":
        """A state consistent with ``player_id``'s information, the hidden part
        drawn by the engine's determinisation from a seed taken from
        ``probability_sampler``. The new state's ``history()`` starts empty:
        the engines do not record the hidden chance outcomes of a world they
        make up."""
        native = self._native.resample_from_infostate(player_id, _seed_from(probability_sampler))
        return TabletopState(self.get_game(), native)

    def __deepcopy__(self, memo: dict) -> "TabletopState":
        return self.clone()

    def __str__(self) -> str:
        """The whole state, hidden parts included (for debugging)."""
        return str(self._native)


class TabletopObserver:
    """OpenSpiel's Python observer: the engine's observation tensor (with its
    named parts in ``dict``) for every observation type, with the
    observation string for the default type and the information-state
    string for ``perfect_recall=True`` (the module's docs say why one tensor
    serves both)."""

    def __init__(self, game: "TabletopGame", iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        self._perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        self._native_game = game.native
        self.dict: Dict[str, np.ndarray] = {}
        shape = game.native.observation_tensor_shape()
        self.tensor: np.ndarray = np.zeros(int(np.prod(shape)), np.float32)
        rest = shape[1:]
        for name, offset, length in game.native.observation_tensor_layout():
            view = self.tensor[offset : offset + length]
            if rest and length == int(np.prod(rest)):
                view = view.reshape(rest)
            self.dict[name] = view

    def set_from(self, state: TabletopState, player: int) -> None:
        """Writes ``player``'s observation tensor of ``state`` into ``tensor``."""
        state.native.write_observation_tensor(player, self.tensor)

    def string_from(self, state: TabletopState, player: int) -> str:
        """``player``'s information-state string (perfect recall) or
        observation string."""
        if self._perfect_recall:
            return state.native.information_state_string(player)
        return state.native.observation_string(player)


class TabletopGame(pyspiel.Game):
    """A pyspiel Python game wrapping a ``tabletop.Game``. Subclassed per
    preset by ``register``; not made directly."""

    _game_type: Any = None
    _base_spec: str = ""
    _preset_key: Optional[str] = None
    _preset: Optional[str] = None
    _defaults: Dict[str, Any] = {}

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        params = dict(params or {})
        changed = [
            f"{k}={_spec_text(v)}"
            for k, v in params.items()
            if k in self._defaults and v != self._defaults[k]
        ]
        parts = ([f"{self._preset_key}={self._preset}"] if self._preset_key else []) + changed
        spec = self._base_spec + (f"({','.join(parts)})" if parts else "")
        self._native = tabletop.load_game(spec)
        # Parameters can change the sizes and bounds: OpenSpiel is told
        # those of the rules actually loaded.
        super().__init__(self._game_type, _game_info(self._native), params)

    @property
    def native(self) -> tabletop.Game:
        """The wrapped ``tabletop.Game``."""
        return self._native

    def new_initial_state(self) -> TabletopState:
        """A new game at its start (a chance node where the game deals)."""
        return TabletopState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> TabletopObserver:
        """OpenSpiel's observer for ``iig_obs_type`` (see ``TabletopObserver``)."""
        return TabletopObserver(self, iig_obs_type, params)


def _game_info(native: tabletop.Game) -> Any:
    """OpenSpiel's ``GameInfo`` of ``native``."""
    info = native.info()
    return pyspiel.GameInfo(
        num_distinct_actions=info["num_distinct_actions"],
        max_chance_outcomes=native.max_chance_outcomes(),
        num_players=info["num_players"],
        min_utility=info["min_utility"],
        max_utility=info["max_utility"],
        utility_sum=info["utility_sum"],
        max_game_length=info["max_game_length"],
    )


def _register_one(short_name: str, spec: str, base: str, listing: Any, preset: Optional[str]) -> None:
    native = tabletop.load_game(spec)
    info = native.info()
    defaults = {p.name: _typed_default(p.default) for p in listing.parameters}
    game_type = pyspiel.GameType(
        short_name=short_name,
        long_name=f"tabletop {native.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=_CHANCE_MODES[info["chance_mode"]],
        information=_INFORMATION[info["information"]],
        utility=_UTILITY[info["utility"]],
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info["num_players"],
        min_num_players=info["num_players"],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=defaults,
    )
    cls = type(
        f"TabletopGame_{short_name}",
        (TabletopGame,),
        {
            "_game_type": game_type,
            "_base_spec": base,
            "_preset_key": listing.preset_key if preset else None,
            "_preset": preset,
            "_defaults": defaults,
            "__doc__": f"{native.name} as a pyspiel game ({listing.doc}).",
        },
    )
    pyspiel.register_game(game_type, cls)
    _REGISTERED[short_name] = spec


def register() -> List[str]:
    """Registers every game and preset of ``tabletop.registered_games()`` with
    pyspiel (once per process; later calls change nothing) and returns their
    pyspiel names, ``tabletop_<game>_<preset>``."""
    for listing in tabletop.registered_games():
        presets = listing.presets or []
        if not presets:
            name = openspiel_name(listing.name)
            if name not in _REGISTERED:
                _register_one(name, listing.name, listing.name, listing, None)
        for preset in presets:
            name = openspiel_name(listing.name, preset.name)
            if name not in _REGISTERED:
                _register_one(name, preset.spec, listing.name, listing, preset.name)
    return sorted(_REGISTERED)


def registered_names() -> Dict[str, str]:
    """The pyspiel names registered so far, each with its tabletop
    specification."""
    return dict(_REGISTERED)

