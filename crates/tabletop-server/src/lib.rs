//! A game server for every game of the registry: people play in a browser
//! or over HTTP/JSON and WebSocket, bots sit in seats, every action is in
//! the database (SQLite, or PostgreSQL shared by several processes) before
//! it is acknowledged, and a restart replays every match.
//!
//! Hidden information never crosses the wire: a seat's view is built from
//! that seat's observation and its own view of each action only, a
//! spectator's from what both seats perceive alike ([`views::view`]).
//! `docs/server.md` documents the API and how to run it for months,
//! `docs/bot-protocol.md` the JSON-lines protocol of `cmd:` seats.
//!
//! The crate is cut by concern: [`config`] (how it runs), [`token`] and
//! [`seat`] (who sits where and how a seat proves it), [`room`] (one
//! match's state and log), [`views`] (what a viewer is sent), the match
//! service (create, import, play, persist), the bot scheduler, [`store`]
//! (the records, in SQLite or PostgreSQL), the processes sharing
//! PostgreSQL, [`error`] (every error, mapped to HTTP in one place),
//! [`api`] (the routes) and the WebSocket; around them [`limits`] (what a
//! client may use), the HTTP hygiene layers, [`metrics`] and the
//! operator's routes, and [`listen`] (timeouts and graceful stop).

#![warn(missing_docs)]

pub mod api;
mod bots;
pub mod clock;
mod cluster;
pub mod config;
pub mod error;
mod flag;
mod hygiene;
pub mod leaderboard;
pub mod limits;
pub mod listen;
pub mod lobby;
mod matches;
pub mod metrics;
mod ops;
pub mod players;
pub mod policies;
mod program;
mod query;
pub mod rating;
pub mod refusal;
pub mod replay;
pub mod room;
pub mod seat;
mod server;
mod setups;
mod socket;
pub mod store;
pub mod token;
pub mod views;
mod web;

pub use api::router;
pub use config::{Config, HttpLimits, MemoryLimits};
pub use error::ApiError;
pub use game_registry::registry;
pub use hygiene::CONTENT_SECURITY_POLICY;
pub use matches::{Created, SeatToken};
pub use policies::{Policies, PolicySeatError};
pub use refusal::MatchError;
pub use server::{Cell, Server, StartError};
