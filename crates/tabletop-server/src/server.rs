//! The server: the registry, the store, the configuration and the matches
//! in memory, each in a [`Cell`]. A match enters memory when it is created
//! or imported, or rebuilt from its record ([`Server::open`]); every other
//! module reaches a match through [`Server::cell`], so that a later bound
//! on memory can drop matches here and rebuild them from the store.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, RwLock};

use game_env::Registry;
use game_traits::PlayerId;
use tokio::sync::{watch, Semaphore};

use crate::config::Config;
use crate::error::StartError;
use crate::room::Room;
use crate::seat::Seat;
use crate::store::{Store, StoreError, StoredMatch};
use crate::token::Token;

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

    /// Tells the watchers that the match is now at `version`.
    pub(crate) fn announce(&self, version: u64) {
        self.changed.send_replace(version);
    }
}

/// The server: the registry, the database and every match.
pub struct Server {
    pub(crate) registry: Registry,
    pub(crate) store: Arc<Store>,
    rooms: RwLock<HashMap<i64, Arc<Cell>>>,
    pub(crate) config: Config,
    /// Bot decisions running at once (one per core), so that bots queue
    /// instead of starving the request handlers.
    pub(crate) bot_slots: Semaphore,
}

/// Runs a store call on a blocking thread (SQLite blocks).
pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> Result<T, StoreError> {
    tokio::task::spawn_blocking(f).await?
}

impl Server {
    /// Opens the database of `config` and replays every stored match from
    /// `registry`; bots due to move resume once [`Server::resume`] runs.
    pub fn open(registry: Registry, config: Config) -> Result<Arc<Server>, StartError> {
        let db_err = |source: StoreError| StartError::Database {
            path: config.db.display().to_string(),
            source,
        };
        let store = Store::open(&config.db, config.fsync).map_err(db_err)?;
        let stored = store.all().map_err(db_err)?;
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let server = Server {
            registry,
            store: Arc::new(store),
            rooms: RwLock::new(HashMap::new()),
            config,
            bot_slots: Semaphore::new(cores),
        };
        for m in stored {
            let room = server.room_of(m)?;
            server.insert(room);
        }
        Ok(Arc::new(server))
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The registry.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The match of record `m`, replayed.
    fn room_of(&self, m: StoredMatch) -> Result<Room, StartError> {
        let id = m.id;
        let game = self
            .registry
            .load(&m.spec)
            .map_err(|source| StartError::Game { id, source })?;
        let seat = |i: usize| {
            Seat::parse(&m.seats[i], true).map_err(|e| StartError::Seat {
                id,
                source: Box::new(e),
            })
        };
        let seats = [seat(0)?, seat(1)?];
        let tokens = [0, 1].map(|i| m.tokens[i].as_deref().and_then(Token::parse));
        let forfeit = m
            .forfeit
            .and_then(|(s, r)| PlayerId::from_index(s as usize).map(|p| (p, r)));
        Ok(Room::replay(
            id, game, m.seed, seats, tokens, &m.actions, forfeit,
        )?)
    }

    /// Puts `room` in memory under its id.
    pub(crate) fn insert(&self, room: Room) -> Arc<Cell> {
        let id = room.id();
        let (changed, _) = watch::channel(room.actions().len() as u64);
        let cell = Arc::new(Cell {
            room: tokio::sync::RwLock::new(room),
            changed,
            driving: AtomicBool::new(false),
        });
        self.rooms
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .insert(id, cell.clone());
        cell
    }

    /// The match `id`.
    pub fn cell(&self, id: i64) -> Option<Arc<Cell>> {
        self.rooms
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .get(&id)
            .cloned()
    }

    /// Ids of every match in memory.
    pub fn match_ids(&self) -> Vec<i64> {
        let mut ids: Vec<i64> = self
            .rooms
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .keys()
            .copied()
            .collect();
        ids.sort_unstable();
        ids
    }

    /// Starts the bots of every match where one is due (after a restart).
    pub async fn resume(self: &Arc<Self>) {
        for id in self.match_ids() {
            if let Some(cell) = self.cell(id) {
                self.kick(cell).await;
            }
        }
    }
}
