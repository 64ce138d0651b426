"""Type stubs of tabletop's compiled core (re-exported by ``tabletop``)."""

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str
CHANCE_PLAYER: int
"""OpenSpiel's marker of a chance node: -1."""
TERMINAL_PLAYER: int
"""OpenSpiel's marker of a finished game: -4."""

class GameError(ValueError):
    """Base class of every error the engines raise."""

class IllegalActionError(GameError):
    """The engine refused an action, or an id or wire struct named none;
    the state is unchanged."""
    action_id: Optional[int]
    """The refused action's id; None when the action named none."""
    action: Optional[str]
    """The refused action in the game's notation; None when it named none."""
    reason: Optional[str]
    """The engine's reason for refusing it; None when it named none."""

class GameSpecError(GameError):
    """A game name, parameter, value or bot name that was refused."""

class InvalidStateError(GameError):
    """A serialised state or an observation the engine refused."""

class BotError(GameError):
    """A bot failed to decide."""
    bot: str
    """The bot's name."""
    failure: str
    """What failed: spawn, timeout, exited, garbage, illegal, write,
    no_decision, wrong_game or other."""

class InternalError(RuntimeError):
    """A failure of the engine's side, not of the caller's input: a bug to report."""

def load_game(spec: str) -> Game:
    """A game by name with parameters: ``load_game("kuhn_poker(variant=high)")``."""

def registered_games() -> List[GameListing]:
    """Every registered game with its presets and parameters."""

def registered_specs() -> List[str]:
    """The specification of every preset of every registered game."""

def deserialize_state(data: str) -> State:
    """A state from ``State.serialize()``."""

class Preset:
    """A named rule set of a game."""
    name: str
    title: str
    differences: str
    doc: str
    spec: str

class Parameter:
    """A parameter of a game with its default."""
    name: str
    default: str
    doc: str

class GameListing:
    """A registered game."""
    name: str
    title: str
    doc: str
    preset_key: Optional[str]
    presets: List[Preset]
    parameters: List[Parameter]

