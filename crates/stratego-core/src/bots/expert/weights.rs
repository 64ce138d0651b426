//! The searching expert's weights: what its leaves value beside material,
//! and how many determinisations a decision searches. Public so that they
//! can be fitted by play (`examples/fit.rs`, docs/strength.md, "Fitting
//! the weights by play").

/// The weights of the searching [`Expert`](crate::Expert)'s model, in
/// material units (a Marshal is worth 10, a Scout 1.5 in classic).
/// [`Weights::default`] is the expert as measured; `expert-v1` has none
/// of these (its evaluation is frozen).
///
/// ```
/// use stratego_core::{Expert, Weights};
/// use stratego_core::game_traits::Budget;
///
/// let bolder = Weights { flag_attack: 0.16, ..Weights::default() };
/// let expert = Expert::with_weights(Some(Budget::Iterations(2)), bolder);
/// assert_eq!(expert.weights(), Some(bolder));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// Pull of each mobile piece towards the opponent piece it beats that
    /// is worth most, per unit of that piece's value and per square closer.
    pub hunt: f64,
    /// How much more a piece is drawn to an opponent piece it beats when
    /// its kind is known than to one a determinisation made up: a known
    /// General that eats the unknown pieces around it is there for
    /// certain, and only a piece that beats it stops it.
    pub known_hunt: f64,
    /// Pull of the nearest mobile piece, and of the nearest Miner, towards
    /// the opponent's flag, per square closer; multiplied by
    /// 1 + 8 / (1 + his movable pieces), as the game is won more and more
    /// at his flag.
    pub flag_attack: f64,
    /// Danger of an opponent mobile piece near the player's flag, per
    /// square inside four.
    pub flag_defence: f64,
    /// What a piece loses once its opponent knows its kind, per unit of
    /// its value. Inside the search both players see every piece of the
    /// determinisation, so only this term makes a hidden piece worth more
    /// than a known one; in play a known piece is hunted by what beats it.
    pub known_cost: f64,
    /// The share of a known Marshal's, General's or Colonel's value lost
    /// per unknown opponent piece beside it, while the opponent has a kind
    /// that beats it: the determinisations rarely put that kind (the Spy,
    /// for the Marshal) on the square, but strong players keep it unmoved
    /// and wait for the known Marshal to come by. Read from lost games
    /// against peternlewis, whose unmoved Spy took the known Marshal in
    /// three of eight.
    pub exposure: f64,
    /// What the last Miners are worth beyond their material, in multiples
    /// of 4 for the last, 2 for the second and 1 for the third
    /// (docs/strength.md, "The last Miners kept").
    pub miner_reserve: f64,
    /// Pieces worth at least this (Marshal, General, Colonel) do not
    /// attack an unmoved unknown piece, in play or inside the search,
    /// while their side has a cheaper mover to probe it with: one time in
    /// three or four it is a mine, and what the attack may find (the flag)
    /// a Scout or a Miner finds as well. Read from lost games against
    /// peternlewis: the Marshal and General walked into mines in most of
    /// them. Above every piece's value (say 100) the rule is off.
    pub high_piece: f64,
    /// Determinisations a decision: enough that a root move's value is an
    /// average over what unknown pieces may be, few enough to search deep.
    pub determinisations: usize,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            hunt: 0.06,
            known_hunt: 3.0,
            flag_attack: 0.08,
            flag_defence: 1.5,
            known_cost: 0.2,
            exposure: 0.15,
            miner_reserve: 1.0,
            high_piece: 6.0,
            determinisations: 4,
        }
    }
}
