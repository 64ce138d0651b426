//! The OpenSpiel-style game API: `load_game`, `Game`, `State`, `Bot` and
//! the registry's listing.

use std::sync::{Arc, Mutex};

use game_env::{BotSpec, DynGame, DynState, Opponent};
use game_traits::rand::SeedableRng;
use game_traits::{ChanceMode, GameRng, Information, PlayerId, Turn, Utility};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use crate::errors::{to_py, GameError, GameSpecError, IllegalActionError, InvalidStateError};
use crate::games;
use crate::state::State;

/// OpenSpiel's marker of a chance node (`pyspiel.PlayerId.CHANCE`).
pub const CHANCE_PLAYER: i64 = -1;
/// OpenSpiel's marker of a terminal state (`pyspiel.PlayerId.TERMINAL`).
pub const TERMINAL_PLAYER: i64 = -4;

/// The seat `p` (0 or 1), or a `GameError`.
pub(crate) fn seat(p: i64) -> PyResult<PlayerId> {
    usize::try_from(p)
        .ok()
        .and_then(PlayerId::from_index)
        .ok_or_else(|| GameError::new_err(format!("player {p} is not 0 or 1")))
}

/// An action id as the engine takes it, or an `IllegalActionError`.
pub(crate) fn action_id(game: &dyn DynGame, a: i64) -> PyResult<usize> {
    let space = game.info().action_space;
    usize::try_from(a)
        .ok()
        .filter(|&id| id < space)
        .ok_or_else(|| {
            IllegalActionError::new_err(format!(
                "action id {a} is outside the action space of {space}"
            ))
        })
}

pub(crate) fn turn_marker(turn: Turn) -> i64 {
    match turn {
        Turn::Chance => CHANCE_PLAYER,
        Turn::Terminal => TERMINAL_PLAYER,
        Turn::Player(p) => p.index() as i64,
    }
}

/// Splits `tabletop`'s serialisation (`spec` line, then the JSON) in two;
/// text of one line, or starting as JSON does, is bare JSON and names no
/// game.
fn split_serialized(data: &str) -> (Option<&str>, &str) {
    let trimmed = data.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        return (None, trimmed);
    }
    match data.split_once('\n') {
        Some((spec, json)) => (Some(spec.trim()), json),
        None => (None, data),
    }
}

/// Loads a game by name with parameters, as OpenSpiel's ``load_game``:
/// ``load_game("kuhn_poker")``, ``load_game("kuhn_poker(variant=high)")``,
/// ``load_game("kuhn_poker(ante=2)")`` or ``load_game("kuhn_poker/high")``.
/// Raises ``GameSpecError`` for an unknown game, parameter or value.
#[pyfunction]
pub fn load_game(spec: &str) -> PyResult<Game> {
    games()
        .load(spec)
        .map(|inner| Game { inner })
        .map_err(to_py)
}

/// Every registered game, with its presets and parameters.
#[pyfunction]
pub fn registered_games() -> Vec<GameListing> {
    games()
        .list()
        .into_iter()
        .map(|g| GameListing {
            name: g.name,
            title: g.title,
            doc: g.doc,
            preset_key: Some(g.preset_key),
            presets: g
                .presets
                .into_iter()
                .map(|p| Preset {
                    name: p.name,
                    title: p.title,
                    differences: p.differences,
                    doc: p.doc,
                    spec: p.spec,
                })
                .collect(),
            parameters: g
                .parameters
                .into_iter()
                .map(|p| Parameter {
                    name: p.name,
                    default: p.default,
                    doc: p.doc,
                })
                .collect(),
        })
        .collect()
}

/// The specification of every preset of every registered game (a game
/// without presets gives its bare name): what a test or a sweep iterates
/// over to cover every rule set.
#[pyfunction]
pub fn registered_specs() -> Vec<String> {
    games()
        .list()
        .into_iter()
        .flat_map(|g| {
            if g.presets.is_empty() {
                vec![g.name]
            } else {
                g.presets.into_iter().map(|p| p.spec).collect()
            }
        })
        .collect()
}

