//! The bot scheduler: when a bot seat is due, one task per match decides
//! for it on a blocking thread (at most one decision per core at once),
//! plays the decision like a person's move (stored before anyone sees
//! it), and goes on while a bot is due. A bot that fails (a built-in bot's
//! error, a protocol bot's timeout, crash or illegal choice) forfeits the
//! match, and the forfeit is stored.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use game_env::{DynGame, DynState, EnvError};
use game_traits::PlayerId;

use crate::metrics::Metrics;
use crate::policies::Policies;
use crate::program::Program;
use crate::refusal::MatchError;
use crate::room::{bot_rng, Room};
use crate::seat::Seat;
use crate::server::{Cell, Server};

/// Counts a running bot task while it lives.
struct Driving<'a>(&'a Server);

impl Drop for Driving<'_> {
    fn drop(&mut self) {
        self.0.drivers.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Server {
    /// Starts the bot task of `cell` if a bot is due and none runs.
    pub async fn kick(self: &Arc<Self>, cell: Arc<Cell>) {
        // The write lock orders this check against the task's own "no bot
        // due, stop" below, so a bot due is never missed nor driven twice.
        let room = cell.room().write().await;
        if cell.driving.load(Ordering::Relaxed) || room.bot_due().is_none() {
            return;
        }
        cell.driving.store(true, Ordering::Relaxed);
        self.drivers.fetch_add(1, Ordering::SeqCst);
        drop(room);
        let server = self.clone();
        tokio::spawn(async move { server.drive(cell).await });
    }

    /// Plays the bot seats of `cell` while one is due: each decision
    /// computed on a blocking thread from a copy of the state.
    /// A stopping server stops between two decisions, each one stored.
    async fn drive(self: Arc<Self>, cell: Arc<Cell>) {
        let _counted = Driving(&self);
        loop {
            let mut room = cell.room().write().await;
            // With several processes, the one that claims the match plays
            // this turn (after catching up); the others stop here.
            let _claim = match self.try_own(&cell, &mut room).await {
                Ok(Some(claim)) => claim,
                Ok(None) | Err(_) => {
                    cell.driving.store(false, Ordering::Relaxed);
                    return;
                }
            };
            let Some(seat) = room.bot_due().filter(|_| !self.stopping()) else {
                cell.driving.store(false, Ordering::Relaxed);
                return;
            };
            let step = room.actions().len();
            let state = room.state().clone_box();
            let game = room.game().clone();
            let seed = room.seed();
            let kind = room.seats()[seat.index()].clone();
            let mut cmd_bot = room.cmd_bot(seat).take();
            drop(room);
            let Ok(_slot) = self.bot_slots.acquire().await else {
                return;
            };
            let limit = self.config.cmd_time_limit;
            let policies = self.config.policies.clone();
            let started = std::time::Instant::now();
            let decided = tokio::task::spawn_blocking(move || {
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
            drop(_slot);
            self.metrics.bot_time.observe(started.elapsed());
            let mut room = cell.room().write().await;
            let (choice, cmd_bot) = match decided {
                Ok(pair) => pair,
                Err(e) => (
                    Err(EnvError::Internal(format!("the bot task failed: {e}"))),
                    None,
                ),
            };
            *room.cmd_bot(seat) = cmd_bot;
            if room.actions().len() != step || room.finished() {
                continue;
            }
            // Bots play under the clock: the thinking time is charged,
            // and a decision after the flag is not played.
            let now = tokio::time::Instant::now();
            let clock_before = room.clock().clone();
            let played = match choice {
                _ if room.flag_due(now) == Some(seat) => self.record_flag(&mut room, seat).await,
                Ok(id) => match room.push(id) {
                    Ok(()) => {
                        room.run_chance();
                        room.pass_clock(seat, now);
                        // Nothing acknowledged on failure; the bot plays
                        // again when the match is next touched or restarted.
                        let stored = self.persist(&mut room, step).await;
                        if stored.is_ok() {
                            Metrics::bump(&self.metrics.moves);
                        } else {
                            *room.clock_mut() = clock_before;
                        }
                        stored
                    }
                    Err(e) => {
                        let reason = format!("the bot chose an illegal action: {e}");
                        self.record_forfeit(&mut room, seat, reason).await
                    }
                },
                Err(failure) => {
                    self.record_forfeit(&mut room, seat, failure.to_string())
                        .await
                }
            };
            if played.is_err() {
                cell.driving.store(false, Ordering::Relaxed);
                return;
            }
            cell.announce(&room);
        }
    }

    /// Stores that `seat` forfeits, then marks it in the room.
    pub(crate) async fn record_forfeit(
        &self,
        room: &mut Room,
        seat: PlayerId,
        reason: String,
    ) -> Result<(), MatchError> {
        let (id, r) = (room.id(), reason.clone());
        self.db(move |s| s.forfeit(id, seat.index() as u8, &r))
            .await?;
        room.set_forfeit(seat, reason);
        self.settle(room).await;
        Ok(())
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
