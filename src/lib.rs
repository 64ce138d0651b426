//! The umbrella crate of the workspace: every game crate (each behind a
//! default feature), the shared abstraction, the generic bots and the
//! learning interface, and the one [`registry`] of every game by name that
//! the arena, `play`, `replay`, the Python package and the server load
//! games from (the crate `game-registry`, re-exported).
//!
//! What the examples run lives here:
//!
//! - `cargo run --release --example arena`: a round-robin of the bots
//!   (each game's expert, its strongest; ISMCTS, flat Monte Carlo, each
//!   game's heuristic, random) in every game,
//!   saying in words who beat whom and how sure that is (95 % intervals),
//!   with `--ladder` maximum-likelihood Elo ratings; in iteration mode the
//!   same seed gives the same results whatever the number of threads.
//! - `cargo run --release --example play -- stratego`: a person plays the
//!   game's expert (or `--bot heuristic`, an easier bot) in the terminal, each move told as his seat sees
//!   it; `--save` keeps the record in `$XDG_DATA_HOME/tabletop` (else
//!   `~/.local/share/tabletop`), `--save FILE` in that file.
//! - `cargo run --release --example replay -- FILE --view p0`: checks that a
//!   record replays legally and prints it from a seat's view or (`all`)
//!   omnisciently.
//! - `cargo run --release --example train_loop -- stratego`: the loop a
//!   trainer writes over the batched environment, with its speed.
//!
//! A new game joins all of them, and the Python package and the server, by
//! one `register` call in [`registry`].
//!
//! ```
//! use tabletop_rules::{registry, round_robin, run_arena, select, ArenaConfig, BotSpec, Budget};
//!
//! let games = select(&registry(), Some("kuhn_poker")).unwrap();
//! let pairings = round_robin(&games, &[BotSpec::Random, BotSpec::Ismcts(Some(Budget::Iterations(10)))]);
//! let config = ArenaConfig { games: 2, seed: 1, threads: 1, keep_records: true };
//! let result = run_arena(&games, &pairings, &config, &mut |_| {});
//! assert_eq!(result.records.len(), 2 * pairings.len());
//! ```
#![warn(missing_docs)]

mod arena;
mod command;
mod ladder;
mod play;
mod replay;
mod report;
mod setup_dialog;
mod stats;
mod tables;

pub use arena::{
    arena_bot, game_seed, play_game, round_robin, run_arena, ArenaConfig, ArenaResult, Pairing,
    PairingResult, Played, Progress, Think,
};
pub use command::help;
/// Where records go when no path is given: [`game_env::data_dir`].
pub use game_env::{data_dir as records_dir, data_dir_from as records_dir_from};
#[cfg(feature = "battleline")]
pub use game_registry::spelinski;
#[cfg(feature = "stratego")]
pub use game_registry::ucc;
pub use game_registry::{registry, PlayerError, PlayerSpec, PlayerSpecError};
pub use ladder::{Ladder, LadderError, Rating};
pub use play::{
    move_label, narrate, play_session, record_file_name, strongest_bot, PlayOptions, SessionEnd,
    BOT_NOTE, ROUTINE_NOTE,
};
pub use replay::{pick_record, replay_record, View, ViewError};
pub use report::{format_report, ReportOptions, LADDER_PRIOR_DRAWS};
pub use stats::{margin_points, Rate, Score, Verdict};
pub use tables::{select, split_specs, ARENA_TABLES};

pub use game_agents;
pub use game_env;
pub use game_env::{BotSpec, Budget};
pub use game_registry;
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

/// The Rust snippets of `docs/learning.md`, compiled and run by `cargo test`
/// (`scripts/run_docs.py` checks that every doc with Rust code is included
/// so).
#[cfg(doctest)]
#[doc = include_str!("../docs/learning.md")]
mod learning_doc {}
