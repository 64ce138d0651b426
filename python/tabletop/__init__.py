"""tabletop: exact, fast rules engines (Battle Line, Stratego, a card war
game, and Kuhn poker as a small test game) for learning and game-theory
code, in OpenSpiel's vocabulary.

>>> import tabletop
>>> game = tabletop.load_game("kuhn_poker")
>>> state = game.new_initial_state()
>>> state.current_player() == tabletop.CHANCE_PLAYER
True

The compiled core is :mod:`tabletop._tabletop`; this package re-exports it.
The adapters are submodules imported on demand, so that their frameworks
stay optional: :mod:`tabletop.openspiel` (``register()`` for ``pyspiel``),
:mod:`tabletop.pettingzoo` (AEC environments), :mod:`tabletop.gymnasium`
(single-agent environments against an opponent), :mod:`tabletop.vector`
(``MultiAgentVecEnv``: self-play and opponents on one batch),
:mod:`tabletop.spaces` (observation planes with their real shapes), and
the frameworks' vector environments over the Rust batch:
:mod:`tabletop.gymnasium_vector` (``gymnasium.make_vec``),
:mod:`tabletop.sb3` (SB3's ``VecEnv``) and :mod:`tabletop.pufferlib`
(a native ``PufferEnv``), all three on :mod:`tabletop.learner_batch`.
``VecEnv`` is the batched environment on every core. Where Gymnasium is
installed, importing this package registers a Gymnasium id for every game
and preset (:mod:`tabletop.registration`). See docs/python.md.
"""

import importlib.util as _importlib_util

from tabletop._tabletop import (
    CHANCE_PLAYER,
    TERMINAL_PLAYER,
    Bot,
    BotError,
    Game,
    GameError,
    GameListing,
    GameSpecError,
    IllegalActionError,
    InternalError,
    InvalidStateError,
    Parameter,
    Preset,
    State,
    VecEnv,
    __version__,
    deserialize_state,
    load_game,
    registered_games,
    registered_specs,
)

__all__ = [
    "CHANCE_PLAYER",
    "TERMINAL_PLAYER",
    "Bot",
    "BotError",
    "Game",
    "GameError",
    "GameListing",
    "GameSpecError",
    "IllegalActionError",
    "InternalError",
    "InvalidStateError",
    "Parameter",
    "Preset",
    "State",
    "VecEnv",
    "__version__",
    "deserialize_state",
    "load_game",
    "registered_games",
    "registered_specs",
]

# Gymnasium packages register their ids on import: `gymnasium.make` (and
# `make("tabletop:ID")`, which imports this package first) then finds them.
if _importlib_util.find_spec("gymnasium") is not None:
    from tabletop.registration import register_gymnasium as _register_gymnasium

    _register_gymnasium()