class Game:
    """A game under one rule set (OpenSpiel's ``Game``)."""
    @property
    def name(self) -> str:
        """The canonical specification."""
    @property
    def short_name(self) -> str:
        """The engine's stable name."""
    def new_initial_state(self) -> State:
        """A new game at its start."""
    def num_distinct_actions(self) -> int:
        """Size of the action-id space."""
    def decision_ids(self) -> list[int]:
        """The ids of the players' decisions, ascending: the action space
        without its chance outcomes."""
    def max_chance_outcomes(self) -> int:
        """Bound on chance-outcome ids (the same space)."""
    def num_players(self) -> int:
        """2."""
    def min_utility(self) -> float:
        """Lowest return."""
    def max_utility(self) -> float:
        """Highest return."""
    def utility_sum(self) -> float:
        """What the returns add up to."""
    def max_game_length(self) -> int:
        """Most actions, chance included, of any game."""
    def observation_tensor_shape(self) -> List[int]:
        """The observation tensor's shape."""
    def observation_tensor_size(self) -> int:
        """Values in one observation tensor."""
    def observation_tensor_planes(self) -> List[Dict[str, Any]]:
        """Each plane's ``name``, ``offset``, ``length``, ``stack`` (or
        ``None``) and ``dims`` (its real shape, or ``None``)."""
    def observation_tensor_layout(self) -> List[Tuple[str, int, int]]:
        """The tensor's named parts: (name, offset, length)."""
    def info(self) -> Dict[str, Any]:
        """The metadata (GameType and GameInfo) as a dict."""
    def rules_json(self) -> str:
        """The rules as JSON."""
    def legend(self) -> str:
        """What the codes of the text rendering mean."""
    def action_to_string(self, action: int) -> str:
        """The action in the game's notation."""
    def deserialize_state(self, data: str) -> State:
        """A state of this game from ``serialize()`` or bare JSON."""
    def make_bot(self, spec: str, seed: int = 0) -> Bot:
        """A built-in bot: random, flat[:N], ismcts[:N], heuristic."""
    def __reduce__(self) -> Tuple[Any, ...]: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class State:
    """A game in progress (OpenSpiel's ``State``)."""
    def get_game(self) -> Game:
        """The game of this state."""
    def current_player(self) -> int:
        """The seat to move, CHANCE_PLAYER (-1) or TERMINAL_PLAYER (-4)."""
    def is_terminal(self) -> bool:
        """Whether the game is over."""
    def is_chance_node(self) -> bool:
        """Whether a chance event is due."""
    def is_player_node(self) -> bool:
        """Whether a player decides now."""
    def legal_actions(self, player: Optional[int] = None) -> List[int]:
        """The legal action ids now, sorted."""
    def legal_actions_mask(self, player: Optional[int] = None) -> npt.NDArray[np.int8]:
        """The legal actions as an int8 mask (1: legal) over the action space."""
    def chance_outcomes(self) -> List[Tuple[int, float]]:
        """(action, probability) pairs at a chance event."""
    def apply_action(self, action: int) -> None:
        """Applies an action; IllegalActionError (state unchanged) if illegal."""
    def illegal_reason(self, action: int) -> Optional[str]:
        """Why the action is illegal now, None if legal."""
    def play_chance(self, seed: int) -> int:
        """Plays the chance events now due from a seeded generator."""
    def sample_chance_outcome(self, seed: int) -> Optional[int]:
        """A chance outcome drawn from a seeded generator."""
    def random_legal_action(self, seed: int) -> Optional[int]:
        """A uniformly random legal decision from a seeded generator."""
    def observation_tensor(self, player: Optional[int] = None) -> npt.NDArray[np.float32]:
        """The player's observation tensor, of the game's shape."""
    def write_observation_tensor(self, player: int, out: npt.NDArray[np.float32]) -> None:
        """Writes the player's observation tensor into a float32 array."""
    def information_state_string(self, player: Optional[int] = None) -> str:
        """The player's information-state string."""
    def observation_string(self, player: Optional[int] = None) -> str:
        """The player's observation as text."""
    def observation_json(self, player: Optional[int] = None) -> str:
        """The player's observation as the engine's JSON (what determinisation reads back)."""
    def observation_struct(self, player: Optional[int] = None) -> Dict[str, Any]:
        """The player's observation as its wire struct: a dict of named fields (docs/wire.md)."""
    def legal_action_structs(self) -> List[Dict[str, Any]]:
        """The legal actions as dicts ``{"id", "text", "action"}``, ``action`` the wire struct."""
    def action_struct(self, action: int) -> Dict[str, Any]:
        """The action as its wire struct, a dict tagged by ``"type"``."""
    def action_from_struct(self, action: Dict[str, Any]) -> int:
        """The id of the action a wire struct names; IllegalActionError if it names none."""
    def resample_from_infostate(self, player: int, seed: int) -> State:
        """A state consistent with the player's observation (determinisation)."""
    def action_to_string(self, player_or_action: int, action: Optional[int] = None) -> str:
        """The action in the game's notation."""
    def action_view(self, viewer: int, action: int) -> str:
        """The action as the viewer perceives it."""
    def events(self, viewer: int, action: int) -> List[Dict[str, Any]]:
        """What the legal action shows the viewer, as wire structs tagged by ``"kind"`` (docs/wire.md, "Events")."""
    def narrate(self, viewer: int, action: int) -> str:
        """The same events in words, as the terminal and the server's ``told`` say them."""
    def returns(self) -> List[float]:
        """Both players' returns."""
    def rewards(self) -> List[float]:
        """The rewards of the last action (the returns at the end)."""
    def player_return(self, player: int) -> float:
        """One player's return."""
    def winner(self) -> Optional[int]:
        """The winner's seat at the end, None otherwise."""
    def move_number(self) -> int:
        """Player decisions so far."""
    def clone(self) -> State:
        """An independent copy."""
    def serialize(self) -> str:
        """Text that deserialize_state reads back."""
    def to_json(self) -> str:
        """The whole state as JSON."""
    def __copy__(self) -> State: ...
    def __deepcopy__(self, memo: Any) -> State: ...
    def __reduce__(self) -> Tuple[Any, ...]: ...

