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
use game_traits::{GameRng, PlayerId, Turn};

use crate::dynamic::{DynGame, DynState};
use crate::opponent::{Opponent, OpponentFactory};
use crate::{BotFailure, EnvError};

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

/// How a batch is made.
pub struct BatchConfig {
    /// Number of games stepped together.
    pub games: usize,
    /// Seed of the whole batch.
    pub seed: u64,
    /// Worker threads; 0 for every core.
    pub threads: usize,
    /// A built-in bot that plays this seat in every game, so that the
    /// learner only ever sees the other seat's decisions.
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

/// Where one step's results go: one row per game, rows contiguous. The
/// observation and mask buffers are optional (empty slices skip them).
pub struct StepOutput<'a> {
    /// `games x tensor size`: the tensor of the player to move, or empty.
    pub observations: &'a mut [f32],
    /// `games x action space`: the legal mask of the player to move, or
    /// empty.
    pub masks: &'a mut [bool],
    /// `games x 2`: each seat's reward from this step (its return when the
    /// episode ended in it, else 0).
    pub rewards: &'a mut [f32],
    /// `games`: the episode ended by the rules in this step.
    pub terminated: &'a mut [bool],
    /// `games`: the episode was cut by `max_steps` in this step.
    pub truncated: &'a mut [bool],
    /// `games`: the seat to move now (0 or 1).
    pub to_move: &'a mut [u8],
}

/// Buffers owned by the caller's side for a batch, reused every step.
#[derive(Clone, Debug, Default)]
pub struct StepBuffers {
    /// See [`StepOutput::observations`].
    pub observations: Vec<f32>,
    /// See [`StepOutput::masks`].
    pub masks: Vec<bool>,
    /// See [`StepOutput::rewards`].
    pub rewards: Vec<f32>,
    /// See [`StepOutput::terminated`].
    pub terminated: Vec<bool>,
    /// See [`StepOutput::truncated`].
    pub truncated: Vec<bool>,
    /// See [`StepOutput::to_move`].
    pub to_move: Vec<u8>,
}

impl StepBuffers {
    /// Buffers for `env`, with or without tensors and masks.
    pub fn for_env(env: &BatchEnv, tensors: bool, masks: bool) -> Self {
        let n = env.len();
        StepBuffers {
            observations: vec![0.0; if tensors { n * env.tensor_size() } else { 0 }],
            masks: vec![false; if masks { n * env.action_space() } else { 0 }],
            rewards: vec![0.0; 2 * n],
            terminated: vec![false; n],
            truncated: vec![false; n],
            to_move: vec![0; n],
        }
    }

    /// The buffers as a [`StepOutput`].
    pub fn output(&mut self) -> StepOutput<'_> {
        StepOutput {
            observations: &mut self.observations,
            masks: &mut self.masks,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            to_move: &mut self.to_move,
        }
    }
}

impl<'a> StepOutput<'a> {
    fn split_at(self, games: usize, tensor: usize, space: usize) -> (Self, Self) {
        fn cut<T>(s: &mut [T], at: usize) -> (&mut [T], &mut [T]) {
            let at = at.min(s.len());
            s.split_at_mut(at)
        }
        let (o1, o2) = cut(self.observations, games * tensor);
        let (m1, m2) = cut(self.masks, games * space);
        let (r1, r2) = cut(self.rewards, games * 2);
        let (t1, t2) = cut(self.terminated, games);
        let (u1, u2) = cut(self.truncated, games);
        let (p1, p2) = cut(self.to_move, games);
        (
            StepOutput {
                observations: o1,
                masks: m1,
                rewards: r1,
                terminated: t1,
                truncated: u1,
                to_move: p1,
            },
            StepOutput {
                observations: o2,
                masks: m2,
                rewards: r2,
                terminated: t2,
                truncated: u2,
                to_move: p2,
            },
        )
    }
}

