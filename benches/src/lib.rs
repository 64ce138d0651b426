//! The cross-game benches live in `benches/`; this library only gives them
//! the policy they step with.

use tabletop_rules::game_traits::GameRng;

/// Picks, for each game, a uniformly random legal action from its row of
/// `masks` (rows of `space` values), as a trainer's random policy would.
pub fn random_masked(
    masks: &[bool],
    space: usize,
    legal: &mut Vec<usize>,
    rng: &mut GameRng,
    out: &mut [usize],
) {
    for (action, mask) in out.iter_mut().zip(masks.chunks(space)) {
        legal.clear();
        legal.extend((0..space).filter(|&i| mask[i]));
        *action = legal[rand::Rng::random_range(rng, 0..legal.len().max(1))];
    }
}