class Bot:
    """A built-in bot of one game."""
    @property
    def name(self) -> str:
        """The bot's name."""
    def step(self, state: State) -> int:
        """The bot's action for the player to move."""

class VecEnv:
    """num_envs games stepped together on every core, buffers in place."""
    def __init__(
        self,
        game: Union[str, Game],
        num_envs: int,
        seed: int = 0,
        threads: int = 0,
        opponent: Union[None, str, Sequence[Optional[str]]] = None,
        opponent_seat: Union[None, int, Sequence[int]] = None,
        max_steps: Optional[int] = None,
        observations: bool = True,
        masks: bool = True,
    ) -> None: ...
    @property
    def game(self) -> Game:
        """The game."""
    @property
    def num_envs(self) -> int:
        """Number of games."""
    @property
    def threads(self) -> int:
        """Worker threads asked for (0: every core)."""
    @property
    def action_space(self) -> int:
        """Size of one mask row."""
    @property
    def observation_shape(self) -> List[int]:
        """Shape of one observation tensor."""
    @property
    def observations(self) -> Optional[npt.NDArray[np.float32]]:
        """(num_envs, *observation_shape) float32."""
    @property
    def masks(self) -> Optional[npt.NDArray[np.int8]]:
        """(num_envs, action_space) int8, 1 where legal."""
    @property
    def rewards(self) -> npt.NDArray[np.float32]:
        """(num_envs, 2) float32."""
    @property
    def terminated(self) -> npt.NDArray[np.bool_]:
        """(num_envs,) bool."""
    @property
    def truncated(self) -> npt.NDArray[np.bool_]:
        """(num_envs,) bool."""
    @property
    def to_move(self) -> npt.NDArray[np.uint8]:
        """(num_envs,) uint8."""
    @property
    def final_observations(self) -> Optional[npt.NDArray[np.float32]]:
        """(num_envs, 2, *observation_shape) float32: both seats' last tensors where an episode ended."""
    @property
    def episode_returns(self) -> npt.NDArray[np.float32]:
        """(num_envs, 2) float32: returns where an episode ended, else 0."""
    @property
    def episode_lengths(self) -> npt.NDArray[np.uint32]:
        """(num_envs,) uint32: steps where an episode ended, else 0."""
    @property
    def actions(self) -> npt.NDArray[np.int64]:
        """(num_envs,) int64: what random_actions writes."""
    def reset(
        self, seed: Optional[int] = None, rows: Union[None, npt.NDArray[np.bool_], Sequence[int]] = None
    ) -> Tuple[Any, Any, Any, Any, Any, Any]:
        """New episodes; (observations, masks, rewards, terminated, truncated, to_move)."""
    def step(
        self,
        actions: Union[npt.NDArray[np.integer], Sequence[int]],
        rows: Union[None, npt.NDArray[np.bool_], Sequence[int]] = None,
    ) -> Tuple[Any, Any, Any, Any, Any, Any]:
        """One action per game; the same arrays as reset, written in place."""
    def set_state(self, index: int, state: State) -> None:
        """Game index goes on from a copy of state."""
    def set_opponent(self, index: int, opponent: Optional[str], seat: int = 1) -> None:
        """A built-in bot for game index from its next episode on."""
    def opponent_seat(self, index: int) -> Optional[int]:
        """The seat game index's built-in bot plays this episode."""
    def random_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per game, from the masks."""
    def state(self, index: int) -> State:
        """A copy of one game's state."""
    def __len__(self) -> int: ...
