//! A batched environment: `N` games of one [`DynGame`] stepped together on
//! every core, writing observation tensors, legal masks, rewards and flags
//! into contiguous buffers the caller owns (pgx's and Gymnasium's vector
//! environments).
//!
//! Each game has its own seeded chance stream, derived from the batch seed,
//! the game's index and its episode, so the results of a seed are the same
//! whatever the number of threads, and the same as playing each game alone
//! (see [`episode_rng`]).

use std::sync::Arc;

use game_traits::rand::SeedableRng;
use game_traits::{GameRng, PlayerId};

use crate::dynamic::{DynGame, DynState};
use crate::opponent::{Opponent, OpponentFactory};
mod output;
mod row;
mod written;

use crate::EnvError;
pub use output::{MaskCell, StepBuffers, StepOutput};
use row::{advance_state, step_slot};
pub use written::WrittenRow;

/// The chance generator of episode `episode` of game `index` in a batch
/// seeded with `seed`.
pub fn episode_rng(seed: u64, index: usize, episode: u64) -> GameRng {
    let mut rng = GameRng::seed_from_u64(seed ^ (index as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    rng.set_stream(episode);
    rng
}

/// The generator of the opponent in game `index`, episode `episode`.
pub fn opponent_rng(seed: u64, index: usize, episode: u64) -> GameRng {
    let mut rng = episode_rng(seed, index, episode);
    rng.set_stream(episode | 1 << 63);
    rng
}

/// Makes a fresh built-in bot for each episode of the games that share
/// it (an [`OpponentFactory`] converts with `Arc::from`).
pub type SharedOpponentFactory = Arc<dyn Fn() -> Box<dyn Opponent> + Send + Sync>;

/// How a batch is made.
pub struct BatchConfig {
    /// Number of games stepped together.
    pub games: usize,
    /// Seed of the whole batch.
    pub seed: u64,
    /// Worker threads; 0 for every core.
    pub threads: usize,
    /// A built-in bot that plays this seat in every game, so that the
    /// learner only ever sees the other seat's decisions
    /// ([`BatchEnv::set_opponent`] changes it game by game).
    pub opponent: Option<(PlayerId, OpponentFactory)>,
    /// Episodes are cut (truncated) after this many learner steps.
    pub max_steps: Option<u32>,
}

impl Default for BatchConfig {
    fn default() -> Self {
        BatchConfig {
            games: 1,
            seed: 0,
            threads: 0,
            opponent: None,
            max_steps: None,
        }
    }
}

impl StepBuffers {
    /// Buffers for `env`, with or without tensors and masks.
    pub fn for_env(env: &BatchEnv, tensors: bool, masks: bool) -> Self {
        StepBuffers::sized(
            env.len(),
            env.tensor_size(),
            env.action_space(),
            tensors,
            masks,
        )
    }
}

/// A built-in bot's seat and maker, as one game of the batch has it.
type SeatBot = (PlayerId, SharedOpponentFactory);

struct Slot {
    index: usize,
    episode: u64,
    steps: u32,
    state: Box<dyn DynState>,
    chance: GameRng,
    /// The built-in bot of this episode, with its seat and maker.
    opponent: Option<(SeatBot, Box<dyn Opponent>)>,
    /// The assignment that [`BatchEnv::set_opponent`] gave, in force from
    /// the next episode on.
    next_opponent: Option<SeatBot>,
    opponent_rng: GameRng,
    /// The engine's bool mask, where the caller's cells are another type.
    scratch: Vec<bool>,
    /// What this game's row of the observations holds.
    written: WrittenRow,
}

/// What one game of the batch does in a call.
#[derive(Clone, Copy, Debug)]
enum RowOp {
    /// Starts a new episode: the first (numbered 0) or the next one.
    Reset { first: bool },
    /// Plays this action id of the player to move.
    Play(usize),
    /// Plays chance and the built-in bot, then writes the row (after its
    /// state was set).
    Refresh,
    /// Nothing moves: the row's rewards, flags and statistics read 0, its
    /// observation and mask stay.
    Keep,
}

/// `N` games of one game stepped together; see the module docs.
///
/// ```
/// use game_env::{BatchConfig, BatchEnv, StepBuffers, TypedGame};
/// use game_traits::kuhn::KuhnPoker;
/// use std::sync::Arc;
///
/// let game = Arc::new(TypedGame::<KuhnPoker>::new(Default::default()).unwrap());
/// let mut env = BatchEnv::new(game, BatchConfig { games: 8, seed: 1, ..Default::default() }).unwrap();
/// let mut buffers = StepBuffers::for_env(&env, true, true);
/// env.reset(&mut buffers.output()).unwrap();
/// let space = env.action_space();
/// for _ in 0..20 {
///     // The first legal id of each game's mask.
///     let actions: Vec<usize> = buffers.masks.chunks(space)
///         .map(|m| m.iter().position(|&legal| legal).unwrap())
///         .collect();
///     env.step(&actions, &mut buffers.output()).unwrap();
/// }
/// ```
pub struct BatchEnv {
    game: Arc<dyn DynGame>,
    slots: Vec<Slot>,
    pool: rayon::ThreadPool,
    seed: u64,
    max_steps: Option<u32>,
    tensor: usize,
    space: usize,
    /// Reused by every call: no allocation per step.
    ops: Vec<RowOp>,
    /// The address of the observation buffer the rows were last written
    /// in; another one is written whole.
    observations_at: usize,
}

/// Games per task below which splitting the batch further costs more than
/// it saves.
const GRAIN: usize = 16;

impl BatchEnv {
    /// `config.games` new games of `game`.
    pub fn new(game: Arc<dyn DynGame>, config: BatchConfig) -> Result<Self, EnvError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(config.threads)
            .build()
            .map_err(|e| EnvError::Internal(format!("no worker threads: {e}")))?;
        let tensor = game.layout().size();
        let space = game.info().action_space;
        let shared: Option<SeatBot> = config
            .opponent
            .map(|(seat, make)| (seat, SharedOpponentFactory::from(make)));
        let slots = (0..config.games)
            .map(|index| Slot {
                index,
                episode: 0,
                steps: 0,
                state: game.new_state(),
                chance: episode_rng(config.seed, index, 0),
                opponent: shared.clone().map(|sb| {
                    let bot = (sb.1)();
                    (sb, bot)
                }),
                next_opponent: shared.clone(),
                opponent_rng: opponent_rng(config.seed, index, 0),
                scratch: Vec::new(),
                written: WrittenRow::default(),
            })
            .collect();
        Ok(BatchEnv {
            game,
            slots,
            pool,
            seed: config.seed,
            max_steps: config.max_steps,
            tensor,
            space,
            ops: Vec::with_capacity(config.games),
            observations_at: 0,
        })
    }

    /// Number of games.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the batch holds no game.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Values in one observation tensor.
    pub fn tensor_size(&self) -> usize {
        self.tensor
    }

    /// Size of the action-id space (one mask row).
    pub fn action_space(&self) -> usize {
        self.space
    }

    /// The game.
    pub fn game(&self) -> &Arc<dyn DynGame> {
        &self.game
    }

    /// The seed of the batch.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The state of game `index`.
    pub fn state(&self, index: usize) -> Option<&dyn DynState> {
        self.slots.get(index).map(|s| s.state.as_ref())
    }

    /// The seat the built-in bot of game `index` plays this episode, if
    /// any.
    pub fn opponent_seat(&self, index: usize) -> Option<PlayerId> {
        self.slots
            .get(index)
            .and_then(|s| s.opponent.as_ref().map(|((seat, _), _)| *seat))
    }

    /// Gives game `index` a built-in bot for `seat` (or none), from its
    /// next episode on: the episode under way keeps its players.
    pub fn set_opponent(
        &mut self,
        index: usize,
        opponent: Option<(PlayerId, SharedOpponentFactory)>,
    ) -> Result<(), EnvError> {
        let n = self.slots.len();
        let slot = self.slots.get_mut(index).ok_or(EnvError::BufferSize {
            name: "game index",
            given: index,
            expected: n,
        })?;
        slot.next_opponent = opponent;
        Ok(())
    }

    /// Forgets what the rows of the observation buffer hold, so that the
    /// next call writes each row whole. Each call updates a row in place,
    /// writing only what changed since the observation it holds, so a
    /// caller that writes into the buffer between calls calls this first
    /// (handing over another buffer is noticed without it).
    pub fn forget_observations(&mut self) {
        for slot in &mut self.slots {
            slot.written.forget();
        }
    }

    /// Seeds the batch anew: the next [`BatchEnv::reset`] starts the
    /// episodes of `seed`, as a batch made with it would.
    pub fn reseed(&mut self, seed: u64) {
        self.seed = seed;
    }

    fn check<M: MaskCell>(&self, out: &StepOutput<'_, M>) -> Result<(), EnvError> {
        let n = self.slots.len();
        let sized = |name, given: usize, per: usize, optional: bool| {
            if (optional && given == 0) || given == n * per {
                Ok(())
            } else {
                Err(EnvError::BufferSize {
                    name,
                    given,
                    expected: n * per,
                })
            }
        };
        sized("observations", out.observations.len(), self.tensor, true)?;
        sized("masks", out.masks.len(), self.space, true)?;
        sized("rewards", out.rewards.len(), 2, false)?;
        sized("terminated", out.terminated.len(), 1, false)?;
        sized("truncated", out.truncated.len(), 1, false)?;
        sized("to_move", out.to_move.len(), 1, false)?;
        sized(
            "final_observations",
            out.final_observations.len(),
            2 * self.tensor,
            true,
        )?;
        sized("episode_returns", out.episode_returns.len(), 2, true)?;
        sized("episode_lengths", out.episode_lengths.len(), 1, true)
    }

    fn check_rows(&self, rows: &[bool]) -> Result<(), EnvError> {
        if rows.len() == self.slots.len() {
            Ok(())
        } else {
            Err(EnvError::BufferSize {
                name: "rows",
                given: rows.len(),
                expected: self.slots.len(),
            })
        }
    }

    /// Starts episode 0 of every game (from the batch's seed, so a reset
    /// replays the same games for the same actions) and writes the first
    /// decisions.
    pub fn reset<M: MaskCell>(&mut self, out: &mut StepOutput<'_, M>) -> Result<(), EnvError> {
        self.check(out)?;
        let mut ops = std::mem::take(&mut self.ops);
        ops.clear();
        ops.resize(self.slots.len(), RowOp::Reset { first: true });
        self.execute(ops, out)
    }

    /// Starts the next episode of the games where `rows` is true and
    /// writes their first decisions; the other games do not move (their
    /// rewards, flags and statistics read 0).
    pub fn reset_rows<M: MaskCell>(
        &mut self,
        rows: &[bool],
        out: &mut StepOutput<'_, M>,
    ) -> Result<(), EnvError> {
        self.check(out)?;
        self.check_rows(rows)?;
        let mut ops = std::mem::take(&mut self.ops);
        ops.clear();
        ops.extend(rows.iter().map(|&r| {
            if r {
                RowOp::Reset { first: false }
            } else {
                RowOp::Keep
            }
        }));
        self.execute(ops, out)
    }

    /// Plays `actions[i]` (an action id of the player to move) in game `i`,
    /// then chance events and the built-in bot's decisions until a player
    /// without a bot decides again; a finished game is reset at once and
    /// its first decision written (rewards, flags, the final observations
    /// and the episode's statistics tell that it ended). Refused, with
    /// nothing changed, when an action is illegal: every action is
    /// checked before any game moves. A built-in bot that fails to decide
    /// forfeits that game (terminated, the game's best return to the
    /// other seat, its worst to the bot's) and the step goes on; only a
    /// failure of ours ([`EnvError::Internal`]) or a bot failing at the
    /// very start of a new episode stops a step, and then the games of the
    /// batch are each whole, some stepped and some not.
    pub fn step<M: MaskCell>(
        &mut self,
        actions: &[usize],
        out: &mut StepOutput<'_, M>,
    ) -> Result<(), EnvError> {
        self.step_where(actions, None, out)
    }

    /// [`BatchEnv::step`] in the games where `rows` is true only (the
    /// actions of the others are not read); the other games do not move
    /// and their rewards, flags and statistics read 0. A caller whose
    /// players act on some games only (a Python opponent evaluated on the
    /// batch of games where it is to move) steps those.
    pub fn step_rows<M: MaskCell>(
        &mut self,
        actions: &[usize],
        rows: &[bool],
        out: &mut StepOutput<'_, M>,
    ) -> Result<(), EnvError> {
        self.check_rows(rows)?;
        self.step_where(actions, Some(rows), out)
    }

    fn step_where<M: MaskCell>(
        &mut self,
        actions: &[usize],
        rows: Option<&[bool]>,
        out: &mut StepOutput<'_, M>,
    ) -> Result<(), EnvError> {
        self.check(out)?;
        if actions.len() != self.slots.len() {
            return Err(EnvError::BufferSize {
                name: "actions",
                given: actions.len(),
                expected: self.slots.len(),
            });
        }
        let active = |i: usize| rows.is_none_or(|r| r[i]);
        for (i, (slot, &id)) in self.slots.iter().zip(actions).enumerate() {
            if active(i) {
                slot.state.check_id(id)?;
            }
        }
        let mut ops = std::mem::take(&mut self.ops);
        ops.clear();
        ops.extend(actions.iter().enumerate().map(|(i, &id)| {
            if active(i) {
                RowOp::Play(id)
            } else {
                RowOp::Keep
            }
        }));
        self.execute(ops, out)
    }

    /// Replaces game `index`'s state with `state` (a state of this game,
    /// at a decision of a player without a built-in bot once chance and
    /// the bot have played), counts its episode's steps from 0, and
    /// writes its row; the other games do not move.
    pub fn set_state<M: MaskCell>(
        &mut self,
        index: usize,
        state: Box<dyn DynState>,
        out: &mut StepOutput<'_, M>,
    ) -> Result<(), EnvError> {
        self.check(out)?;
        let n = self.slots.len();
        let slot = self.slots.get_mut(index).ok_or(EnvError::BufferSize {
            name: "game index",
            given: index,
            expected: n,
        })?;
        let mut state = state;
        advance_state(&mut state, slot)?;
        if state.is_terminal() {
            return Err(EnvError::InvalidState(
                "the state is over (or ends before anyone decides): nothing to step".into(),
            ));
        }
        slot.state = state;
        slot.steps = 0;
        let mut ops = std::mem::take(&mut self.ops);
        ops.clear();
        ops.resize(n, RowOp::Keep);
        ops[index] = RowOp::Refresh;
        self.execute(ops, out)
    }

    fn execute<M: MaskCell>(
        &mut self,
        ops: Vec<RowOp>,
        out: &mut StepOutput<'_, M>,
    ) -> Result<(), EnvError> {
        let at = out.observations.as_ptr() as usize;
        if !out.observations.is_empty() && at != self.observations_at {
            self.forget_observations();
            self.observations_at = at;
        }
        let ctx = Context {
            game: self.game.as_ref(),
            seed: self.seed,
            max_steps: self.max_steps,
            tensor: self.tensor,
            space: self.space,
        };
        let out = out.reborrow();
        let slots = &mut self.slots;
        let result = self.pool.install(|| run(slots, out, &ctx, &ops));
        self.ops = ops;
        result
    }
}

struct Context<'a> {
    game: &'a dyn DynGame,
    seed: u64,
    max_steps: Option<u32>,
    tensor: usize,
    space: usize,
}

/// Carries out `ops` on `slots` (and their rows of `out`), splitting the
/// work in halves across the pool.
fn run<M: MaskCell>(
    slots: &mut [Slot],
    out: StepOutput<'_, M>,
    ctx: &Context<'_>,
    ops: &[RowOp],
) -> Result<(), EnvError> {
    if slots.len() > GRAIN {
        let mid = slots.len() / 2;
        let (left, right) = slots.split_at_mut(mid);
        let (out_left, out_right) = out.split_at(mid, ctx.tensor, ctx.space);
        let (ops_left, ops_right) = ops.split_at(mid);
        let (a, b) = rayon::join(
            || run(left, out_left, ctx, ops_left),
            || run(right, out_right, ctx, ops_right),
        );
        return a.and(b);
    }
    let mut out = out;
    for (row, (slot, &op)) in slots.iter_mut().zip(ops).enumerate() {
        step_slot(slot, op, ctx, &mut out, row)?;
    }
    Ok(())
}
