//! Bot seats' turns: when a bot seat is due, one task per match has the
//! bot runner ([`crate::bots`]) decide for it, plays the decision like a
//! person's move (stored before anyone sees it), and goes on while a bot
//! is due. A bot that fails (a built-in bot's error, a protocol bot's
//! timeout, crash or illegal choice) forfeits the match, and the forfeit
//! is stored.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use crate::bots::{Decided, Decision};
use crate::memory::Cell;
use crate::metrics::Metrics;
use crate::server::Server;

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
        self.bots.begin();
        drop(room);
        let server = self.clone();
        tokio::spawn(async move { server.drive(cell).await });
    }

    /// Plays the bot seats of `cell` while one is due: each decision
    /// computed on a blocking thread from a copy of the state.
    /// A stopping server stops between two decisions, each one stored.
    async fn drive(self: Arc<Self>, cell: Arc<Cell>) {
        let _counted = self.bots.counted();
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
            let cmd_bot = room.cmd_bot(seat).take();
            drop(room);
            let Some(Decided {
                choice,
                cmd_bot,
                took,
            }) = self
                .bots
                .decide(Decision {
                    game,
                    kind,
                    cmd_bot,
                    policies: self.config.policies.clone(),
                    state,
                    seat,
                    seed,
                    step,
                    limit: self.config.cmd_time_limit,
                })
                .await
            else {
                return;
            };
            self.metrics.bot_time.observe(took);
            let mut room = cell.room().write().await;
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
}
