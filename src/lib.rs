//! Umbrella crate of the workspace: re-exports the shared abstraction, the
//! generic bots and every game crate (each behind a default feature), and
//! holds what the examples run: the game [`registry`], the [`arena`], the
//! interactive [`play`] session and the [`replay`] printer.
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
pub mod heuristics;
pub mod play;
pub mod registry;
pub mod replay;
pub mod stats;
pub mod view;

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
