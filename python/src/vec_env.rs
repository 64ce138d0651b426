//! The vectorised environment: `game_env::BatchEnv` with its buffers held
//! as numpy arrays that every step writes in place, the GIL released while
//! the games step on every core.

use std::sync::{Arc, Mutex};

use game_env::{BatchConfig, BatchEnv, DynGame, StepOutput};
use game_traits::rand::{Rng, SeedableRng};
use game_traits::GameRng;
use numpy::{IxDyn, PyArray1, PyArray2, PyArrayDyn, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::api::{seat, Game};
use crate::errors::{to_py, GameError, GameSpecError, InvalidStateError};
use crate::games;
use crate::state::State;
use crate::vec_input::{bot_factory, opponents, read_actions, read_rows};

struct Inner {
    env: BatchEnv,
    actions: Vec<usize>,
    rows: Vec<bool>,
    rng: GameRng,
}

/// The generator of `random_actions` for a batch seeded with `seed`.
fn actions_rng(seed: u64) -> GameRng {
    GameRng::seed_from_u64(seed ^ 0x5EED_AC71_0000_0001)
}

fn slice_err(e: impl std::fmt::Display) -> PyErr {
    GameError::new_err(format!("a buffer of the environment is not usable: {e}"))
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

/// The numpy arrays a batch writes into, held for the object's life.
struct Arrays {
    observations: Option<Py<PyArrayDyn<f32>>>,
    masks: Option<Py<PyArray2<i8>>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    to_move: Py<PyArray1<u8>>,
    final_observations: Option<Py<PyArrayDyn<f32>>>,
    episode_returns: Py<PyArray2<f32>>,
    episode_lengths: Py<PyArray1<u32>>,
    actions: Py<PyArray1<i64>>,
}

impl Arrays {
    fn new(
        py: Python<'_>,
        n: usize,
        shape: &[usize],
        space: usize,
        tensors: bool,
        masks: bool,
    ) -> Self {
        let mut obs = vec![n];
        obs.extend_from_slice(shape);
        let mut finals = vec![n, 2];
        finals.extend_from_slice(shape);
        Arrays {
            observations: tensors
                .then(|| PyArrayDyn::<f32>::zeros(py, IxDyn(&obs), false).unbind()),
            masks: masks.then(|| PyArray2::<i8>::zeros(py, [n, space], false).unbind()),
            rewards: PyArray2::<f32>::zeros(py, [n, 2], false).unbind(),
            terminated: PyArray1::<bool>::zeros(py, [n], false).unbind(),
            truncated: PyArray1::<bool>::zeros(py, [n], false).unbind(),
            to_move: PyArray1::<u8>::zeros(py, [n], false).unbind(),
            final_observations: tensors
                .then(|| PyArrayDyn::<f32>::zeros(py, IxDyn(&finals), false).unbind()),
            episode_returns: PyArray2::<f32>::zeros(py, [n, 2], false).unbind(),
            episode_lengths: PyArray1::<u32>::zeros(py, [n], false).unbind(),
            actions: PyArray1::<i64>::zeros(py, [n], false).unbind(),
        }
    }
}

/// ``num_envs`` games of one game stepped together on every core
/// (``game_env::BatchEnv``), for learners that want pgx-style batches.
///
/// The results of each step are written in place into numpy arrays that
/// the environment owns and exposes as attributes (``observations``,
/// ``masks``, ``rewards``, ``terminated``, ``truncated``, ``to_move``, and
/// at auto-reset ``final_observations``, ``episode_returns``,
/// ``episode_lengths``): the same arrays every step, never copied; read
/// them, copy them, but do not write into ``observations``: each step
/// updates its rows in place, writing only what changed since the
/// observation a row holds. The GIL
/// is released while the games step. Each game draws its chance events
/// from its own generator derived from ``seed``, its index and its
/// episode, so a seed gives the same trajectories whatever ``threads`` is.
/// A game that ends is reset at once; its row then holds the new episode's
/// first decision, and ``rewards``, ``terminated`` and ``truncated`` tell
/// that it ended.
///
/// ``opponent`` (a bot name, see ``Game.make_bot``, or a list of names or
/// None per game) plays ``opponent_seat`` (a seat, or a list per game), so
/// that the learner sees only the other seat's decisions there; without
/// one both seats are the caller's (self-play: ``to_move`` says whose
/// decision each row is). ``max_steps`` cuts (truncates) episodes after
/// that many steps. ``observations=False`` or ``masks=False`` skip writing
/// those buffers (the attribute is then ``None``). Masks are int8 (1 for
/// legal), as Gymnasium's ``Discrete.sample(mask)`` and PettingZoo take
/// them.
#[pyclass(module = "tabletop", frozen)]
pub struct VecEnv {
    game: Arc<dyn DynGame>,
    inner: Mutex<Inner>,
    arrays: Arrays,
    threads: usize,
    num_envs: usize,
}

impl VecEnv {
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, Inner>> {
        self.inner
            .try_lock()
            .map_err(|_| GameError::new_err("the environment is stepping in another thread"))
    }

    /// Runs `f` on the batch with its buffers, the GIL released.
    fn run<F>(&self, py: Python<'_>, f: F) -> PyResult<()>
    where
        F: FnOnce(&mut Inner, &mut StepOutput<'_, i8>) -> Result<(), game_env::EnvError> + Send,
    {
        let mut guard = self.lock()?;
        let a = &self.arrays;
        let mut obs = a
            .observations
            .as_ref()
            .map(|x| x.bind(py).try_readwrite())
            .transpose()
            .map_err(slice_err)?;
        let mut masks = a
            .masks
            .as_ref()
            .map(|x| x.bind(py).try_readwrite())
            .transpose()
            .map_err(slice_err)?;
        let mut finals = a
            .final_observations
            .as_ref()
            .map(|x| x.bind(py).try_readwrite())
            .transpose()
            .map_err(slice_err)?;
        let mut rewards = a.rewards.bind(py).try_readwrite().map_err(slice_err)?;
        let mut terminated = a.terminated.bind(py).try_readwrite().map_err(slice_err)?;
        let mut truncated = a.truncated.bind(py).try_readwrite().map_err(slice_err)?;
        let mut to_move = a.to_move.bind(py).try_readwrite().map_err(slice_err)?;
        let mut returns = a
            .episode_returns
            .bind(py)
            .try_readwrite()
            .map_err(slice_err)?;
        let mut lengths = a
            .episode_lengths
            .bind(py)
            .try_readwrite()
            .map_err(slice_err)?;
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
            final_observations: match finals.as_mut() {
                Some(f) => f.as_slice_mut().map_err(slice_err)?,
                None => &mut [],
            },
            episode_returns: returns.as_slice_mut().map_err(slice_err)?,
            episode_lengths: lengths.as_slice_mut().map_err(slice_err)?,
        };
        let inner: &mut Inner = &mut guard;
        py.detach(|| f(inner, &mut out)).map_err(to_py)
    }

    fn results<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let none = || py.None().into_bound(py);
        let a = &self.arrays;
        PyTuple::new(
            py,
            [
                a.observations
                    .as_ref()
                    .map_or_else(none, |x| x.bind(py).clone().into_any()),
                a.masks
                    .as_ref()
                    .map_or_else(none, |x| x.bind(py).clone().into_any()),
                a.rewards.bind(py).clone().into_any(),
                a.terminated.bind(py).clone().into_any(),
                a.truncated.bind(py).clone().into_any(),
                a.to_move.bind(py).clone().into_any(),
            ],
        )
    }

    /// Reads `rows` (None: every game) into the batch's flags.
    fn rows_of(&self, rows: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
        let Some(rows) = rows else { return Ok(false) };
        let mut guard = self.lock()?;
        let mut flags = std::mem::take(&mut guard.rows);
        let read = read_rows(rows, self.num_envs, &mut flags);
        guard.rows = flags;
        read.map(|()| true)
    }
}

#[pymethods]
impl VecEnv {
    /// See the class docstring. ``game`` is a ``Game`` or a specification
    /// string; ``threads=0`` uses every core.
    #[new]
    #[pyo3(signature = (game, num_envs, seed = 0, threads = 0, opponent = None, opponent_seat = None, max_steps = None, observations = true, masks = true))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        num_envs: usize,
        seed: u64,
        threads: usize,
        opponent: Option<&Bound<'_, PyAny>>,
        opponent_seat: Option<&Bound<'_, PyAny>>,
        max_steps: Option<u32>,
        observations: bool,
        masks: bool,
    ) -> PyResult<Self> {
        let game = game_of(game)?;
        if num_envs == 0 {
            return Err(GameError::new_err("num_envs must be at least 1"));
        }
        let one = 1i64.into_pyobject(py)?.into_any();
        let seats = opponent_seat.unwrap_or(&one);
        let assigned = match opponent {
            None => vec![None; num_envs],
            Some(o) => opponents(&game, o, seats, num_envs)?,
        };
        let mut env = BatchEnv::new(
            game.clone(),
            BatchConfig {
                games: num_envs,
                seed,
                threads,
                opponent: None,
                max_steps,
            },
        )
        .map_err(to_py)?;
        for (i, a) in assigned.into_iter().enumerate() {
            env.set_opponent(i, a).map_err(to_py)?;
        }
        let space = env.action_space();
        Ok(VecEnv {
            arrays: Arrays::new(
                py,
                num_envs,
                &game.layout().shape,
                space,
                observations,
                masks,
            ),
            threads,
            num_envs,
            inner: Mutex::new(Inner {
                env,
                actions: Vec::with_capacity(num_envs),
                rows: Vec::with_capacity(num_envs),
                rng: actions_rng(seed),
            }),
            game,
        })
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
        self.arrays
            .observations
            .as_ref()
            .map(|a| a.bind(py).clone())
    }

    /// ``(num_envs, action_space)`` int8: 1 where an action is legal for the
    /// player to move (``None`` if made with ``masks=False``).
    #[getter]
    fn masks<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray2<i8>>> {
        self.arrays.masks.as_ref().map(|a| a.bind(py).clone())
    }

    /// ``(num_envs, 2)`` float32: each seat's reward from the last step
    /// (its return where the episode ended in it, else 0).
    #[getter]
    fn rewards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.arrays.rewards.bind(py).clone()
    }

    /// ``(num_envs,)`` bool: the episode ended by the rules in the last step.
    #[getter]
    fn terminated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.arrays.terminated.bind(py).clone()
    }

    /// ``(num_envs,)`` bool: the episode was cut by ``max_steps`` in the last
    /// step.
    #[getter]
    fn truncated<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.arrays.truncated.bind(py).clone()
    }

    /// ``(num_envs,)`` uint8: the seat to move now in each game.
    #[getter]
    fn to_move<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        self.arrays.to_move.bind(py).clone()
    }

    /// ``(num_envs, 2, *observation_shape)`` float32: where an episode
    /// ended in the last step, both seats' tensors of its last state (the
    /// row of ``observations`` is the next episode's already); other rows
    /// keep older values. ``None`` if made with ``observations=False``.
    #[getter]
    fn final_observations<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArrayDyn<f32>>> {
        self.arrays
            .final_observations
            .as_ref()
            .map(|a| a.bind(py).clone())
    }

    /// ``(num_envs, 2)`` float32: where an episode ended in the last step,
    /// both seats' returns over it; 0 elsewhere.
    #[getter]
    fn episode_returns<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<f32>> {
        self.arrays.episode_returns.bind(py).clone()
    }

    /// ``(num_envs,)`` uint32: where an episode ended in the last step, its
    /// number of steps; 0 elsewhere.
    #[getter]
    fn episode_lengths<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        self.arrays.episode_lengths.bind(py).clone()
    }

    /// ``(num_envs,)`` int64: the buffer ``random_actions`` writes.
    #[getter]
    fn actions<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        self.arrays.actions.bind(py).clone()
    }

    /// Starts a new episode in every game (episode counters restart, so a
    /// reset replays the same games for the same actions) and returns
    /// ``(observations, masks, rewards, terminated, truncated, to_move)``,
    /// the environment's own arrays. ``seed`` seeds the batch anew first
    /// (as one made with that seed, ``random_actions`` included). ``rows``
    /// (a boolean array of ``num_envs`` flags, or game indices) resets
    /// those games only, each to its next episode; the other games do not
    /// move.
    #[pyo3(signature = (seed = None, rows = None))]
    fn reset<'py>(
        &self,
        py: Python<'py>,
        seed: Option<u64>,
        rows: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        if let Some(seed) = seed {
            let mut guard = self.lock()?;
            guard.env.reseed(seed);
            guard.rng = actions_rng(seed);
        }
        if self.rows_of(rows)? {
            self.run(py, |inner, out| {
                let Inner { env, rows, .. } = inner;
                env.reset_rows(rows, out)
            })?;
        } else {
            self.run(py, |inner, out| inner.env.reset(out))?;
        }
        self.results(py)
    }

    /// Plays ``actions[i]`` in game ``i`` (a 1-D integer numpy array or a
    /// sequence of ints, one action id of the player to move per game),
    /// then chance events and the built-in bot until a player without one
    /// decides; writes the results in place and returns the arrays as
    /// ``reset``. ``rows`` (as in ``reset``) steps those games only: the
    /// others' actions are not read and they do not move (their rewards
    /// and flags read 0). An illegal action raises ``IllegalActionError``
    /// and changes nothing.
    #[pyo3(signature = (actions, rows = None))]
    fn step<'py>(
        &self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
        rows: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let space = self.game.info().action_space;
        {
            let mut guard = self.lock()?;
            let mut ids = std::mem::take(&mut guard.actions);
            let read = read_actions(actions, space, &mut ids);
            guard.actions = ids;
            read?;
        }
        if self.rows_of(rows)? {
            self.run(py, |inner, out| {
                let Inner {
                    env, actions, rows, ..
                } = inner;
                env.step_rows(actions, rows, out)
            })?;
        } else {
            self.run(py, |inner, out| {
                let Inner { env, actions, .. } = inner;
                env.step(actions, out)
            })?;
        }
        self.results(py)
    }

    /// Draws one uniformly random legal action per game from the masks
    /// (from the environment's own generator, seeded by ``seed``) into the
    /// ``actions`` buffer and returns it. Needs ``masks=True``.
    fn random_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let masks = self
            .arrays
            .masks
            .as_ref()
            .ok_or_else(|| GameError::new_err("random_actions needs masks=True"))?
            .bind(py)
            .try_readonly()
            .map_err(slice_err)?;
        let mask = masks.as_slice().map_err(slice_err)?;
        let actions = self.arrays.actions.bind(py);
        let mut rw = actions.try_readwrite().map_err(slice_err)?;
        let out = rw.as_slice_mut().map_err(slice_err)?;
        let space = self.game.info().action_space;
        let mut guard = self.lock()?;
        let rng = &mut guard.rng;
        py.detach(|| {
            for (row, slot) in mask.chunks(space.max(1)).zip(out.iter_mut()) {
                let legal = row.iter().filter(|&&b| b != 0).count();
                // A row without a legal action (a game that ends before any
                // decision) keeps id 0; stepping it would be refused.
                *slot = if legal == 0 {
                    0
                } else {
                    let k = rng.random_range(0..legal);
                    row.iter()
                        .enumerate()
                        .filter(|(_, &b)| b != 0)
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
        let guard = self.lock()?;
        let state = guard
            .env
            .state(index)
            .ok_or_else(|| GameError::new_err(format!("no game {index}")))?;
        Ok(State::new(self.game.clone(), state.clone_box()))
    }

    /// Game ``index`` goes on from a copy of ``state`` (a ``State`` of this
    /// game): chance and the built-in bot play until a player without one
    /// decides, and its row of every array is written; its episode's steps
    /// count from 0. A state that is over by then raises
    /// ``InvalidStateError``; the other games do not move.
    fn set_state(&self, py: Python<'_>, index: usize, state: &Bound<'_, State>) -> PyResult<()> {
        if index >= self.num_envs {
            return Err(GameError::new_err(format!("no game {index}")));
        }
        let copy = {
            let s = state
                .try_borrow()
                .map_err(|e| GameError::new_err(e.to_string()))?;
            if s.game.name() != self.game.name() || s.game.rules_json() != self.game.rules_json() {
                return Err(InvalidStateError::new_err(format!(
                    "a state of {} under other rules, not of this environment's {}",
                    s.game.name(),
                    self.game.name()
                )));
            }
            s.inner.clone_box()
        };
        self.run(py, move |inner, out| inner.env.set_state(index, copy, out))
    }

    /// Gives game ``index`` the built-in bot ``opponent`` (a bot name) on
    /// ``seat``, or none (``None``), from its next episode on: the episode
    /// under way keeps its players (``reset(rows=[index])`` starts the
    /// next one now).
    #[pyo3(signature = (index, opponent, seat = 1))]
    fn set_opponent(&self, index: usize, opponent: Option<&str>, seat: i64) -> PyResult<()> {
        let assigned = match opponent {
            None => None,
            Some(name) => Some((self::seat(seat)?, bot_factory(&self.game, name)?)),
        };
        self.lock()?
            .env
            .set_opponent(index, assigned)
            .map_err(to_py)
    }

    /// The seat game ``index``'s built-in bot plays this episode, or None.
    fn opponent_seat(&self, index: usize) -> PyResult<Option<usize>> {
        if index >= self.num_envs {
            return Err(GameError::new_err(format!("no game {index}")));
        }
        Ok(self.lock()?.env.opponent_seat(index).map(|p| p.index()))
    }

    fn __len__(&self) -> usize {
        self.num_envs
    }

    fn __repr__(&self) -> String {
        format!("<tabletop.VecEnv {} x {}>", self.num_envs, self.game.name())
    }
}
