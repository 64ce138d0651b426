//! A game server for every game of the registry: people play in a browser
//! or over HTTP/JSON and WebSocket, bots sit in seats, every action is in
//! SQLite before it is acknowledged, and a restart replays every match.
//!
//! Hidden information never crosses the wire: a seat's view is built from
//! that seat's observation and its own view of each action only, a
//! spectator's from what both seats perceive alike ([`room::Room::view`]).
//! `docs/server.md` documents the API, `docs/bot-protocol.md` the
//! JSON-lines protocol of `cmd:` seats.

#![warn(missing_docs)]

pub mod api;
pub mod error;
pub use tabletop_rules::registry;
pub mod room;
pub mod seat;
pub mod store;
mod web;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use game_env::{DynGame, EnvError, ProtocolBot, ProtocolConfig, Registry};
use game_traits::PlayerId;
use rand::TryRngCore;
use subtle::ConstantTimeEq;
use tokio::sync::{watch, Semaphore};

use crate::error::ApiError;
use crate::room::{bot_rng, Room};
use crate::seat::Seat;
use crate::store::{Store, StoredMatch};

pub use api::router;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// The SQLite database (`:memory:` for a throw-away one).
    pub db: PathBuf,
    /// Whether `cmd:` seats (programs run on this machine) are admitted.
    pub allow_cmd_bots: bool,
    /// A protocol bot's time per decision.
    pub cmd_time_limit: Duration,
    /// Whether every commit is synced to the disk (survives power loss,
    /// not only a killed process).
    pub fsync: bool,
    /// The largest request body, in bytes.
    pub max_body: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            db: PathBuf::from("tabletop.db"),
            allow_cmd_bots: false,
            cmd_time_limit: Duration::from_secs(10),
            fsync: false,
            max_body: 16 * 1024,
        }
    }
}

/// One match and the channel that tells its watchers it changed.
pub struct Cell {
    /// The match: views and seat checks read it under a shared lock, so
    /// that GETs, WebSocket pushes and bot turns do not queue behind each
    /// other; moves write it.
    pub room: tokio::sync::RwLock<Room>,
    /// Bumped after every change (the WebSocket pushes a view then).
    pub changed: watch::Sender<u64>,
}

/// The server: the registry, the database and every match.
pub struct Server {
    registry: Registry,
    store: Arc<Store>,
    rooms: RwLock<HashMap<i64, Arc<Cell>>>,
    config: Config,
    /// Bot decisions running at once (one per core), so that bots queue
    /// instead of starving the request handlers.
    bot_slots: Semaphore,
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The database could not be opened or read.
    #[error("database {path}: {reason}")]
    Database {
        /// Its path.
        path: String,
        /// What failed.
        reason: String,
    },
    /// A stored match does not replay.
    #[error("{0}")]
    Replay(String),
}

