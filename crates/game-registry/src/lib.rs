//! Every game of [tabletop-rules](https://github.com/tabletop-rules/tabletop-rules)
//! by name with parameters, as OpenSpiel's `load_game` takes them: the one
//! place a game is added, and what the server, the Python package and the
//! command lines load games from.
//!
//! A game registers its type; its options (with their kinds and ranges) and
//! its presets come from its rule set ([`game_traits::RuleSet`]), what its
//! bots and screens need from [`game_env::Knowledge`].
//!
//! ```
//! let games = game_registry::registry();
//! let czech = games.load("stratego(variant=czech)").unwrap();
//! assert_eq!(czech.name(), "stratego(variant=czech)");
//! assert!(games.load("stratego(max_moves=0)").is_err());
//! ```
#![warn(missing_docs)]

mod player;
#[cfg(any(feature = "battleline", feature = "stratego"))]
mod referee;
mod registry;
/// The Battle Line protocol of spelinski/BoardGameAIEngine: its bots play
/// troops-only Battle Line (feature `battleline`).
#[cfg(feature = "battleline")]
pub mod spelinski;
/// The Stratego protocol of the 2012 UCC programming competition: its
/// agents play classic Stratego (feature `stratego`).
#[cfg(feature = "stratego")]
pub mod ucc;

pub use player::{PlayerError, PlayerSpec, PlayerSpecError, MAX_PLAYER};
pub use registry::{registry, LEGACY_PREFIXES};
