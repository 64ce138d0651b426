//! The bot runner: a bot seat's decision, made on a blocking thread with
//! at most one decision per core at once, so that bots queue instead of
//! starving the request handlers; and the count of the bot tasks running,
//! which a stopping server waits for. Playing the decision into the match
//! is the match service's (`turns.rs`).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use game_env::{DynGame, DynState, EnvError};
use game_traits::PlayerId;
use tokio::sync::Semaphore;

use crate::policies::Policies;
use crate::program::Program;
use crate::room::bot_rng;
use crate::seat::Seat;

/// The bot runner's own state: the cores bots may use at once, and the
/// bot tasks running.
pub struct BotRunner {
    /// Bot decisions running at once (one per core), so that bots queue
    /// instead of starving the request handlers.
    slots: Semaphore,
    /// Bot tasks running (a shutdown waits for them to store their move).
    drivers: AtomicUsize,
}

impl BotRunner {
    /// A runner deciding on at most `cores` threads at once.
    pub fn new(cores: usize) -> BotRunner {
        BotRunner {
            slots: Semaphore::new(cores),
            drivers: AtomicUsize::new(0),
        }
    }

    /// Counts a bot task about to start; its [`Driving`] uncounts it.
    pub(crate) fn begin(&self) {
        self.drivers.fetch_add(1, Ordering::SeqCst);
    }

    /// Counts a bot task until the guard drops (its start was counted by
    /// [`BotRunner::begin`]).
    pub(crate) fn counted(&self) -> Driving<'_> {
        Driving(self)
    }

    /// Decides for a bot seat once a core is free; the seat's program
    /// comes back with the choice, and how long the decision took (the
    /// wait for a core aside). `None` if the runner takes no more work.
    pub(crate) async fn decide(&self, job: Decision) -> Option<Decided> {
        let _slot = self.slots.acquire().await.ok()?;
        let started = Instant::now();
        let decided = tokio::task::spawn_blocking(move || {
            let Decision {
                game,
                kind,
                mut cmd_bot,
                policies,
                state,
                seat,
                seed,
                step,
                limit,
            } = job;
            let choice = decide(
                &game,
                &kind,
                &mut cmd_bot,
                &policies,
                &*state,
                seat,
                seed,
                step,
                limit,
            );
            (choice, cmd_bot)
        })
        .await;
        let (choice, cmd_bot) = match decided {
            Ok(pair) => pair,
            Err(e) => (
                Err(EnvError::Internal(format!("the bot task failed: {e}"))),
                None,
            ),
        };
        Some(Decided {
            choice,
            cmd_bot,
            took: started.elapsed(),
        })
    }

    /// Waits until no bot task runs, at most `limit`; whether none runs.
    pub async fn stopped(&self, limit: Duration) -> bool {
        let deadline = Instant::now() + limit;
        while self.drivers.load(Ordering::SeqCst) > 0 {
            if Instant::now() >= deadline {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        true
    }
}

/// A bot seat's turn to decide: the game, the seat's kind and program,
/// the server's policies, a copy of the state, and what seeds and limits
/// the decision.
pub(crate) struct Decision {
    pub game: Arc<dyn DynGame>,
    pub kind: Seat,
    pub cmd_bot: Option<Program>,
    pub policies: Policies,
    pub state: Box<dyn DynState>,
    pub seat: PlayerId,
    pub seed: u64,
    pub step: usize,
    pub limit: Duration,
}

/// A decision made: the choice (or why there is none), the seat's
/// program to keep, and how long it took.
pub(crate) struct Decided {
    pub choice: Result<usize, EnvError>,
    pub cmd_bot: Option<Program>,
    pub took: Duration,
}

/// Counts a running bot task while it lives.
pub(crate) struct Driving<'a>(&'a BotRunner);

impl Drop for Driving<'_> {
    fn drop(&mut self) {
        self.0.drivers.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A bot seat's decision: a built-in bot made afresh with the seeded
/// generator of this step (so a replay decides the same), or the seat's
/// program (started if needed), or the policy of the server's shelf.
#[allow(clippy::too_many_arguments)]
fn decide(
    game: &Arc<dyn DynGame>,
    seat_kind: &Seat,
    cmd_bot: &mut Option<Program>,
    policies: &Policies,
    state: &dyn DynState,
    seat: PlayerId,
    seed: u64,
    step: usize,
    limit: Duration,
) -> Result<usize, EnvError> {
    match seat_kind {
        Seat::Bot(spec) => {
            let mut bot = game.bot(*spec)?;
            let mut rng = bot_rng(seed, seat, step);
            bot.choose(state, seat, &mut rng)
        }
        Seat::Cmd(argv) => Program::started(cmd_bot, || Program::json(game.as_ref(), argv, limit))?
            .decide(state, seat, &mut bot_rng(seed, seat, step)),
        Seat::Legacy { prefix, argv } => Program::started(cmd_bot, || {
            Program::legacy(game.as_ref(), prefix, argv, limit)
        })?
        .decide(state, seat, &mut bot_rng(seed, seat, step)),
        Seat::Policy(name) => policies.decide(
            name,
            game.as_ref(),
            state,
            seat,
            &mut bot_rng(seed, seat, step),
        ),
        Seat::Human => Err(EnvError::NoDecision),
    }
}
