//! Several server processes on one PostgreSQL database (nothing of this
//! runs on SQLite, where one process owns the file).
//!
//! - A process writes a match only while it claims it ([`Server::own`]:
//!   an advisory lock of its claim session), and brings its copy up to
//!   date from the stored actions before it validates a move, so two
//!   processes never both append step N. A person's move waits for the
//!   claim; a bot turn is played by the process that claims it, once.
//! - Every request brings the match in memory up to date first
//!   ([`Server::refresh`]), and each change committed by a process is
//!   heard by the others (`LISTEN/NOTIFY`), which bring their copy up to
//!   date and push it to their WebSockets ([`Server::follow_others`]).
//! - A process that dies loses its claims with its connection; every
//!   second each process looks for bot turns due that no process claims
//!   and plays them ([`Server::take_over`]). What a dead process
//!   acknowledged was committed, so its successor replays it.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use game_traits::PlayerId;

use crate::clock::Clock;
use crate::memory::Cell;
use crate::refusal::{MatchError, ReplayError};
use crate::room::Room;
use crate::server::Server;
use crate::store::{Change, Store, Tail};

/// How long a person's move waits for another process's claim (a bot
/// deciding there) before a 503.
const CLAIM_WAIT: Duration = Duration::from_secs(30);
/// How often a process looks for bot turns no process plays.
const TAKEOVER_EVERY: Duration = Duration::from_secs(1);

/// This process's claim on a match, released when dropped (a no-op on
/// SQLite).
pub(crate) struct Claim {
    held: Option<(Arc<Store>, i64)>,
}

impl Drop for Claim {
    fn drop(&mut self) {
        let Some((store, id)) = self.held.take() else {
            return;
        };
        let release = move || {
            if let Some(shared) = store.shared() {
                // A release that fails leaves the lock to the session,
                // which a reconnection or the process's end closes.
                let _ = shared.release(id);
            }
        };
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => drop(runtime.spawn_blocking(release)),
            Err(_) => release(),
        }
    }
}

/// Applies to `room` what `tail` (read from step `from`) holds beyond it.
fn apply(room: &mut Room, from: usize, tail: Tail) -> Result<bool, ReplayError> {
    let before = room.version();
    for (i, action) in tail.actions.into_iter().enumerate() {
        let step = from + i;
        if step < room.actions().len() {
            continue;
        }
        room.push(action).map_err(|error| ReplayError {
            id: room.id(),
            step,
            action,
            error,
        })?;
    }
    if let Some((seat, reason)) = tail.forfeit {
        if room.forfeit().is_none() {
            if let Some(seat) = PlayerId::from_index(usize::from(seat)) {
                room.set_forfeit(seat, reason);
            }
        }
    }
    if tail.agreed_draw && !room.agreed_draw() {
        room.set_agreed_draw();
    }
    // A seat another process opened, seated or closed, a rematch it made:
    // told to the watchers though the version stays.
    let offer = tail
        .draw_offer
        .and_then(|s| PlayerId::from_index(usize::from(s)));
    let offer_changed = offer != room.draw_offer();
    room.set_draw_offer(offer);
    let lobby_changed = room.set_lobby(tail.lobby) | room.reseal(&tail.tokens) | offer_changed;
    // The clocks another process wrote (a finished match's stay stopped).
    if let Some(clock) = tail
        .clock
        .as_deref()
        .filter(|_| !room.finished())
        .and_then(|text| {
            Clock::from_stored(text, tokio::time::Instant::now(), crate::clock::unix_ms())
        })
    {
        *room.clock_mut() = clock;
    }
    Ok(room.version() != before || lobby_changed)
}