/// A state from ``State.serialize()`` (which names its game), as
/// OpenSpiel's ``deserialize_game_and_state``. Raises
/// ``InvalidStateError`` for text that is not a state of that game.
#[pyfunction]
pub fn deserialize_state(data: &str) -> PyResult<State> {
    let (spec, _json) = split_serialized(data);
    let spec = spec.ok_or_else(|| {
        InvalidStateError::new_err(
            "the text names no game: use Game.deserialize_state for bare JSON",
        )
    })?;
    let game = load_game(spec)?;
    game.deserialize_state(data)
}

/// A registered game as ``registered_games()`` lists it.
#[pyclass(module = "tabletop", frozen, get_all)]
#[derive(Clone)]
pub struct GameListing {
    /// The game's name in specifications.
    pub name: String,
    /// Its name as a person reads it (``Battle Line``).
    pub title: String,
    /// One line on what it is.
    pub doc: String,
    /// The parameter that picks a preset, if the game has presets.
    pub preset_key: Option<String>,
    /// Its presets, the default first.
    pub presets: Vec<Preset>,
    /// Its parameters (besides the preset key) with their defaults.
    pub parameters: Vec<Parameter>,
}

#[pymethods]
impl GameListing {
    fn __repr__(&self) -> String {
        let presets: Vec<&str> = self.presets.iter().map(|p| p.name.as_str()).collect();
        format!("GameListing(name={:?}, presets={:?})", self.name, presets)
    }
}

/// A named rule set of a game.
#[pyclass(module = "tabletop", frozen, get_all)]
#[derive(Clone)]
pub struct Preset {
    /// Its name (``classic``).
    pub name: String,
    /// Its name as a person reads it (``International``).
    pub title: String,
    /// One sentence for a player on what sets it apart.
    pub differences: String,
    /// What it is.
    pub doc: String,
    /// Its full specification for ``load_game``.
    pub spec: String,
}

#[pymethods]
impl Preset {
    fn __repr__(&self) -> String {
        format!("Preset(name={:?}, spec={:?})", self.name, self.spec)
    }
}

/// A parameter of a game, with its default as written in a specification.
#[pyclass(module = "tabletop", frozen, get_all)]
#[derive(Clone)]
pub struct Parameter {
    /// Its name.
    pub name: String,
    /// Its value in the default preset (``1``, ``true``, ``none``, ``gmt``).
    pub default: String,
    /// What it means.
    pub doc: String,
}

#[pymethods]
impl Parameter {
    fn __repr__(&self) -> String {
        format!(
            "Parameter(name={:?}, default={:?})",
            self.name, self.default
        )
    }
}

/// A game under one rule set (OpenSpiel's ``Game``), from ``load_game``.
#[pyclass(module = "tabletop", frozen)]
pub struct Game {
    pub(crate) inner: Arc<dyn DynGame>,
}

#[pymethods]
impl Game {
    /// The game's canonical specification (``kuhn_poker(variant=classic)``);
    /// ``load_game`` of it gives this game again.
    #[getter]
    fn name(&self) -> &str {
        self.inner.name()
    }

    /// The game's stable engine name (``kuhn-poker``).
    #[getter]
    fn short_name(&self) -> &str {
        self.inner.info().name
    }

    /// A new game at its start (chance events stay explicit: the first
    /// state may be a chance node).
    fn new_initial_state(&self) -> State {
        State::new(self.inner.clone(), self.inner.new_state())
    }

    /// Size of the action-id space: every id of ``legal_actions()``,
    /// decisions and chance outcomes alike, is below it.
    fn num_distinct_actions(&self) -> usize {
        self.inner.info().action_space
    }

    /// The ids of the players' decisions, ascending: the action space
    /// without its chance outcomes, what a policy ranges over (index a
    /// policy's logits by position in this list and map back with it).
    fn decision_ids(&self) -> Vec<usize> {
        self.inner.decision_ids()
    }

    /// Bound on chance-outcome ids (they share the action-id space).
    fn max_chance_outcomes(&self) -> usize {
        self.inner.info().action_space
    }

    /// Number of players: 2.
    fn num_players(&self) -> usize {
        self.inner.info().players
    }

