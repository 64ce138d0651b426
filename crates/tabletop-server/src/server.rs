//! The server: the registry, the store, the configuration and the matches
//! in memory, each in a [`Cell`]. Memory holds only the matches in use: a
//! match enters when it is created, when a bot is due in it at start, or
//! when it is asked for (rebuilt from its record, [`Server::cell`]); the
//! sweep ([`Server::sweep`]) drops the finished ones and the idle ones
//! that no request, WebSocket or bot holds. Every other module reaches a
//! match through [`Server::cell`].

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use game_env::{DynGame, EnvError, Registry};
use tokio::sync::watch;

use crate::bots::BotRunner;
use crate::clock::{self, Clock};
use crate::config::Config;
use crate::limits::Gate;
use crate::memory::{Cell, Memory};
use crate::metrics::{Gauges, Metrics};
use crate::refusal::{MatchError, ReplayError};
use crate::room::Room;
use crate::seat::{self, Seat};
use crate::store::{Store, StoreError, StoredMatch};
use crate::token::Seal;

/// How often the retention deletes expired matches: retention is counted
/// in days, so an hour late is nothing.
const RETENTION_SWEEP: Duration = Duration::from_secs(3600);

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The database could not be opened or read.
    #[error("database {path}: {source}")]
    Database {
        /// Its path.
        path: String,
        /// What failed.
        #[source]
        source: StoreError,
    },
    /// A stored match names a game specification the registry refuses.
    #[error("match {id}: {source}")]
    Game {
        /// The match.
        id: i64,
        /// The registry's refusal.
        #[source]
        source: EnvError,
    },
    /// A stored match has a seat that does not parse.
    #[error("match {id}: {source}")]
    Seat {
        /// The match.
        id: i64,
        /// The seat's refusal (boxed: it is rare, and keeps every
        /// `Result<_, StartError>` small).
        #[source]
        source: Box<MatchError>,
    },
    /// A stored match does not replay.
    #[error(transparent)]
    Replay(#[from] ReplayError),
}

/// The server: the registry, the database, the configuration and the
/// services it composes.
pub struct Server {
    pub(crate) registry: Registry,
    pub(crate) store: Arc<Store>,
    pub(crate) config: Config,
    /// The matches in memory.
    pub(crate) memory: Memory,
    /// The bot tasks and their share of the cores.
    pub(crate) bots: BotRunner,
    /// What each client may use.
    pub(crate) gate: Gate,
    /// The counters of `/metrics`.
    pub(crate) metrics: Metrics,
    /// True once the server is stopping.
    shutdown: watch::Sender<bool>,
}

impl Server {
    /// Opens the database of `config` and replays the unfinished matches
    /// of its records; those where a bot is due stay in memory, and their
    /// bots resume once [`Server::resume`] runs. The others are rebuilt
    /// when asked for.
    pub fn open(registry: Registry, config: Config) -> Result<Arc<Server>, StartError> {
        let path = config.database_name();
        let db_err = |source: StoreError| StartError::Database {
            path: path.clone(),
            source,
        };
        let store = Store::of(&config).map_err(db_err)?;
        // Several processes share PostgreSQL: bot turns are taken over
        // once running (`cluster.rs`), other matches rebuilt when asked for.
        let unfinished = match store.shared() {
            Some(_) => Vec::new(),
            None => store.unfinished().map_err(db_err)?,
        };
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let server = Server {
            registry,
            store: Arc::new(store),
            memory: Memory::default(),
            gate: Gate::new(&config.http),
            config,
            bots: BotRunner::new(cores),
            metrics: Metrics::default(),
            shutdown: watch::channel(false).0,
        };
        for id in unfinished {
            let Some(m) = server.store.get(id).map_err(db_err)? else {
                continue;
            };
            let room = server.room_of(m)?;
            if room.finished() {
                // A record of an older server: marked once, never replayed
                // at start again.
                server.store.finish(id).map_err(db_err)?;
            } else if room.bot_due().is_some() || room.clock().running() {
                // A running clock's flag must fall with nobody asking.
                server.memory.insert(room, None);
            }
        }
        // On a thread of its own: PostgreSQL's blocking client starts a
        // runtime of its own, which panics on a thread that drives one (a
        // server opens from `#[tokio::main]`).
        std::thread::scope(|s| s.spawn(|| server.settle_pending()).join())
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
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

    /// Runs a store call on a blocking thread (both backends block); a failure
    /// is counted.
    pub(crate) async fn db<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let store = self.store.clone();
        let started = std::time::Instant::now();
        let result = match tokio::task::spawn_blocking(move || f(&store)).await {
            Ok(r) => r,
            Err(e) => Err(StoreError::Task(e)),
        };
        self.metrics.db_time.observe(started.elapsed());
        if result.is_err() {
            Metrics::bump(&self.metrics.store_errors);
        }
        result
    }

    /// The game of record `m`.
    pub(crate) fn game_of(&self, m: &StoredMatch) -> Result<Arc<dyn DynGame>, StartError> {
        self.registry
            .load(&m.spec)
            .map_err(|source| StartError::Game { id: m.id, source })
    }

    /// The seats of record `m`.
    pub(crate) fn seats_of(&self, m: &StoredMatch) -> Result<[Seat; 2], StartError> {
        let seat = |i: usize| {
            seat::parse(&m.seats[i], true).map_err(|e| StartError::Seat {
                id: m.id,
                source: Box::new(MatchError::BadSeat(e)),
            })
        };
        Ok([seat(0)?, seat(1)?])
    }

