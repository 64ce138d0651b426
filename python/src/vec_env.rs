//! The vectorised environment: `game_env::BatchEnv` with its buffers held
//! as numpy arrays that every step writes in place, the GIL released while
//! the games step on every core.

use std::sync::{Arc, Mutex};

use game_env::{BatchConfig, BatchEnv, BotSpec, DynGame, OpponentFactory, StepOutput};
use game_traits::rand::{Rng, SeedableRng};
use game_traits::GameRng;
use numpy::{IxDyn, PyArray1, PyArray2, PyArrayDyn, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::api::{seat, Game};
use crate::errors::{to_py, GameError, GameSpecError, IllegalActionError};
use crate::games;
use crate::state::State;

struct Inner {
    env: BatchEnv,
    actions: Vec<usize>,
    rng: GameRng,
}

/// ``num_envs`` games of one game stepped together on every core
/// (``game_env::BatchEnv``), for learners that want pgx-style batches.
///
/// The results of each step are written in place into numpy arrays that
/// the environment owns and exposes as attributes (``observations``,
/// ``masks``, ``rewards``, ``terminated``, ``truncated``, ``to_move``): the
/// same arrays every step, never copied. The GIL is released while the
/// games step. Each game draws its chance events from its own generator
/// derived from ``seed``, its index and its episode, so a seed gives the
/// same trajectories whatever ``threads`` is. A game that ends is reset at
/// once; its row then holds the new episode's first decision, and
/// ``rewards``, ``terminated`` and ``truncated`` tell that it ended.
///
/// ``opponent`` (a bot name, see ``Game.make_bot``) plays ``opponent_seat``
/// in every game, so that the learner sees only the other seat's
/// decisions. ``max_steps`` cuts (truncates) episodes after that many
/// learner steps. ``observations=False`` or ``masks=False`` skip writing
/// those buffers (the attribute is then ``None``).
#[pyclass(module = "tabletop", frozen)]
pub struct VecEnv {
    game: Arc<dyn DynGame>,
    inner: Mutex<Inner>,
    observations: Option<Py<PyArrayDyn<f32>>>,
    masks: Option<Py<PyArray2<bool>>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    to_move: Py<PyArray1<u8>>,
    actions: Py<PyArray1<i64>>,
    threads: usize,
    num_envs: usize,
}

fn game_of(game: &Bound<'_, PyAny>) -> PyResult<Arc<dyn DynGame>> {
    if let Ok(g) = game.cast::<Game>() {
        return Ok(g.get().inner.clone());
    }
    let spec: String = game.extract().map_err(|_| {
        GameSpecError::new_err("game must be a tabletop.Game or a game specification string")
    })?;
    games().load(&spec).map_err(to_py)
}

/// The action ids of `actions` (a numpy integer array or a sequence of
/// ints) into `out`.
fn read_actions(actions: &Bound<'_, PyAny>, space: usize, out: &mut Vec<usize>) -> PyResult<()> {
    out.clear();
    let bad = |a: i64| {
        IllegalActionError::new_err(format!(
            "action id {a} is outside the action space of {space}"
        ))
    };
    let mut push = |a: i64| -> PyResult<()> {
        let id = usize::try_from(a)
            .ok()
            .filter(|&i| i < space)
            .ok_or_else(|| bad(a))?;
        out.push(id);
        Ok(())
    };
    if let Ok(arr) = actions.extract::<PyReadonlyArray1<'_, i64>>() {
        for &a in arr.as_array().iter() {
            push(a)?;
        }
    } else if let Ok(arr) = actions.extract::<PyReadonlyArray1<'_, i32>>() {
        for &a in arr.as_array().iter() {
            push(i64::from(a))?;
        }
    } else if let Ok(arr) = actions.extract::<PyReadonlyArray1<'_, u32>>() {
        for &a in arr.as_array().iter() {
            push(i64::from(a))?;
        }
    } else {
        let list: Vec<i64> = actions.extract().map_err(|_| {
            GameError::new_err("actions must be a 1-D integer numpy array or a sequence of ints")
        })?;
        for a in list {
            push(a)?;
        }
    }
    Ok(())
}

fn slice_err(e: impl std::fmt::Display) -> PyErr {
    GameError::new_err(format!("a buffer of the environment is not usable: {e}"))
}

