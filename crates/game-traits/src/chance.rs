//! Helpers for chance events.

use rand::Rng;

/// Picks one outcome of `outcomes` with its listed probability; `None` when
/// the list is empty. Probabilities need not be normalised.
pub fn sample_weighted<A: Copy, R: Rng + ?Sized>(outcomes: &[(A, f64)], rng: &mut R) -> Option<A> {
    let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
    if outcomes.is_empty() || total.is_nan() || total <= 0.0 {
        return outcomes.first().map(|(a, _)| *a);
    }
    let mut x = rng.random::<f64>() * total;
    for &(a, p) in outcomes {
        if x < p {
            return Some(a);
        }
        x -= p;
    }
    outcomes.last().map(|(a, _)| *a)
}

/// A uniformly random index below `n` (`n > 0`), for games whose chance
/// events are uniform (a die, the next card of a shuffled pile).
pub fn uniform_index<R: Rng + ?Sized>(n: usize, rng: &mut R) -> usize {
    rng.random_range(0..n.max(1))
}