    /// Lowest return a player can get.
    fn min_utility(&self) -> f64 {
        self.inner.info().min_return
    }

    /// Highest return a player can get.
    fn max_utility(&self) -> f64 {
        self.inner.info().max_return
    }

    /// What the players' returns add up to (0 for a zero-sum game).
    fn utility_sum(&self) -> f64 {
        self.inner.info().returns_sum
    }

    /// Most actions, decisions and chance outcomes together, of any game.
    fn max_game_length(&self) -> u32 {
        self.inner.info().max_game_length
    }

    /// The observation tensor's shape.
    fn observation_tensor_shape(&self) -> Vec<usize> {
        self.inner.layout().shape.clone()
    }

    /// Number of values in one observation tensor.
    fn observation_tensor_size(&self) -> usize {
        self.inner.layout().size()
    }

    /// The tensor's named parts: ``(name, offset, length)`` in the
    /// flattened tensor, in order, covering it exactly.
    fn observation_tensor_layout(&self) -> Vec<(String, usize, usize)> {
        self.inner
            .layout()
            .planes
            .iter()
            .map(|p| (p.name.clone(), p.offset, p.len))
            .collect()
    }

    /// The tensor's named parts as the game declares them, in order: a
    /// dict each with ``name``, ``offset``, ``length``, and ``stack`` (the
    /// name of the stack of like planes it is one of, e.g. ``board``, or
    /// ``None`` for plain features) and ``dims`` (the plane's real shape,
    /// ``None`` with no stack). ``tabletop.spaces`` stacks them.
    fn observation_tensor_planes<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        self.inner
            .layout()
            .planes
            .iter()
            .map(|p| {
                let d = PyDict::new(py);
                d.set_item("name", &p.name)?;
                d.set_item("offset", p.offset)?;
                d.set_item("length", p.len)?;
                d.set_item("stack", p.stack.as_ref().map(|s| &s.name))?;
                d.set_item(
                    "dims",
                    p.stack
                        .as_ref()
                        .map(|s| PyTuple::new(py, &s.dims))
                        .transpose()?,
                )?;
                Ok(d)
            })
            .collect()
    }

    /// The game's metadata (OpenSpiel's ``GameType`` and ``GameInfo``) as a
    /// dict: ``name``, ``chance_mode`` (``explicit_stochastic`` or
    /// ``deterministic``), ``information`` (``imperfect`` or ``perfect``),
    /// ``utility`` (``zero_sum``, ``constant_sum``, ``general_sum``),
    /// ``num_players``, ``num_distinct_actions``, ``max_game_length``,
    /// ``min_utility``, ``max_utility``, ``utility_sum``,
    /// ``observation_tensor_shape``.
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let info = self.inner.info();
        let d = PyDict::new(py);
        d.set_item("name", info.name)?;
        d.set_item(
            "chance_mode",
            match info.chance {
                ChanceMode::Deterministic => "deterministic",
                ChanceMode::ExplicitStochastic => "explicit_stochastic",
            },
        )?;
        d.set_item(
            "information",
            match info.information {
                Information::Perfect => "perfect",
                Information::Imperfect => "imperfect",
            },
        )?;
        d.set_item(
            "utility",
            match info.utility {
                Utility::ZeroSum => "zero_sum",
                Utility::ConstantSum => "constant_sum",
                Utility::GeneralSum => "general_sum",
            },
        )?;
        d.set_item("num_players", info.players)?;
        d.set_item("num_distinct_actions", info.action_space)?;
        d.set_item("max_game_length", info.max_game_length)?;
        d.set_item("min_utility", info.min_return)?;
        d.set_item("max_utility", info.max_return)?;
        d.set_item("utility_sum", info.returns_sum)?;
        d.set_item(
            "observation_tensor_shape",
            self.inner.layout().shape.clone(),
        )?;
        Ok(d)
    }

    /// The rules as JSON, every field with its value.
    fn rules_json(&self) -> String {
        self.inner.rules_json().to_owned()
    }

    /// What every code of the game's text rendering means.
    fn legend(&self) -> &str {
        self.inner.legend()
    }

    /// The action with id ``action`` in the game's notation.
    fn action_to_string(&self, action: i64) -> PyResult<String> {
        let id = action_id(self.inner.as_ref(), action)?;
        self.inner.action_text(id).map_err(to_py)
    }

    /// A state of this game from ``State.serialize()`` or from the bare
    /// JSON of a state; refused (``InvalidStateError``) unless it is a state
    /// of this game under these rules.
    fn deserialize_state(&self, data: &str) -> PyResult<State> {
        let (spec, json) = split_serialized(data);
        if let Some(spec) = spec {
            let named = games().load(spec).map_err(to_py)?;
            if named.name() != self.inner.name() {
                return Err(InvalidStateError::new_err(format!(
                    "the state is of {}, not of {}",
                    named.name(),
                    self.inner.name()
                )));
            }
        }
        let state = self.inner.deserialize_state(json).map_err(to_py)?;
        Ok(State::new(self.inner.clone(), state))
    }

    /// A built-in bot: ``random``, ``flat[:N]`` (flat Monte Carlo, N
    /// playouts), ``ismcts[:N]`` (information-set MCTS, N iterations) or
    /// ``heuristic`` (where the game has one), drawing its randomness from
    /// a generator seeded with ``seed``. Raises ``GameSpecError`` for an
    /// unknown name.
    #[pyo3(signature = (spec, seed = 0))]
    fn make_bot(&self, spec: &str, seed: u64) -> PyResult<Bot> {
        let parsed: BotSpec = spec
            .parse()
            .map_err(|e: game_env::BotSpecError| GameSpecError::new_err(e.to_string()))?;
        let bot = self.inner.bot(parsed).map_err(to_py)?;
        Ok(Bot {
            game: self.inner.clone(),
            spec: parsed.to_string(),
            inner: Mutex::new((bot, GameRng::seed_from_u64(seed))),
        })
    }

    fn __str__(&self) -> &str {
        self.inner.name()
    }

    fn __repr__(&self) -> String {
        format!("tabletop.load_game({:?})", self.inner.name())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Game>()
            .is_ok_and(|o| o.get().inner.name() == self.inner.name())
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.inner.name().hash(&mut h);
        h.finish()
    }

    /// Pickling (for multiprocessing and Ray): a game pickles as its name.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let load = py.import("tabletop")?.getattr("load_game")?;
        PyTuple::new(
            py,
            [load, PyTuple::new(py, [self.inner.name()])?.into_any()],
        )
    }
}