struct Slot {
    index: usize,
    episode: u64,
    steps: u32,
    state: Box<dyn DynState>,
    chance: GameRng,
    opponent: Option<(PlayerId, Box<dyn Opponent>)>,
    opponent_rng: GameRng,
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
    opponent: Option<(PlayerId, OpponentFactory)>,
    tensor: usize,
    space: usize,
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
        let slots = (0..config.games)
            .map(|index| Slot {
                index,
                episode: 0,
                steps: 0,
                state: game.new_state(),
                chance: episode_rng(config.seed, index, 0),
                opponent: config.opponent.as_ref().map(|(seat, make)| (*seat, make())),
                opponent_rng: opponent_rng(config.seed, index, 0),
            })
            .collect();
        Ok(BatchEnv {
            game,
            slots,
            pool,
            seed: config.seed,
            max_steps: config.max_steps,
            opponent: config.opponent,
            tensor,
            space,
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

    /// The state of game `index`.
    pub fn state(&self, index: usize) -> Option<&dyn DynState> {
        self.slots.get(index).map(|s| s.state.as_ref())
    }

    fn check(&self, out: &StepOutput<'_>) -> Result<(), EnvError> {
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
        sized("to_move", out.to_move.len(), 1, false)
    }

    /// Starts a new episode in every game and writes the first decisions.
    pub fn reset(&mut self, out: &mut StepOutput<'_>) -> Result<(), EnvError> {
        self.check(out)?;
        let ctx = Context {
            game: self.game.as_ref(),
            seed: self.seed,
            max_steps: self.max_steps,
            opponent: self.opponent.as_ref(),
            tensor: self.tensor,
            space: self.space,
        };
        let out = reborrow(out);
        let slots = &mut self.slots;
        self.pool.install(|| run(slots, out, &ctx, None))
    }

    /// Plays `actions[i]` (an action id of the player to move) in game `i`,
    /// then chance events and the opponent's decisions until the learner
    /// decides again; a finished game is reset at once and its first
    /// decision written (rewards and flags tell that it ended). Refused,
    /// with nothing changed, when an action is illegal: every action is
    /// checked before any game moves. An opponent bot that fails to decide
    /// forfeits that game (terminated, the game's best return to the
    /// learner's seat, its worst to the bot's) and the step goes on; only a
    /// failure of ours ([`EnvError::Internal`]) or a bot failing at the very
    /// start of a new episode stops a step, and then the games of the batch
    /// are each whole, some stepped and some not.
    pub fn step(&mut self, actions: &[usize], out: &mut StepOutput<'_>) -> Result<(), EnvError> {
        self.check(out)?;
        if actions.len() != self.slots.len() {
            return Err(EnvError::BufferSize {
                name: "actions",
                given: actions.len(),
                expected: self.slots.len(),
            });
        }
        for (slot, &id) in self.slots.iter().zip(actions) {
            slot.state.check_id(id)?;
        }
        let ctx = Context {
            game: self.game.as_ref(),
            seed: self.seed,
            max_steps: self.max_steps,
            opponent: self.opponent.as_ref(),
            tensor: self.tensor,
            space: self.space,
        };
        let out = reborrow(out);
        let slots = &mut self.slots;
        self.pool.install(|| run(slots, out, &ctx, Some(actions)))
    }
}

fn reborrow<'b>(out: &'b mut StepOutput<'_>) -> StepOutput<'b> {
    StepOutput {
        observations: out.observations,
        masks: out.masks,
        rewards: out.rewards,
        terminated: out.terminated,
        truncated: out.truncated,
        to_move: out.to_move,
    }
}

struct Context<'a> {
    game: &'a dyn DynGame,
    seed: u64,
    max_steps: Option<u32>,
    opponent: Option<&'a (PlayerId, OpponentFactory)>,
    tensor: usize,
    space: usize,
}

/// Steps `slots` (and their rows of `out`), splitting the work in halves
/// across the pool.
fn run(
    slots: &mut [Slot],
    out: StepOutput<'_>,
    ctx: &Context<'_>,
    actions: Option<&[usize]>,
) -> Result<(), EnvError> {
    if slots.len() > GRAIN {
        let mid = slots.len() / 2;
        let (left, right) = slots.split_at_mut(mid);
        let (out_left, out_right) = out.split_at(mid, ctx.tensor, ctx.space);
        let (acts_left, acts_right) = match actions {
            Some(a) => {
                let (l, r) = a.split_at(mid);
                (Some(l), Some(r))
            }
            None => (None, None),
        };
        let (a, b) = rayon::join(
            || run(left, out_left, ctx, acts_left),
            || run(right, out_right, ctx, acts_right),
        );
        return a.and(b);
    }
    let mut out = out;
    for (i, slot) in slots.iter_mut().enumerate() {
        step_slot(slot, actions.map(|a| a[i]), ctx, &mut out, i)?;
    }
    Ok(())
}

/// Plays the learner's `action` (none at a reset), then chance and the
/// opponent until the learner decides; resets a finished episode; writes
/// row `row` of `out`.
fn step_slot(
    slot: &mut Slot,
    action: Option<usize>,
    ctx: &Context<'_>,
    out: &mut StepOutput<'_>,
    row: usize,
) -> Result<(), EnvError> {
    let mut rewards = [0.0f32; 2];
    let (mut terminated, mut truncated) = (false, false);
    match action {
        None => new_episode(slot, ctx, 0),
        Some(id) => {
            slot.state.apply_id(id)?;
            slot.steps += 1;
            // The opponent's bot failing to decide (a crash, a timeout, an
            // illegal choice) forfeits its game, as in the arena: this
            // slot's episode ends with the loss, and no other slot is
            // touched by it, so a step never stops half-way.
            let forfeit = match advance(slot) {
                Ok(()) => None,
                Err(EnvError::Bot { .. }) => slot.opponent.as_ref().map(|(seat, _)| *seat),
                Err(e) => return Err(e),
            };
            if forfeit.is_some() || slot.state.is_terminal() {
                terminated = true;
            } else if ctx.max_steps.is_some_and(|m| slot.steps >= m) {
                truncated = true;
            }
            if terminated || truncated {
                let r = match forfeit {
                    Some(loser) => forfeit_returns(ctx.game, loser),
                    None => slot.state.returns(),
                };
                rewards = [r[0] as f32, r[1] as f32];
                let next = slot.episode + 1;
                new_episode(slot, ctx, next);
            }
        }
    }
    advance(slot)?;
    let seat = match slot.state.turn() {
        Turn::Player(p) => p,
        // A game that ends before any decision (none here does) is shown
        // from seat 0 with an empty mask.
        _ => PlayerId::P0,
    };
    out.rewards[2 * row] = rewards[0];
    out.rewards[2 * row + 1] = rewards[1];
    out.terminated[row] = terminated;
    out.truncated[row] = truncated;
    out.to_move[row] = seat.index() as u8;
    if !out.observations.is_empty() {
        let tensor = ctx.tensor;
        slot.state.encode(
            seat,
            &mut out.observations[row * tensor..(row + 1) * tensor],
        )?;
    }
    if !out.masks.is_empty() {
        let space = ctx.space;
        let mask = &mut out.masks[row * space..(row + 1) * space];
        if slot.state.is_terminal() {
            mask.fill(false);
        } else {
            slot.state.write_mask_mut(mask)?;
        }
    }
    Ok(())
}

/// Both seats' returns when `loser` forfeits: the game's worst return for
/// him, its best for the other seat.
fn forfeit_returns(game: &dyn DynGame, loser: PlayerId) -> [f64; 2] {
    let info = game.info();
    let mut returns = [info.max_return; 2];
    returns[loser.index()] = info.min_return;
    returns
}

fn new_episode(slot: &mut Slot, ctx: &Context<'_>, episode: u64) {
    slot.episode = episode;
    slot.steps = 0;
    slot.state = ctx.game.new_state();
    slot.chance = episode_rng(ctx.seed, slot.index, episode);
    slot.opponent_rng = opponent_rng(ctx.seed, slot.index, episode);
    if let (Some((_, make)), Some((_, bot))) = (ctx.opponent, slot.opponent.as_mut()) {
        // A fresh bot each episode: nothing carries over between games.
        *bot = make();
    }
}

/// Chance events and the opponent's decisions until the learner decides
/// or the game ends.
fn advance(slot: &mut Slot) -> Result<(), EnvError> {
    loop {
        match slot.state.turn() {
            Turn::Chance => {
                slot.state.play_chance(&mut slot.chance);
            }
            Turn::Player(p) => match slot.opponent.as_mut() {
                Some((seat, bot)) if *seat == p => {
                    let id = bot.choose(slot.state.as_ref(), p, &mut slot.opponent_rng)?;
                    slot.state.apply_id(id).map_err(|_| EnvError::Bot {
                        bot: bot.name(),
                        failure: BotFailure::Illegal(id as u64),
                    })?;
                }
                _ => return Ok(()),
            },
            Turn::Terminal => return Ok(()),
        }
    }
}