/// Hex of 16 bytes.
fn hex(bytes: &[u8; 16]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// 16 bytes from 32 hex digits.
pub fn parse_token(text: &str) -> Option<[u8; 16]> {
    if text.len() != 32 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut out = [0u8; 16];
    for (i, slot) in out.iter_mut().enumerate() {
        *slot = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

/// A new 128-bit token from the operating system's generator: the one
/// randomness of the server that is not seeded, since it is a secret.
fn new_token() -> Result<[u8; 16], ApiError> {
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| ApiError::Storage(format!("no randomness for a token: {e}")))?;
    Ok(bytes)
}

/// A seed for a match created without one (from the operating system, then
/// stored: the match replays from it like any other).
fn new_seed() -> Result<u64, ApiError> {
    rand::rngs::OsRng
        .try_next_u64()
        .map(|s| s >> 11) // below 2^53, exact in JavaScript
        .map_err(|e| ApiError::Storage(format!("no randomness for a seed: {e}")))
}

/// What `POST /api/matches` returns.
#[derive(Debug, serde::Serialize)]
pub struct Created {
    /// The match id.
    pub id: i64,
    /// The game's canonical name.
    pub game: String,
    /// A token for each human seat.
    pub tokens: Vec<SeatToken>,
}

/// A human seat's token.
#[derive(Debug, serde::Serialize)]
pub struct SeatToken {
    /// The seat, 0 or 1.
    pub seat: u8,
    /// 32 hex digits (128 bits).
    pub token: String,
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, String> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::Storage(e.to_string()))?
        .map_err(ApiError::Storage)
}

impl Server {
    /// Opens the database of `config` and replays every stored match from
    /// `registry`; bots due to move resume once [`Server::resume`] runs.
    pub fn open(registry: Registry, config: Config) -> Result<Arc<Server>, StartError> {
        let db_err = |reason: String| StartError::Database {
            path: config.db.display().to_string(),
            reason,
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
            let room = server.room_of(m).map_err(StartError::Replay)?;
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

    fn room_of(&self, m: StoredMatch) -> Result<Room, String> {
        let game = self
            .registry
            .load(&m.spec)
            .map_err(|e| format!("match {}: {e}", m.id))?;
        let seat =
            |i: usize| Seat::parse(&m.seats[i], true).map_err(|e| format!("match {}: {e}", m.id));
        let seats = [seat(0)?, seat(1)?];
        let tokens = [0, 1].map(|i| m.tokens[i].as_deref().and_then(parse_token));
        let forfeit = m
            .forfeit
            .and_then(|(s, r)| PlayerId::from_index(s as usize).map(|p| (p, r)));
        Room::replay(m.id, game, m.seed, seats, tokens, &m.actions, forfeit)
    }

    fn insert(&self, room: Room) -> Arc<Cell> {
        let id = room.id;
        let (changed, _) = watch::channel(room.actions().len() as u64);
        let cell = Arc::new(Cell {
            room: tokio::sync::RwLock::new(room),
            changed,
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

    /// Creates a match: `game` a registry specification, `seats` two seat
    /// descriptions, `seed` the seed (drawn when absent). The record and its
    /// first chance events are stored before this returns.
    pub async fn create(
        self: &Arc<Self>,
        game: &str,
        seats: &[String],
        seed: Option<u64>,
    ) -> Result<Created, ApiError> {
        let g = self.registry.load(game).map_err(ApiError::Game)?;
        let [s0, s1] = seats else {
            return Err(ApiError::BadRequest(format!(
                "seats: expected 2 seats, got {}",
                seats.len()
            )));
        };
        let seats = [
            Seat::parse(s0, self.config.allow_cmd_bots)?,
            Seat::parse(s1, self.config.allow_cmd_bots)?,
        ];
        for seat in &seats {
            if let Seat::Bot(spec) = seat {
                // Refuses a bot the game has not (a missing heuristic).
                g.bot(*spec)
                    .map_err(|e| ApiError::BadRequest(e.to_string()))?;
            }
        }
        let seed = match seed {
            Some(s) => s,
            None => new_seed()?,
        };
        let mut tokens = [None, None];
        for (i, seat) in seats.iter().enumerate() {
            if seat.is_human() {
                tokens[i] = Some(new_token()?);
            }
        }
        let mut room = Room::replay(0, g.clone(), seed, seats.clone(), tokens, &[], None)
            .map_err(ApiError::Storage)?;
        room.run_chance();
        let first = room.actions().to_vec();
        let store = self.store.clone();
        let spec = g.name().to_owned();
        let seat_text = [seats[0].to_string(), seats[1].to_string()];
        let token_text = tokens.map(|t| t.as_ref().map(hex));
        let id =
            blocking(move || store.create(&spec, seed, &seat_text, &token_text, &first)).await?;
        room.id = id;
        let cell = self.insert(room);
        self.kick(cell).await;
        Ok(Created {
            id,
            game: g.name().to_owned(),
            tokens: (0..2)
                .filter_map(|i| {
                    tokens[i].as_ref().map(|t| SeatToken {
                        seat: i as u8,
                        token: hex(t),
                    })
                })
                .collect(),
        })
    }

    /// Stores a match from an existing record (`actions` all replayed, no
    /// chance drawn, no bot started): for tests and for restoring records
    /// made elsewhere. Returns the id and the human seats' tokens.
    pub async fn import(
        self: &Arc<Self>,
        game: &str,
        seats: [Seat; 2],
        seed: u64,
        actions: &[usize],
    ) -> Result<Created, ApiError> {
        let g = self.registry.load(game).map_err(ApiError::Game)?;
        let mut tokens = [None, None];
        for (i, seat) in seats.iter().enumerate() {
            if seat.is_human() {
                tokens[i] = Some(new_token()?);
            }
        }
        let mut room = Room::replay(0, g.clone(), seed, seats.clone(), tokens, actions, None)
            .map_err(ApiError::BadRequest)?;
        let store = self.store.clone();
        let spec = g.name().to_owned();
        let seat_text = [seats[0].to_string(), seats[1].to_string()];
        let token_text = tokens.map(|t| t.as_ref().map(hex));
        let all = actions.to_vec();
        let id = blocking(move || store.create(&spec, seed, &seat_text, &token_text, &all)).await?;
        room.id = id;
        self.insert(room);
        Ok(Created {
            id,
            game: g.name().to_owned(),
            tokens: (0..2)
                .filter_map(|i| {
                    tokens[i].as_ref().map(|t| SeatToken {
                        seat: i as u8,
                        token: hex(t),
                    })
                })
                .collect(),
        })
    }

    /// The seat whose token is `token` in `room`, compared in constant time
    /// against both seats.
    pub fn seat_of(room: &Room, token: &[u8; 16]) -> Option<PlayerId> {
        let mut found = None;
        for seat in PlayerId::BOTH {
            let hit = match &room.tokens[seat.index()] {
                Some(t) => t.ct_eq(token).unwrap_u8(),
                None => 0,
            };
            if hit == 1 {
                found = Some(seat);
            }
        }
        found
    }

    /// Plays `action` for `seat` (already authenticated) in match `cell`:
    /// refused with the reason and nothing changed, or applied with the
    /// chance events that follow, stored, and then acknowledged with the
    /// seat's new view.
    pub async fn play(
        self: &Arc<Self>,
        cell: &Arc<Cell>,
        seat: PlayerId,
        action: u64,
    ) -> Result<Vec<u8>, ApiError> {
        let mut room = cell.room.write().await;
        let id = usize::try_from(action).map_err(|_| {
            ApiError::Illegal(EnvError::UnknownActionId {
                id: usize::MAX,
                space: room.game.info().action_space,
            })
        })?;
        room.check(seat, id)?;
        let from = room.actions().len();
        room.push(id)?;
        room.run_chance();
        self.persist(&mut room, from).await?;
        let view = room.view(Some(seat))?;
        cell.changed.send_replace(room.actions().len() as u64);
        drop(room);
        self.kick(cell.clone()).await;
        Ok(view)
    }

    /// Writes the actions from step `from` on; on failure goes back to
    /// `from` so memory never runs ahead of the database.
    async fn persist(&self, room: &mut Room, from: usize) -> Result<(), ApiError> {
        let new = room.actions()[from..].to_vec();
        if new.is_empty() {
            return Ok(());
        }
        let store = self.store.clone();
        let id = room.id;
        let written = blocking(move || store.append(id, from, &new)).await;
        if written.is_err() {
            room.truncate(from);
        }
        written
    }

    /// Starts the bot task of `cell` if a bot is due and none runs.
    pub async fn kick(self: &Arc<Self>, cell: Arc<Cell>) {
        let mut room = cell.room.write().await;
        if room.driving || room.bot_due().is_none() {
            return;
        }
        room.driving = true;
        drop(room);
        let server = self.clone();
        tokio::spawn(async move { server.drive(cell).await });
    }

    /// Plays the bot seats of `cell` while one is due: each decision
    /// computed on a blocking thread from a copy of the state.
    async fn drive(self: Arc<Self>, cell: Arc<Cell>) {
        loop {
            let mut room = cell.room.write().await;
            let Some(seat) = room.bot_due() else {
                room.driving = false;
                return;
            };
            let step = room.actions().len();
            let state = room.state().clone_box();
            let game = room.game.clone();
            let seed = room.seed;
            let kind = room.seats[seat.index()].clone();
            let mut cmd_bot = room.cmd_bot(seat).take();
            drop(room);
            let Ok(_slot) = self.bot_slots.acquire().await else {
                return;
            };
            let limit = self.config.cmd_time_limit;
            let decided = tokio::task::spawn_blocking(move || {
                let choice = decide(&game, &kind, &mut cmd_bot, &*state, seat, seed, step, limit);
                (choice, cmd_bot)
            })
            .await;
            drop(_slot);
            let mut room = cell.room.write().await;
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
            match choice {
                Ok(id) => {
                    if let Err(e) = room.push(id) {
                        let reason = format!("the bot chose an illegal action: {e}");
                        if self.record_forfeit(&mut room, seat, reason).await.is_err() {
                            room.driving = false;
                            return;
                        }
                    } else {
                        room.run_chance();
                        if self.persist(&mut room, step).await.is_err() {
                            // Nothing acknowledged; the bot plays again
                            // when the match is next touched or restarted.
                            room.driving = false;
                            return;
                        }
                    }
                }
                Err(failure) => {
                    let reason = failure.to_string();
                    if self.record_forfeit(&mut room, seat, reason).await.is_err() {
                        room.driving = false;
                        return;
                    }
                }
            }
            cell.changed
                .send_replace(room.actions().len() as u64 + room.forfeit().is_some() as u64);
        }
    }

    async fn record_forfeit(
        &self,
        room: &mut Room,
        seat: PlayerId,
        reason: String,
    ) -> Result<(), ApiError> {
        let store = self.store.clone();
        let (id, r) = (room.id, reason.clone());
        blocking(move || store.forfeit(id, seat.index() as u8, &r)).await?;
        room.set_forfeit(seat, reason);
        Ok(())
    }
}

/// A bot seat's decision: a built-in bot made afresh with the seeded
/// generator of this step (so a replay decides the same), or the protocol
/// bot's process (started if needed).
#[allow(clippy::too_many_arguments)]
fn decide(
    game: &Arc<dyn DynGame>,
    seat_kind: &Seat,
    cmd_bot: &mut Option<ProtocolBot>,
    state: &dyn game_env::DynState,
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
        Seat::Cmd(argv) => {
            if cmd_bot.is_none() {
                let bot = ProtocolBot::spawn(ProtocolConfig {
                    argv: argv.clone(),
                    time_limit: limit,
                    game: game.name().to_owned(),
                    legend: game.legend().to_owned(),
                })
                .map_err(|failure| EnvError::Bot {
                    bot: format!("cmd:{}", argv.join(" ")),
                    failure,
                })?;
                *cmd_bot = Some(bot);
            }
            match cmd_bot.as_mut() {
                Some(bot) => bot.decide(state, seat),
                None => Err(EnvError::Internal("the bot did not start".into())),
            }
        }
        Seat::Human => Err(EnvError::NoDecision),
    }
}