/// A built-in bot of one game, from ``Game.make_bot``. It chooses from the
/// observation of the player to move and the legal actions alone.
#[pyclass(module = "tabletop", frozen)]
pub struct Bot {
    game: Arc<dyn DynGame>,
    spec: String,
    inner: Mutex<(Box<dyn Opponent>, GameRng)>,
}

#[pymethods]
impl Bot {
    /// The bot's name as given to ``make_bot`` (normalised).
    #[getter]
    fn name(&self) -> &str {
        &self.spec
    }

    /// The action the bot chooses for the player to move in ``state``.
    /// Raises ``GameError`` unless a player decides now, or ``state`` is of
    /// another game.
    fn step(&self, py: Python<'_>, state: &State) -> PyResult<usize> {
        let Turn::Player(p) = state.inner.turn() else {
            return Err(GameError::new_err("no player decides now"));
        };
        if state.game.name() != self.game.name() {
            return Err(GameError::new_err(format!(
                "the bot plays {}, the state is of {}",
                self.game.name(),
                state.game.name()
            )));
        }
        let mut guard = self
            .inner
            .try_lock()
            .map_err(|_| GameError::new_err("the bot is busy in another thread"))?;
        let (bot, rng) = &mut *guard;
        let dyn_state: &dyn DynState = state.inner.as_ref();
        // Search bots may think for a while: let other Python threads run.
        py.detach(|| bot.choose(dyn_state, p, rng)).map_err(to_py)
    }

    fn __repr__(&self) -> String {
        format!("<tabletop.Bot {} for {}>", self.spec, self.game.name())
    }
}
