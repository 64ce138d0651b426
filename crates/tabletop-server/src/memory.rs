//! The matches in memory, each in a [`Cell`]. Memory holds only the
//! matches in use: a match enters when it is created, when a bot is due in
//! it at start, or when it is asked for (rebuilt from its record by the
//! server); [`Memory::sweep`] drops the finished ones and the idle ones
//! that no request, WebSocket or bot holds. A client's unfinished matches
//! are capped: a creation takes a place ([`Memory::reserve`]) before it
//! stores anything, checked and taken under one lock.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use tokio::sync::watch;

use crate::client::ClientKey;
use crate::room::Room;

/// What a sweep took out of memory.
#[derive(Default)]
pub(crate) struct Swept {
    /// How many matches left.
    pub gone: usize,
    /// The finished ones among them, whose final views are to be stored.
    pub finished: Vec<Arc<Cell>>,
}

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
    /// The client that created it (for the limit of matches per client);
    /// none for a match rebuilt from its record or imported.
    owner: Option<ClientKey>,
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
    /// The places reserved by creations under way, by client. Reserving
    /// and inserting take this lock first, so a place is counted once:
    /// reserved, or in `rooms`.
    reserved: Mutex<HashMap<ClientKey, usize>>,
    epoch: Instant,
}

/// A place for one more match of a client, reserved until the match is
/// inserted ([`Memory::insert`]) or the creation fails (dropped).
pub(crate) struct Place<'a> {
    memory: &'a Memory,
    /// The client; `None` once the place is taken by its match.
    client: Option<ClientKey>,
}

impl Drop for Place<'_> {
    fn drop(&mut self) {
        if let Some(client) = self.client {
            release(&mut self.memory.reserved(), client);
        }
    }
}

/// Frees one place reserved by `client`.
fn release(reserved: &mut HashMap<ClientKey, usize>, client: ClientKey) {
    if let Some(n) = reserved.get_mut(&client) {
        *n -= 1;
        if *n == 0 {
            reserved.remove(&client);
        }
    }
}

impl Default for Memory {
    fn default() -> Memory {
        Memory {
            rooms: RwLock::new(HashMap::new()),
            loading: tokio::sync::Mutex::new(()),
            reserved: Mutex::new(HashMap::new()),
            epoch: Instant::now(),
        }
    }
}

impl Memory {
    fn now_ms(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn reserved(&self) -> std::sync::MutexGuard<'_, HashMap<ClientKey, usize>> {
        self.reserved.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A place for one more unfinished match of `client`, if it has fewer
    /// than `most` (0: no limit) in memory and reserved; `None` if not.
    pub(crate) fn reserve(&self, client: ClientKey, most: usize) -> Option<Place<'_>> {
        let mut reserved = self.reserved();
        let pending = reserved.get(&client).copied().unwrap_or(0);
        if most != 0 && self.live_of(client) + pending >= most {
            return None;
        }
        reserved.insert(client, pending + 1);
        Some(Place {
            memory: self,
            client: Some(client),
        })
    }

    /// Puts `room` in memory under its id: the match of the client whose
    /// `place` it takes, or nobody's.
    pub(crate) fn insert(&self, room: Room, mut place: Option<Place<'_>>) -> Arc<Cell> {
        let id = room.id();
        let owner = place.as_mut().and_then(|p| p.client.take());
        // Held until the room is in: a reservation counts the match here
        // or as its place, never both nor neither.
        let mut reserved = owner.map(|_| self.reserved());
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
        if let (Some(reserved), Some(client)) = (reserved.as_mut(), owner) {
            release(reserved, client);
        }
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
    fn live_of(&self, client: ClientKey) -> usize {
        self.rooms
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .values()
            .filter(|c| c.owner == Some(client) && !c.finished.load(Ordering::Relaxed))
            .count()
    }

    /// Drops the matches nobody holds (no request, WebSocket or bot task
    /// has their cell) that are over or unused for longer than `idle`.
    /// Returns how many left.
    pub(crate) fn sweep(&self, idle: Duration) -> Swept {
        let now = self.now_ms();
        let idle = u64::try_from(idle.as_millis()).unwrap_or(u64::MAX);
        let mut rooms = self.rooms.write().unwrap_or_else(|p| p.into_inner());
        let mut swept = Swept::default();
        // The count is read under the map's write lock: no one can take a
        // new handle on a cell meanwhile.
        rooms.retain(|_, c| {
            let finished = c.finished.load(Ordering::Relaxed);
            let stays = Arc::strong_count(c) > 1
                || !(finished || now.saturating_sub(c.last_used.load(Ordering::Relaxed)) > idle);
            if !stays {
                swept.gone += 1;
                if finished {
                    swept.finished.push(c.clone());
                }
            }
            stays
        });
        if rooms.capacity() > 2 * rooms.len() + 64 {
            rooms.shrink_to_fit();
        }
        swept
    }

    /// Matches in memory now.
    pub fn count(&self) -> usize {
        self.rooms.read().unwrap_or_else(|p| p.into_inner()).len()
    }
}
