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
//! The crate is cut by layer. [`http`] speaks HTTP: the router, what a
//! route reads from a request, the one HTTP error ([`ApiError`]), the
//! routes by resource, the WebSocket, the page and the layers every
//! request goes through. Below it nothing knows HTTP: the match service
//! (create, import, play, persist) on the [`Server`], which composes the
//! matches in memory, the bot scheduler, what a client may use
//! ([`limits`], counted by [`client::ClientKey`]) and the [`lobby`]; its refusals ([`refusal`], one case
//! each); [`config`] (how it runs), [`token`] and [`seat`] (who sits where
//! and how a seat proves it), [`room`] (one match's state and log),
//! [`views`] (what a viewer is sent), [`store`] (the records, in SQLite or
//! PostgreSQL), the processes sharing PostgreSQL, [`players`] and their
//! ratings, [`metrics`], and [`listen`] (timeouts and graceful stop).

#![warn(missing_docs)]

mod archive;
mod bots;
pub mod client;
pub mod clock;
mod cluster;
pub mod config;
mod flag;
pub mod http;
pub mod leaderboard;
mod leftover;
pub mod limits;
pub mod listen;
pub mod lobby;
mod matches;
mod memory;
pub mod metrics;
mod people;
pub mod players;
pub mod policies;
mod program;
pub mod rating;
pub mod refusal;
pub mod replay;
pub mod room;
pub mod seat;
mod server;
mod setups;
pub mod store;
pub mod token;
mod turns;
pub mod views;

pub use config::{Config, HttpLimits, MemoryLimits};
pub use game_registry::registry;
pub use http::{admin_router, router, ApiError, CONTENT_SECURITY_POLICY};
pub use matches::{Created, SeatToken};
pub use memory::Cell;
pub use policies::{Policies, PolicySeatError};
pub use refusal::MatchError;
pub use server::{Server, StartError};