    /// The match of record `m`, replayed.
    pub(crate) fn room_of(&self, m: StoredMatch) -> Result<Room, StartError> {
        let id = m.id;
        let game = self.game_of(&m)?;
        let seats = self.seats_of(&m)?;
        let seals = [0, 1].map(|i| m.tokens[i].as_deref().and_then(Seal::parse));
        let forfeit = m.forfeit_by();
        let mut room = Room::replay(id, game, m.seed, seats, seals, &m.actions, forfeit)?;
        if m.agreed_draw {
            room.set_agreed_draw();
        }
        room.set_lobby(m.lobby);
        room.set_draw_offer(
            m.draw_offer
                .and_then(|s| game_traits::PlayerId::from_index(usize::from(s))),
        );
        if let Some(clock) = m.clock.as_deref().and_then(|text| {
            Clock::from_stored(text, tokio::time::Instant::now(), crate::clock::unix_ms())
        }) {
            *room.clock_mut() = clock;
        }
        Ok(room)
    }

    /// The match `id`: from memory, or rebuilt from its record (and its
    /// bot started if one is due); `None` if there is no such match.
    pub async fn cell(self: &Arc<Self>, id: i64) -> Result<Option<Arc<Cell>>, MatchError> {
        if let Some(cell) = self.memory.cached(id) {
            self.refresh(&cell).await?;
            return Ok(Some(cell));
        }
        let _loading = self.memory.loading().await;
        if let Some(cell) = self.memory.cached(id) {
            self.refresh(&cell).await?;
            return Ok(Some(cell));
        }
        let Some(m) = self.db(move |s| s.get(id)).await? else {
            return Ok(None);
        };
        let server = self.clone();
        let room = tokio::task::spawn_blocking(move || server.room_of(m))
            .await
            .map_err(|e| EnvError::Internal(format!("replaying a match: {e}")))?
            .map_err(|e| EnvError::Internal(format!("replaying a match: {e}")))?;
        let cell = self.memory.insert(room, None);
        Metrics::bump(&self.metrics.matches_loaded);
        drop(_loading);
        self.watch_flag(cell.clone());
        self.kick(cell.clone()).await;
        Ok(Some(cell))
    }

    /// Drops from memory the matches nobody holds (no request, WebSocket
    /// or bot task has their cell) that are over or idle for longer than
    /// the configured time; forgets the clients whose rate bucket is full.
    /// The finished ones leave their final views in the store first
    /// (`src/archive.rs`). Returns how many matches left.
    pub async fn sweep(&self) -> usize {
        let swept = self.memory.sweep(self.config.memory.idle);
        self.gate.requests.prune();
        self.metrics
            .matches_evicted
            .fetch_add(swept.gone as u64, Ordering::Relaxed);
        self.keep_final_views(swept.finished).await;
        swept.gone
    }

    /// Deletes the finished unrated matches kept longer than
    /// [`Config::retain_finished`] (none without it), counting from when
    /// this sweep or an earlier one first saw them over; returns how many
    /// went. Run hourly by [`Server::resume`].
    pub async fn expire(&self) -> Result<usize, StoreError> {
        let Some(keep) = self.config.retain_finished else {
            return Ok(0);
        };
        let now = i64::try_from(clock::unix_ms()).unwrap_or(i64::MAX);
        let cut = now.saturating_sub(i64::try_from(keep.as_millis()).unwrap_or(i64::MAX));
        let gone = self.db(move |s| s.expire(now, cut)).await?.len();
        self.metrics
            .matches_expired
            .fetch_add(gone as u64, Ordering::Relaxed);
        Ok(gone)
    }

    /// Matches in memory now.
    pub fn in_memory(&self) -> usize {
        self.memory.count()
    }

    /// The `/metrics` page.
    pub fn metrics_text(&self) -> String {
        self.metrics.render(&Gauges {
            matches_in_memory: self.in_memory(),
            websockets: self.gate.sockets.open(),
            connections: self.gate.connections.open(),
        })
    }

    /// Starts the background work: the bots of every match in memory where
    /// one is due (after a restart), and the sweep, which runs every
    /// configured interval while the server lives.
    pub async fn resume(self: &Arc<Self>) {
        for cell in self.memory.cells() {
            self.watch_flag(cell.clone());
            self.kick(cell).await;
        }
        self.follow_others();
        let weak = Arc::downgrade(self);
        let every = self.config.memory.sweep.max(Duration::from_millis(10));
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                let Some(server) = weak.upgrade() else { return };
                server.sweep().await;
            }
        });
        if self.config.retain_finished.is_some() {
            let weak = Arc::downgrade(self);
            tokio::spawn(async move {
                loop {
                    let Some(server) = weak.upgrade() else { return };
                    match server.expire().await {
                        Ok(0) => {}
                        Ok(gone) => tracing::info!(gone, "deleted expired matches"),
                        Err(e) => tracing::warn!(error = %e, "the retention sweep failed"),
                    }
                    drop(server);
                    tokio::time::sleep(RETENTION_SWEEP).await;
                }
            });
        }
    }

    /// Starts stopping: `/readyz` answers 503, bots store the move they
    /// are deciding and stop, WebSockets close.
    pub fn begin_shutdown(&self) {
        self.shutdown.send_replace(true);
    }

    /// Whether the server is stopping.
    pub fn stopping(&self) -> bool {
        *self.shutdown.borrow()
    }

    /// Resolves once the server starts stopping.
    pub async fn stopped(&self) {
        let mut rx = self.shutdown.subscribe();
        // The guard of the value is dropped here, not held across awaits.
        let _ = rx.wait_for(|s| *s).await.map(|_| ());
    }

    /// Waits until no bot task runs, at most `limit`; whether none runs.
    pub async fn bots_stopped(&self, limit: Duration) -> bool {
        self.bots.stopped(limit).await
    }
}
