//! The matches in memory, each in a [`Cell`]. Memory holds only the
//! matches in use: a match enters when it is created, when a bot is due in
//! it at start, or when it is asked for (rebuilt from its record by the
//! server); [`Memory::sweep`] drops the finished ones and the idle ones
//! that no request, WebSocket or bot holds.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use tokio::sync::watch;

use crate::limits::ClientAddr;
use crate::room::Room;

/// One match and the channel that tells its watchers it changed.
pub struct Cell {
    /// The match: views and seat checks read it under a shared lock, so
    /// that GETs, WebSocket pushes and bot turns do not queue behind each
    /// other; moves write it.
    room: tokio::sync::RwLock<Room>,
    /// Bumped after every change (the WebSocket pushes a view then).
    changed: watch::Sender<u64>,
    /// Whether a task is deciding for a bot seat now; read and written
    /// only under the room's write lock, so that a bot due is never missed
    /// nor driven twice ([`crate::bots`]).
    pub(crate) driving: AtomicBool,
    /// Whether a task waits for the running clock's flag
    /// ([`crate::flag`]).
    pub(crate) timing: AtomicBool,
    /// Whether the match is over (read by the sweep without the lock).
    finished: AtomicBool,
    /// When the match was last asked for, in milliseconds since memory
    /// was made.
    last_used: AtomicU64,
    /// The client that created it (for the limit of matches per client).
    owner: ClientAddr,
}

impl Cell {
    /// The match, behind its lock.
    pub fn room(&self) -> &tokio::sync::RwLock<Room> {
        &self.room
    }

    /// A receiver told the version after every change.
    pub fn subscribe(&self) -> watch::Receiver<u64> {
        self.changed.subscribe()
    }

    /// Tells the watchers that `room` (this cell's, just changed) is at a
    /// new version.
    pub(crate) fn announce(&self, room: &Room) {
        self.finished.store(room.finished(), Ordering::Relaxed);
        self.changed.send_replace(room.version());
    }
}

/// The matches in memory, by id.
pub struct Memory {
    rooms: RwLock<HashMap<i64, Arc<Cell>>>,
    /// Held while a match is rebuilt from the store, so that two requests
    /// for it never build two copies.
    loading: tokio::sync::Mutex<()>,
    epoch: Instant,
}

impl Default for Memory {
    fn default() -> Memory {
        Memory {
            rooms: RwLock::new(HashMap::new()),
            loading: tokio::sync::Mutex::new(()),
            epoch: Instant::now(),
        }
    }
}

impl Memory {
    fn now_ms(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Puts `room`, created by `owner`, in memory under its id.
    pub(crate) fn insert(&self, room: Room, owner: ClientAddr) -> Arc<Cell> {
        let id = room.id();
        let (changed, _) = watch::channel(room.actions().len() as u64);
        let cell = Arc::new(Cell {
            finished: AtomicBool::new(room.finished()),
            room: tokio::sync::RwLock::new(room),
            changed,
            driving: AtomicBool::new(false),
            timing: AtomicBool::new(false),
            last_used: AtomicU64::new(self.now_ms()),
            owner,
        });
        self.rooms
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id, cell.clone());
        cell
    }

    /// The match `id` if it is in memory (marked used now).
    pub(crate) fn cached(&self, id: i64) -> Option<Arc<Cell>> {
        let cell = self
            .rooms
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .get(&id)
            .cloned()?;
        cell.last_used.store(self.now_ms(), Ordering::Relaxed);
        Some(cell)
    }

    /// Waits until no other match is being rebuilt, and holds that until
    /// the guard drops.
    pub(crate) async fn loading(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.loading.lock().await
    }

    /// Every match in memory.
    pub(crate) fn cells(&self) -> Vec<Arc<Cell>> {
        self.rooms
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .values()
            .cloned()
            .collect()
    }

    /// Unfinished matches in memory that `client` created.
    pub(crate) fn live_of(&self, client: ClientAddr) -> usize {
        self.rooms
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .values()
            .filter(|c| c.owner == client && !c.finished.load(Ordering::Relaxed))
            .count()
    }

    /// Drops the matches nobody holds (no request, WebSocket or bot task
    /// has their cell) that are over or unused for longer than `idle`.
    /// Returns how many left.
    pub(crate) fn sweep(&self, idle: Duration) -> usize {
        let now = self.now_ms();
        let idle = u64::try_from(idle.as_millis()).unwrap_or(u64::MAX);
        let mut rooms = self.rooms.write().unwrap_or_else(|p| p.into_inner());
        let before = rooms.len();
        // The count is read under the map's write lock: no one can take a
        // new handle on a cell meanwhile.
        rooms.retain(|_, c| {
            Arc::strong_count(c) > 1
                || !(c.finished.load(Ordering::Relaxed)
                    || now.saturating_sub(c.last_used.load(Ordering::Relaxed)) > idle)
        });
        let gone = before - rooms.len();
        if rooms.capacity() > 2 * rooms.len() + 64 {
            rooms.shrink_to_fit();
        }
        gone
    }

    /// Matches in memory now.
    pub fn count(&self) -> usize {
        self.rooms.read().unwrap_or_else(|p| p.into_inner()).len()
    }
}
