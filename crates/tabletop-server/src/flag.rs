//! The flag falls without a request: while a seat's clock runs, one task
//! per match sleeps until that seat's time runs out (woken earlier by
//! every change of the match, which may move the deadline), then records
//! the flag. A check when someone reads the match and a periodic sweep
//! would let a flag hang until the next request or sweep; a timer per
//! running clock ends the match on time and costs one sleeping task.
//!
//! The task holds the match's cell, so the idle sweep keeps a match whose
//! clock runs in memory until it ends (at most the control's base time
//! per seat and move).

use std::sync::atomic::Ordering;
use std::sync::{Arc, Weak};

use game_traits::PlayerId;

use crate::clock::{self, TIME};
use crate::memory::Cell;
use crate::refusal::MatchError;
use crate::room::Room;
use crate::server::Server;

impl Server {
    /// Starts the flag task of `cell` if none runs (it ends at once if no
    /// clock runs).
    pub(crate) fn watch_flag(self: &Arc<Self>, cell: Arc<Cell>) {
        if cell.timing.swap(true, Ordering::SeqCst) {
            return;
        }
        let weak = Arc::downgrade(self);
        tokio::spawn(watch(weak, cell));
    }

    /// Records that `seat`'s flag fell in `room`: its time at zero and the
    /// clocks stored, then a forfeit with the reason [`TIME`].
    pub(crate) async fn record_flag(
        &self,
        room: &mut Room,
        seat: PlayerId,
    ) -> Result<(), MatchError> {
        room.clock_mut().fall(seat);
        let now = tokio::time::Instant::now();
        let stored = room.clock().stored(now, clock::unix_ms());
        let id = room.id();
        self.db(move |s| s.set_clock(id, stored.as_deref())).await?;
        self.record_forfeit(room, seat, TIME.to_owned()).await
    }

    /// Lets the flag of `cell` fall if its time ran out.
    async fn fall_flag(&self, cell: &Cell) -> Result<(), MatchError> {
        let mut room = cell.room().write().await;
        let _claim = self.own(cell, &mut room).await?;
        let Some(seat) = room.flag_due(tokio::time::Instant::now()) else {
            return Ok(());
        };
        self.record_flag(&mut room, seat).await?;
        cell.announce(&room);
        Ok(())
    }
}

/// Sleeps until the running clock's deadline or a change of the match,
/// and lets the flag fall when due; ends once no clock runs (marked under
/// the room's lock, so that a clock started meanwhile starts a new task).
async fn watch(server: Weak<Server>, cell: Arc<Cell>) {
    let mut changed = cell.subscribe();
    loop {
        let deadline = {
            let room = cell.room().read().await;
            match room.clock().deadline().filter(|_| !room.finished()) {
                Some(deadline) => deadline,
                None => {
                    cell.timing.store(false, Ordering::SeqCst);
                    return;
                }
            }
        };
        tokio::select! {
            () = tokio::time::sleep_until(deadline) => {
                let Some(server) = server.upgrade() else {
                    cell.timing.store(false, Ordering::SeqCst);
                    return;
                };
                if server.fall_flag(&cell).await.is_err() {
                    // The store failed: tried again after a pause (a move
                    // meanwhile is refused for the same time out).
                    tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                }
            }
            r = changed.changed() => {
                if r.is_err() {
                    cell.timing.store(false, Ordering::SeqCst);
                    return;
                }
            }
        }
    }
}
