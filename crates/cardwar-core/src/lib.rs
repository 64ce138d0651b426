//! Card war: Alexander Rybalchenko's two-player dice-and-cards war game,
//! every rule of the text (see `docs/cardwar.md` for the English rules as
//! implemented and the numbered rulings).
//!
//! The game is a [`game_traits::Game`]: [`CardWar`] is the state,
//! [`Rules`] the rule set (default: the text with the documented rulings),
//! [`Action`] both the decisions (lay the next card, stop a free attack,
//! pray or not) and the chance outcomes (a die, a 2d6 sum, the next card of
//! a shuffled pile). [`Observation`] is a player's view with perfect
//! recall of what he has seen.
//!
//! ```
//! use cardwar_core::{CardWar, Rules};
//! use game_traits::{Game, GameRng, Turn};
//! use rand::SeedableRng;
//!
//! let mut game = CardWar::new(&Rules::default()).unwrap();
//! let mut rng = GameRng::seed_from_u64(1);
//! let mut legal = Vec::new();
//! while game.turn() != Turn::Terminal {
//!     let action = match game.turn() {
//!         Turn::Chance => game.sample_chance(&mut rng).unwrap(),
//!         _ => {
//!             game.legal_actions(&mut legal);
//!             legal[0]
//!         }
//!     };
//!     game.apply(action).unwrap();
//! }
//! println!("{game}");
//! ```
#![warn(missing_docs)]

mod action;
mod battle;
mod card;
mod chance;
mod dice;
mod engine;
mod error;
mod game;
mod line;
mod listing;
mod notation;
mod observation;
mod position;
mod prayer;
mod render;
mod round;
mod rules;
mod state;
mod validate;
mod view;

pub use game_traits;
pub use game_traits::rand;
pub use game_traits::{Game, GameRng, Outcome, PerPlayer, PlayerId, Turn};

pub use action::{Action, ACTION_SPACE};
pub use card::{CardSet, Cards, Guard, Soldier, SOLDIERS};
pub use error::CardWarError;
pub use line::{LineView, SlotView, LINE_CAP};
pub use observation::Observation;
pub use position::{Knowledge, LineCard, PositionBuilder};
pub use prayer::Prayer;
pub use rules::{FirstAttacker, Rules, MAX_ROUNDS_LIMIT};
pub use state::{
    Battle, CardWar, FightReport, Fighter, LayKind, Open, Pending, Phase, Public, SideHidden,
    SidePublic,
};
pub use view::ActionView;