impl Server {
    /// Claims the match of `cell`, whose `room` the caller holds written,
    /// for this process, waiting for
    /// another process's claim at most [`CLAIM_WAIT`], and brings it up
    /// to date with the stored record.
    pub(crate) async fn own(&self, cell: &Cell, room: &mut Room) -> Result<Claim, MatchError> {
        let deadline = Instant::now() + CLAIM_WAIT;
        loop {
            if let Some(claim) = self.try_own(cell, room).await? {
                return Ok(claim);
            }
            if Instant::now() >= deadline {
                return Err(MatchError::Busy(room.id()));
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    /// Claims the match of `cell`, whose `room` the caller holds written,
    /// if no other process holds it, and brings it up to date (telling
    /// its watchers); `None` if another process holds it.
    pub(crate) async fn try_own(
        &self,
        cell: &Cell,
        room: &mut Room,
    ) -> Result<Option<Claim>, MatchError> {
        if self.store.shared().is_none() {
            return Ok(Some(Claim { held: None }));
        }
        let id = room.id();
        let claimed = self
            .db(move |s| s.shared().map_or(Ok(true), |c| c.claim(id)))
            .await?;
        if !claimed {
            return Ok(None);
        }
        let claim = Claim {
            held: Some((self.store.clone(), id)),
        };
        let from = room.actions().len();
        let tail = self.db(move |s| s.tail(id, from)).await?;
        if apply(room, from, tail)? {
            cell.announce(room);
        }
        Ok(Some(claim))
    }

    /// Brings the match of `cell` up to date with what other processes
    /// stored, and tells its watchers if it changed.
    pub(crate) async fn refresh(&self, cell: &Cell) -> Result<(), MatchError> {
        if self.store.shared().is_none() {
            return Ok(());
        }
        let (id, from, forfeited, drawn, lobby, offer) = {
            let room = cell.room().read().await;
            let r = &room;
            (
                r.id(),
                r.actions().len(),
                r.forfeit().is_some(),
                r.agreed_draw(),
                r.lobby(),
                r.draw_offer().map(|p| p.index() as u8),
            )
        };
        let tail = self.db(move |s| s.tail(id, from)).await?;
        // The seals change only with the lobby (a seat taken).
        if tail.actions.is_empty()
            && tail.forfeit.is_some() == forfeited
            && tail.agreed_draw == drawn
            && tail.lobby == lobby
            && tail.draw_offer == offer
        {
            return Ok(());
        }
        let mut room = cell.room().write().await;
        if apply(&mut room, from, tail)? {
            cell.announce(&room);
        }
        Ok(())
    }

    /// On PostgreSQL, starts following the other processes: their changes
    /// brought into the matches in memory (and so to their WebSockets),
    /// and every [`TAKEOVER_EVERY`] the bot turns nobody plays taken over.
    pub(crate) fn follow_others(self: &Arc<Self>) {
        let Some(mut changes) = self.store.shared().and_then(|s| s.changes()) else {
            return;
        };
        let weak = Arc::downgrade(self);
        tokio::spawn(async move {
            while let Some(change) = changes.recv().await {
                let Some(server) = weak.upgrade() else { return };
                let cells = match change {
                    Change::Match { id, version: v } => server
                        .memory
                        .cached(id)
                        .into_iter()
                        .filter(|c| *c.subscribe().borrow() < v)
                        .collect(),
                    Change::Missed => server.memory.cells(),
                };
                for cell in cells {
                    // A failure leaves the copy behind; the next request
                    // or notice brings it up to date.
                    let _ = server.refresh(&cell).await;
                }
            }
        });
        let weak = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(TAKEOVER_EVERY).await;
                let Some(server) = weak.upgrade() else { return };
                if server.stopping() {
                    return;
                }
                server.take_over().await;
            }
        });
    }

    /// Plays the bot turns due that no process claims (their process
    /// died, or stopped between two turns).
    pub(crate) async fn take_over(self: &Arc<Self>) {
        let Ok(due) = self
            .db(|s| s.shared().map_or(Ok(Vec::new()), |c| c.bots_due()))
            .await
        else {
            return;
        };
        for id in due {
            if self
                .memory
                .cached(id)
                .is_some_and(|c| c.driving.load(Ordering::Relaxed))
            {
                continue;
            }
            let free = self
                .db(move |s| match s.shared() {
                    Some(c) if c.claim(id)? => c.release(id).map(|()| true),
                    _ => Ok(false),
                })
                .await;
            if !matches!(free, Ok(true)) {
                continue;
            }
            if let Ok(Some(cell)) = self.cell(id).await {
                self.kick(cell).await;
            }
        }
    }
}
