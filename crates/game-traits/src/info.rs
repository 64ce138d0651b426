//! What a game is, as data: OpenSpiel's `GameType` and `GameInfo` in one
//! value, for drivers that know nothing of the game.

use serde::{Deserialize, Serialize};

/// How chance enters the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ChanceMode {
    /// No chance events at all.
    Deterministic,
    /// Chance events are explicit nodes ([`Turn::Chance`](crate::Turn))
    /// with listed outcomes and probabilities.
    ExplicitStochastic,
}

/// Whether players see the whole state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Information {
    /// Every observation is the whole state.
    Perfect,
    /// Some of the state is hidden from some player.
    Imperfect,
}

/// How the players' returns relate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Utility {
    /// The returns add up to zero.
    ZeroSum,
    /// The returns add up to the same constant in every game.
    ConstantSum,
    /// No constraint.
    GeneralSum,
}

/// A game under one rule set, described as data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameInfo {
    /// The game's stable name ([`Game::NAME`](crate::Game::NAME)).
    pub name: &'static str,
    /// How chance enters.
    pub chance: ChanceMode,
    /// Perfect or imperfect information.
    pub information: Information,
    /// How the returns relate.
    pub utility: Utility,
    /// Number of players (always 2 here).
    pub players: usize,
    /// Size of the dense action-id space.
    pub action_space: usize,
    /// Most actions (decisions and chance outcomes) any game can take.
    pub max_game_length: u32,
    /// Lowest return a player can get.
    pub min_return: f64,
    /// Highest return a player can get.
    pub max_return: f64,
    /// What the returns add up to ([`Utility::ZeroSum`]: 0).
    pub returns_sum: f64,
}