impl VecEnv {
    /// Runs `f` on the batch with its buffers, the GIL released.
    fn run<F>(&self, py: Python<'_>, f: F) -> PyResult<()>
    where
        F: FnOnce(&mut Inner, &mut StepOutput<'_>) -> Result<(), game_env::EnvError> + Send,
    {
        let mut guard = self
            .inner
            .try_lock()
            .map_err(|_| GameError::new_err("the environment is stepping in another thread"))?;
        let mut obs = self
            .observations
            .as_ref()
            .map(|a| a.bind(py).try_readwrite())
            .transpose()
            .map_err(slice_err)?;
        let mut masks = self
            .masks
            .as_ref()
            .map(|a| a.bind(py).try_readwrite())
            .transpose()
            .map_err(slice_err)?;
        let mut rewards = self.rewards.bind(py).try_readwrite().map_err(slice_err)?;
        let mut terminated = self
            .terminated
            .bind(py)
            .try_readwrite()
            .map_err(slice_err)?;
        let mut truncated = self.truncated.bind(py).try_readwrite().map_err(slice_err)?;
        let mut to_move = self.to_move.bind(py).try_readwrite().map_err(slice_err)?;
        let mut out = StepOutput {
            observations: match obs.as_mut() {
                Some(o) => o.as_slice_mut().map_err(slice_err)?,
                None => &mut [],
            },
            masks: match masks.as_mut() {
                Some(m) => m.as_slice_mut().map_err(slice_err)?,
                None => &mut [],
            },
            rewards: rewards.as_slice_mut().map_err(slice_err)?,
            terminated: terminated.as_slice_mut().map_err(slice_err)?,
            truncated: truncated.as_slice_mut().map_err(slice_err)?,
            to_move: to_move.as_slice_mut().map_err(slice_err)?,
        };
        let inner: &mut Inner = &mut guard;
        py.detach(|| f(inner, &mut out)).map_err(to_py)
    }

    fn results<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let none = || py.None().into_bound(py);
        PyTuple::new(
            py,
            [
                self.observations
                    .as_ref()
                    .map_or_else(none, |a| a.bind(py).clone().into_any()),
                self.masks
                    .as_ref()
                    .map_or_else(none, |a| a.bind(py).clone().into_any()),
                self.rewards.bind(py).clone().into_any(),
                self.terminated.bind(py).clone().into_any(),
                self.truncated.bind(py).clone().into_any(),
                self.to_move.bind(py).clone().into_any(),
            ],
        )
    }
}

#[pymethods]
impl VecEnv {
    /// See the class docstring. ``game`` is a ``Game`` or a specification
    /// string; ``threads=0`` uses every core.
    #[new]
    #[pyo3(signature = (game, num_envs, seed = 0, threads = 0, opponent = None, opponent_seat = 1, max_steps = None, observations = true, masks = true))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        num_envs: usize,
        seed: u64,
        threads: usize,
        opponent: Option<&str>,
        opponent_seat: i64,
        max_steps: Option<u32>,
        observations: bool,
        masks: bool,
    ) -> PyResult<Self> {
        let game = game_of(game)?;
        if num_envs == 0 {
            return Err(GameError::new_err("num_envs must be at least 1"));
        }
        let opponent = match opponent {
            None => None,
            Some(name) => {
                let spec: BotSpec = name
                    .parse()
                    .map_err(|e: game_env::BotSpecError| GameSpecError::new_err(e.to_string()))?;
                // Made once here so that a bot the game cannot make is
                // refused now; the factory below then cannot fail.
                let first = Mutex::new(Some(game.bot(spec).map_err(to_py)?));
                let g = game.clone();
                let factory: OpponentFactory = Box::new(move || {
                    let taken = first.lock().ok().and_then(|mut f| f.take());
                    match taken {
                        Some(bot) => bot,
                        None => match g.bot(spec) {
                            Ok(bot) => bot,
                            Err(e) => unreachable!("{spec} was made once for this game: {e}"),
                        },
                    }
                });
                Some((seat(opponent_seat)?, factory))
            }
        };
        let env = BatchEnv::new(
            game.clone(),
            BatchConfig {
                games: num_envs,
                seed,
                threads,
                opponent,
                max_steps,
            },
        )
        .map_err(to_py)?;
        let mut shape = vec![num_envs];
        shape.extend_from_slice(&game.layout().shape);
        let space = env.action_space();
        let this = VecEnv {
            observations: observations
                .then(|| PyArrayDyn::<f32>::zeros(py, IxDyn(&shape), false).unbind()),
            masks: masks.then(|| PyArray2::<bool>::zeros(py, [num_envs, space], false).unbind()),
            rewards: PyArray2::<f32>::zeros(py, [num_envs, 2], false).unbind(),
            terminated: PyArray1::<bool>::zeros(py, [num_envs], false).unbind(),
            truncated: PyArray1::<bool>::zeros(py, [num_envs], false).unbind(),
            to_move: PyArray1::<u8>::zeros(py, [num_envs], false).unbind(),
            actions: PyArray1::<i64>::zeros(py, [num_envs], false).unbind(),
            threads,
            num_envs,
            inner: Mutex::new(Inner {
                env,
                actions: Vec::with_capacity(num_envs),
                rng: GameRng::seed_from_u64(seed ^ 0x5EED_AC71_0000_0001),
            }),
            game,
        };
        Ok(this)
    }

    /// The game.
    #[getter]
    fn game(&self) -> Game {
        Game {
            inner: self.game.clone(),
        }
    }

