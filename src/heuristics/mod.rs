//! Per-game bots and playout evaluations: a few lines of game knowledge
//! each, used by the arena and `play` (`heuristic`) and by the generic
//! search bots (the evaluators value playouts cut off early).

#[cfg(feature = "battleline")]
pub mod battleline;
#[cfg(feature = "cardwar")]
pub mod cardwar;
#[cfg(feature = "stratego")]
pub mod stratego;

#[cfg(any(feature = "battleline", feature = "cardwar", feature = "stratego"))]
use game_traits::{chance::uniform_index, GameRng};
#[cfg(any(feature = "battleline", feature = "cardwar", feature = "stratego"))]
use rand::Rng;

/// The action of `legal` with the highest `score`, plus a little noise
/// from `rng` so that equal-looking actions vary between games.
#[cfg(any(feature = "battleline", feature = "cardwar", feature = "stratego"))]
pub(crate) fn best_scored<A: Copy>(legal: &[A], rng: &mut GameRng, score: impl Fn(A) -> f64) -> A {
    let mut best = None;
    let mut top = f64::NEG_INFINITY;
    for &a in legal {
        let s = score(a) + rng.random::<f64>() * 0.1;
        if s > top {
            top = s;
            best = Some(a);
        }
    }
    best.unwrap_or_else(|| legal[uniform_index(legal.len(), rng)])
}
