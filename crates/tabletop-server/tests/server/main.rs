//! The server's integration tests in one binary: one build and one link of
//! the server, axum, tokio and the HTTP client for all of them, instead of
//! one per file (docs/performance.md, "Light builds"). The tests that a
//! document runs by name (`--test load`, `soak`, `clock`, `postgres`,
//! `wire_schema`) stay binaries of their own.

#[path = "../common/mod.rs"]
mod common;
// The ratings' PostgreSQL tests use its database alone.
#[cfg(feature = "postgres")]
#[path = "../pg_cluster/mod.rs"]
mod pg_cluster;

mod api;
mod archive;
mod bodies;
mod connections;
mod extra_game;
mod glossary;
mod hygiene;
mod leak;
mod legacy_seats;
mod limits;
#[cfg(feature = "postgres")]
mod lobby_pg;
mod memory;
mod ops;
mod people;
#[cfg(feature = "policy")]
mod policy_seats;
mod protocol;
mod ratings;
#[cfg(feature = "postgres")]
mod ratings_pg;
mod replay;
mod setups;