    /// Number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.num_envs
    }

    /// Worker threads asked for (0: every core).
    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }

    /// Size of one mask row (``Game.num_distinct_actions()``).
    #[getter]
    fn action_space(&self) -> usize {
        self.game.info().action_space
    }

    /// The shape of one observation tensor.
    #[getter]
    fn observation_shape(&self) -> Vec<usize> {
        self.game.layout().shape.clone()
    }

    /// ``(num_envs, *observation_shape)`` float32: the tensor of the player
    /// to move in each game (``None`` if made with ``observations=False``).
    #[getter]
    fn observations<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArrayDyn<f32>>> {
        self.observations.as_ref().map(|a| a.bind(py).clone())
    }

    /// ``(num_envs, action_space)`` bool: the legal actions of the player to
    /// move (``None`` if made with ``masks=False``).
    #[getter]
    fn masks<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray2<bool>>> {
        self.masks.as_ref().map(|a| a.bind(py).clone())
    }

    /// ``(num_envs, 2)`` float32: each seat's reward from the last step
    /// (its return where the episode ended in it, else 0).
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.rewards.bind(py).clone()
    }

    /// ``(num_envs,)`` bool: the episode ended by the rules in the last step.
    #[getter]
    fn terminated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.terminated.bind(py).clone()
    }

    /// ``(num_envs,)`` bool: the episode was cut by ``max_steps`` in the last
    /// step.
    #[getter]
    fn truncated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.truncated.bind(py).clone()
    }

    /// ``(num_envs,)`` uint8: the seat to move now in each game.
    #[getter]
    fn to_move<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        self.to_move.bind(py).clone()
    }

    /// ``(num_envs,)`` int64: the buffer ``random_actions`` writes.
    #[getter]
    fn actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.actions.bind(py).clone()
    }

    /// Starts a new episode in every game (episode counters restart, so a
    /// reset replays the same games for the same actions); returns
    /// ``(observations, masks, rewards, terminated, truncated, to_move)``,
    /// the environment's own arrays.
    fn reset<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        self.run(py, |inner, out| inner.env.reset(out))?;
        self.results(py)
    }

    /// Plays ``actions[i]`` in game ``i`` (a 1-D integer numpy array or a
    /// sequence of ints, one action id of the player to move per game),
    /// then chance events and the opponent until the learner decides
    /// again; writes the results in place and returns the arrays as
    /// ``reset``. An illegal action raises ``IllegalActionError`` and
    /// changes nothing.
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let space = self.game.info().action_space;
        {
            let mut guard = self
                .inner
                .try_lock()
                .map_err(|_| GameError::new_err("the environment is stepping in another thread"))?;
            let mut ids = std::mem::take(&mut guard.actions);
            let read = read_actions(actions, space, &mut ids);
            guard.actions = ids;
            read?;
        }
        self.run(py, |inner, out| {
            let Inner { env, actions, .. } = inner;
            env.step(actions, out)
        })?;
        self.results(py)
    }

    /// Draws one uniformly random legal action per game from the masks
    /// (from the environment's own generator, seeded by ``seed``) into the
    /// ``actions`` buffer and returns it. Needs ``masks=True``.
    fn random_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let masks = self
            .masks
            .as_ref()
            .ok_or_else(|| GameError::new_err("random_actions needs masks=True"))?
            .bind(py)
            .try_readonly()
            .map_err(slice_err)?;
        let mask = masks.as_slice().map_err(slice_err)?;
        let actions = self.actions.bind(py);
        let mut rw = actions.try_readwrite().map_err(slice_err)?;
        let out = rw.as_slice_mut().map_err(slice_err)?;
        let space = self.game.info().action_space;
        let mut guard = self
            .inner
            .try_lock()
            .map_err(|_| GameError::new_err("the environment is stepping in another thread"))?;
        let rng = &mut guard.rng;
        py.detach(|| {
            for (row, slot) in mask.chunks(space.max(1)).zip(out.iter_mut()) {
                let legal = row.iter().filter(|&&b| b).count();
                // A row without a legal action (a game that ends before any
                // decision) keeps id 0; stepping it would be refused.
                *slot = if legal == 0 {
                    0
                } else {
                    let k = rng.random_range(0..legal);
                    row.iter()
                        .enumerate()
                        .filter(|(_, &b)| b)
                        .nth(k)
                        .map_or(0, |(i, _)| i as i64)
                };
            }
        });
        drop(rw);
        Ok(actions.clone())
    }

    /// A copy of game ``index``'s current state (for inspection: playing it
    /// does not change the environment).
    fn state(&self, index: usize) -> PyResult<State> {
        let guard = self
            .inner
            .try_lock()
            .map_err(|_| GameError::new_err("the environment is stepping in another thread"))?;
        let state = guard
            .env
            .state(index)
            .ok_or_else(|| GameError::new_err(format!("no game {index}")))?;
        Ok(State::new(self.game.clone(), state.clone_box()))
    }

    fn __len__(&self) -> usize {
        self.num_envs
    }

    fn __repr__(&self) -> String {
        format!("<tabletop.VecEnv {} x {}>", self.num_envs, self.game.name())
    }
}
