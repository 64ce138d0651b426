//! Game-generic bots for any [`game_traits::Game`].
//!
//! - [`RandomAgent`]: uniform among the legal actions (from `game-traits`).
//! - [`FlatMonteCarlo`]: random playouts from every legal action, the best
//!   mean wins; a cheap baseline.
//! - [`Ismcts`]: information-set Monte Carlo tree search (single observer)
//!   over determinisations of the bot's own observation.
//!
//! Every bot sees only what [`game_traits::Agent::choose`] passes it: its
//! player's observation, the legal actions and its seeded generator. So the
//! same observation and seed always give the same choice, and no bot can
//! read hidden information.
//!
//! ```
//! use game_agents::{Budget, Ismcts, IsmctsConfig, RandomAgent};
//! use game_traits::testkit::kuhn::KuhnPoker;
//! use game_traits::{play_match, Agent};
//!
//! let mut bot = Ismcts::<KuhnPoker>::new(IsmctsConfig {
//!     budget: Budget::Iterations(200),
//!     ..IsmctsConfig::default()
//! });
//! let mut random = RandomAgent;
//! let agents: &mut [&mut dyn Agent<KuhnPoker>; 2] = &mut [&mut bot, &mut random];
//! let (state, record) = play_match::<KuhnPoker>(&Default::default(), 7, agents).unwrap();
//! assert_eq!(record.replay().unwrap(), state);
//! ```
#![warn(missing_docs)]

mod budget;
mod flat;
mod ismcts;
mod playout;

pub use budget::Budget;
pub use flat::{FlatMonteCarlo, FlatMonteCarloConfig};
pub use game_traits::RandomAgent;
pub use ismcts::{Ismcts, IsmctsConfig};
pub use playout::Evaluator;
