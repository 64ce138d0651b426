//! A game in progress, in OpenSpiel's vocabulary: `State`.

use std::sync::Arc;

use game_env::{DynGame, DynState, EnvError, Told};
use game_traits::rand::SeedableRng;
use game_traits::{GameRng, Outcome, PlayerId, Turn};
use numpy::{IxDyn, PyArray1, PyArrayDyn, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::api::{action_id, seat, turn_marker, Game, CHANCE_PLAYER};
use crate::errors::{to_py, GameError, IllegalActionError};

/// A game in progress (OpenSpiel's ``State``), from
/// ``Game.new_initial_state()``. Actions are integer ids; chance events are
/// explicit (``current_player() == CHANCE_PLAYER``) and are applied with
/// ``apply_action`` like decisions.
#[pyclass(module = "tabletop")]
pub struct State {
    pub(crate) game: Arc<dyn DynGame>,
    pub(crate) inner: Box<dyn DynState>,
    ids: Vec<usize>,
}

impl State {
    pub(crate) fn new(game: Arc<dyn DynGame>, inner: Box<dyn DynState>) -> Self {
        State {
            game,
            inner,
            ids: Vec::new(),
        }
    }

    fn is_turn_of(&self, player: Option<i64>) -> PyResult<bool> {
        match player {
            None => Ok(true),
            Some(p) if p == CHANCE_PLAYER => Ok(self.inner.turn() == Turn::Chance),
            Some(p) => Ok(self.inner.turn() == Turn::Player(seat(p)?)),
        }
    }

    /// The legal action `action`, about to be applied now, told to
    /// `viewer` (`DynState::told`).
    fn told_to(&self, viewer: i64, action: i64) -> PyResult<Told> {
        let id = action_id(self.game.as_ref(), action)?;
        self.inner
            .told(Some(seat(viewer)?), id)
            .map_err(to_py)?
            .ok_or_else(|| GameError::new_err("a seat is always told"))
    }

    fn viewer(&self, player: Option<i64>) -> PyResult<PlayerId> {
        match player {
            Some(p) => seat(p),
            None => match self.inner.turn() {
                Turn::Player(p) => Ok(p),
                _ => Err(GameError::new_err(
                    "no player decides now: name the player whose view you want",
                )),
            },
        }
    }
}

#[pymethods]
impl State {
    /// The game this state belongs to.
    fn get_game(&self) -> Game {
        Game {
            inner: self.game.clone(),
        }
    }

    /// Who acts now: the seat (0 or 1), ``CHANCE_PLAYER`` (-1) at a chance
    /// event, ``TERMINAL_PLAYER`` (-4) once the game is over, as OpenSpiel.
    fn current_player(&self) -> i64 {
        turn_marker(self.inner.turn())
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.inner.is_terminal()
    }

    /// Whether a chance event is due.
    fn is_chance_node(&self) -> bool {
        self.inner.turn() == Turn::Chance
    }

    /// Whether a player decides now.
    fn is_player_node(&self) -> bool {
        matches!(self.inner.turn(), Turn::Player(_))
    }

    /// The legal action ids now, sorted (the chance outcomes at a chance
    /// event). With ``player``, empty unless that player (or ``-1`` for
    /// chance) acts now.
    #[pyo3(signature = (player = None))]
    fn legal_actions(&mut self, player: Option<i64>) -> PyResult<Vec<usize>> {
        if !self.is_turn_of(player)? {
            return Ok(Vec::new());
        }
        self.inner.legal_ids(&mut self.ids);
        Ok(self.ids.clone())
    }

    /// The legal actions now as an int8 numpy array over the whole
    /// action-id space (``Game.num_distinct_actions()``), 1 where legal:
    /// the one mask dtype of the package (Gymnasium's
    /// ``Discrete.sample(mask)`` takes int8). With ``player``, all 0
    /// unless that player (or ``-1``) acts now.
    #[pyo3(signature = (player = None))]
    fn legal_actions_mask<'py>(
        &mut self,
        py: Python<'py>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let space = self.game.info().action_space;
        let mut legal = vec![false; space];
        if self.is_turn_of(player)? && !self.inner.is_terminal() {
            self.inner.write_mask(&mut legal).map_err(to_py)?;
        }
        Ok(PyArray1::from_iter(py, legal.into_iter().map(i8::from)))
    }

    /// The chance outcomes now as ``(action, probability)`` pairs (empty
    /// unless a chance event is due).
    fn chance_outcomes(&self) -> Vec<(usize, f64)> {
        let mut out = Vec::new();
        self.inner.chance_outcomes(&mut out);
        out
    }

    /// Applies action ``action`` (a decision of the player to move, or a
    /// chance outcome). An illegal one raises ``IllegalActionError`` with
    /// the engine's reason, and the state is unchanged.
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        let id = action_id(self.game.as_ref(), action)?;
        self.inner.apply_id(id).map_err(to_py)
    }

    /// The engine's reason why ``action`` is illegal now, or ``None`` if it
    /// is legal.
    fn illegal_reason(&self, action: i64) -> PyResult<Option<String>> {
        let id = action_id(self.game.as_ref(), action)?;
        match self.inner.check_id(id) {
            Ok(()) => Ok(None),
            Err(EnvError::IllegalAction { reason, .. }) => Ok(Some(reason)),
            Err(e) => Err(to_py(e)),
        }
    }

    /// The legal actions now as dictionaries ``{"id", "text", "action"}``,
    /// ``action`` being the action's wire struct (``docs/wire.md``).
    fn legal_action_structs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let legal = serde_json::to_value(self.inner.legal_actions())
            .map_err(|e| to_py(EnvError::Internal(format!("serialising: {e}"))))?;
        to_python(py, &legal)
    }

    /// The action ``action`` as its wire struct (a dictionary tagged by
    /// ``"type"``).
    fn action_struct<'py>(&self, py: Python<'py>, action: i64) -> PyResult<Bound<'py, PyAny>> {
        let id = action_id(self.game.as_ref(), action)?;
        to_python(py, &self.inner.action_struct(id).map_err(to_py)?)
    }

    /// The id of the action a wire struct (a dictionary) names; refused
    /// with ``IllegalActionError`` when it names none.
    fn action_from_struct(&self, py: Python<'_>, action: &Bound<'_, PyAny>) -> PyResult<usize> {
        let text: String = py
            .import("json")?
            .call_method1("dumps", (action,))?
            .extract()?;
        let value: serde_json::Value = serde_json::from_str(&text)
            .map_err(|e| IllegalActionError::new_err(format!("not a wire struct: {e}")))?;
        self.game.action_id_of(&value).map_err(to_py)
    }

    /// ``player``'s observation as its wire struct (a dictionary of named
    /// fields, the current player's by default): what a client draws the
    /// game from.
    #[pyo3(signature = (player = None))]
    fn observation_struct<'py>(
        &self,
        py: Python<'py>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let value = self
            .inner
            .observation_struct(self.viewer(player)?)
            .map_err(to_py)?;
        to_python(py, &value)
    }

    /// Plays every chance event now due, drawn from a generator seeded with
    /// ``seed``, until a player decides or the game ends; returns how many
    /// were played.
    fn play_chance(&mut self, seed: u64) -> u32 {
        self.inner.play_chance(&mut GameRng::seed_from_u64(seed))
    }

    /// A chance outcome drawn with its probability from a generator seeded
    /// with ``seed``; ``None`` unless a chance event is due.
    fn sample_chance_outcome(&self, seed: u64) -> Option<usize> {
        self.inner
            .sample_chance_id(&mut GameRng::seed_from_u64(seed))
    }

    /// A uniformly random legal decision drawn from a generator seeded with
    /// ``seed``; ``None`` unless a player decides now.
    fn random_legal_action(&mut self, seed: u64) -> Option<usize> {
        if !matches!(self.inner.turn(), Turn::Player(_)) {
            return None;
        }
        self.inner
            .sample_legal_id(&mut GameRng::seed_from_u64(seed))
    }

    /// ``player``'s observation tensor (the current player's by default), a
    /// new float32 numpy array of ``Game.observation_tensor_shape()``
    /// written by the engine in place. It is computed from that player's
    /// observation alone, so it holds nothing the player may not know.
    #[pyo3(signature = (player = None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<i64>,
    ) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let viewer = self.viewer(player)?;
        let layout = self.game.layout();
        let tensor = PyArrayDyn::<f32>::zeros(py, IxDyn(&layout.shape), false);
        // SAFETY: the array was just made here and no other reference to
        // it exists yet.
        let slice =
            unsafe { tensor.as_slice_mut() }.map_err(|e| GameError::new_err(e.to_string()))?;
        self.inner.encode(viewer, slice).map_err(to_py)?;
        Ok(tensor)
    }

    /// Writes ``player``'s observation tensor into ``out``, a C-contiguous
    /// float32 numpy array of ``Game.observation_tensor_size()`` values (any
    /// shape): the copy-free form for a caller's own buffer.
    fn write_observation_tensor(
        &self,
        player: i64,
        out: &Bound<'_, PyArrayDyn<f32>>,
    ) -> PyResult<()> {
        let viewer = seat(player)?;
        let mut rw = out
            .try_readwrite()
            .map_err(|e| GameError::new_err(e.to_string()))?;
        let slice = rw
            .as_slice_mut()
            .map_err(|e| GameError::new_err(e.to_string()))?;
        self.inner.encode(viewer, slice).map_err(to_py)
    }

    /// ``player``'s information-state string (the current player's by
    /// default): one stable line naming exactly what that player knows.
    #[pyo3(signature = (player = None))]
    fn information_state_string(&self, player: Option<i64>) -> PyResult<String> {
        Ok(self.inner.information_state_string(self.viewer(player)?))
    }

    /// ``player``'s observation rendered as text (the current player's by
    /// default).
    #[pyo3(signature = (player = None))]
    fn observation_string(&self, player: Option<i64>) -> PyResult<String> {
        Ok(self.inner.observation_text(self.viewer(player)?))
    }

    /// ``player``'s observation as the engine's JSON (what determinisation
    /// reads back; to draw the game, read ``observation_struct``).
    #[pyo3(signature = (player = None))]
    fn observation_json(&self, player: Option<i64>) -> PyResult<String> {
        self.inner
            .observation_json(self.viewer(player)?)
            .map_err(to_py)
    }

    /// A full state consistent with ``player``'s observation, the part
    /// hidden from that player drawn from a generator seeded with ``seed``
    /// (the engine's determinisation, for information-set search).
    fn resample_from_infostate(&self, player: i64, seed: u64) -> PyResult<State> {
        let viewer = seat(player)?;
        let det = self
            .inner
            .resample(viewer, &mut GameRng::seed_from_u64(seed))
            .map_err(to_py)?;
        Ok(State::new(self.game.clone(), det))
    }

    /// The action ``action`` in the game's notation. ``player`` is accepted
    /// for OpenSpiel's signature ``action_to_string(player, action)``.
    #[pyo3(signature = (player_or_action, action = None))]
    fn action_to_string(&self, player_or_action: i64, action: Option<i64>) -> PyResult<String> {
        let a = action.unwrap_or(player_or_action);
        let id = action_id(self.game.as_ref(), a)?;
        self.inner.action_text(id).map_err(to_py)
    }

    /// The action ``action``, about to be applied now, as ``viewer``
    /// perceives it (a card dealt to the other player stays hidden).
    fn action_view(&self, viewer: i64, action: i64) -> PyResult<String> {
        let id = action_id(self.game.as_ref(), action)?;
        self.inner.action_view(seat(viewer)?, id).map_err(to_py)
    }

    /// What the legal action ``action``, about to be applied now, shows
    /// ``viewer``, as events: a list of wire structs tagged by ``"kind"``
    /// (a fight and who fell, a claim and its proof, a roll and its
    /// arithmetic, the end of the game and why), read from his
    /// observations only.
    fn events<'py>(
        &self,
        py: Python<'py>,
        viewer: i64,
        action: i64,
    ) -> PyResult<Bound<'py, PyAny>> {
        let told = self.told_to(viewer, action)?;
        py.import("json")?
            .call_method1("loads", (told.events.get(),))
    }

    /// The same events in words, as the terminal and the server's
    /// ``told`` say them (``"you"`` for ``viewer``'s seat).
    fn narrate(&self, viewer: i64, action: i64) -> PyResult<String> {
        Ok(self.told_to(viewer, action)?.text)
    }

    /// Both players' returns, ``[r0, r1]`` (zeros before the end).
    fn returns(&self) -> Vec<f64> {
        self.inner.returns().to_vec()
    }

    /// The rewards of the last action: the returns once the game is over
    /// (rewards come only at the end), zeros before.
    fn rewards(&self) -> Vec<f64> {
        self.inner.returns().to_vec()
    }

    /// ``player``'s return.
    fn player_return(&self, player: i64) -> PyResult<f64> {
        Ok(self.inner.returns()[seat(player)?.index()])
    }

    /// The winner's seat once the game is over, ``None`` before the end
    /// and for a draw.
    fn winner(&self) -> Option<usize> {
        match self.inner.outcome() {
            Some(Outcome::Win(p)) => Some(p.index()),
            _ => None,
        }
    }

    /// Player decisions so far (chance events not counted).
    fn move_number(&self) -> u32 {
        self.inner.move_count()
    }

    /// An independent copy.
    fn clone(&self) -> State {
        State::new(self.game.clone(), self.inner.clone_box())
    }

    fn __copy__(&self) -> State {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }

    /// The state as text that ``tabletop.deserialize_state`` reads back:
    /// the game's specification on the first line, the state's JSON after.
    fn serialize(&self) -> PyResult<String> {
        let json = self.inner.to_json().map_err(to_py)?;
        Ok(format!("{}\n{json}", self.game.name()))
    }

    /// The whole state as the engine's JSON (hidden parts included).
    fn to_json(&self) -> PyResult<String> {
        self.inner.to_json().map_err(to_py)
    }

    /// The whole state, hidden parts included (OpenSpiel's ``ToString``):
    /// for logs and debugging, never for a player's view (use
    /// ``observation_string``).
    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "<tabletop.State of {} player={} moves={}>",
            self.game.name(),
            turn_marker(self.inner.turn()),
            self.inner.move_count()
        )
    }

    /// Pickling (for multiprocessing and Ray): a state pickles as its
    /// serialisation.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let load = py.import("tabletop")?.getattr("deserialize_state")?;
        PyTuple::new(
            py,
            [load, PyTuple::new(py, [self.serialize()?])?.into_any()],
        )
    }
}

/// A JSON value as the Python object `json.loads` makes of it.
fn to_python<'py>(py: Python<'py>, value: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?
        .call_method1("loads", (value.to_string(),))
}
