//! Umbrella crate of the workspace: re-exports the shared abstraction, the
//! generic bots and every game crate (each behind a default feature), and
//! holds what the examples run: the game [`registry`], the [`arena`], the
//! interactive [`play`] session and the [`replay`] printer.
//!
//! The examples are thin wrappers over those modules:
//!
//! - `cargo run --release --example arena`: a short round-robin of the bots
//!   (random, flat Monte Carlo, ISMCTS, each game's heuristic) in every game
//!   and rule set, with win/draw/loss rates and 95% confidence intervals.
//!   `--game`, `--bots`, `--games`, `--seed`, `--threads` and
//!   `--records FILE` (every game record as JSON lines) change it; the same
//!   seed gives the same results whatever the number of threads.
//! - `cargo run --release --example play -- stratego --bot ismcts`: a person
//!   plays a bot in the terminal; `--save FILE` keeps the record.
//! - `cargo run --release --example replay -- FILE --view p0`: checks that a
//!   record replays legally and prints it from a seat's view or (`all`)
//!   omnisciently.
//!
//! A new game joins all three by adding its rule sets to
//! [`registry::tables`], optionally with [`bots::GameKnowledge`] (search
//! budgets, a playout evaluation, a heuristic bot).
//!
//! ```
//! use tabletop_rules::arena::{round_robin, run_arena, ArenaConfig};
//! use tabletop_rules::bots::BotSpec;
//!
//! let tables = tabletop_rules::registry::tables();
//! let pairings = round_robin(&tables, &[BotSpec::Random, BotSpec::Ismcts(Some(10))]);
//! let config = ArenaConfig { games: 2, seed: 1, threads: 1, keep_records: true };
//! let result = run_arena(&tables, &pairings, &config, &mut |_| {});
//! assert_eq!(result.records.len(), 2 * pairings.len());
//! ```
#![warn(missing_docs)]

pub mod arena;
pub mod bots;

pub mod play;
pub mod registry;
pub mod replay;
pub mod stats;

pub use game_agents;
pub use game_traits;

/// Battle Line (feature `battleline`).
#[cfg(feature = "battleline")]
pub use battleline_core as battleline;
/// The dice-and-cards war game (feature `cardwar`).
#[cfg(feature = "cardwar")]
pub use cardwar_core as cardwar;
/// Stratego in three rule sets (feature `stratego`).
#[cfg(feature = "stratego")]
pub use stratego_core as stratego;
