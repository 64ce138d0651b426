//! Uniformly random play: the playouts of search bots, random-game
//! benchmarks and simulation tests all use this one loop.

use rand::Rng;

use crate::{Game, Turn};

/// Plays uniformly random decisions and chance outcomes (with their listed
/// probabilities) from `state` until the end or until `limit` actions have
/// been played; returns the number played. `legal` is a reused buffer, so the
/// loop allocates nothing beyond what the game itself does.
///
/// ```
/// use game_traits::{random_playout, Game, GameRng, RuleSet};
/// use game_traits::rand::SeedableRng;
///
/// fn random_game<G: Game>(rules: &G::Rules, seed: u64) -> G {
///     let mut game = G::new(rules).unwrap();
///     let mut rng = GameRng::seed_from_u64(seed);
///     let limit = rules.max_game_length();
///     random_playout(&mut game, &mut Vec::new(), &mut rng, limit);
///     game
/// }
/// ```
pub fn random_playout<G: Game, R: Rng + ?Sized>(
    state: &mut G,
    legal: &mut Vec<G::Action>,
    rng: &mut R,
    limit: u32,
) -> u32 {
    for played in 0..limit {
        let action = match state.turn() {
            Turn::Terminal => return played,
            Turn::Chance => match state.sample_chance(rng) {
                Some(a) => a,
                None => return played,
            },
            Turn::Player(_) => match state.sample_legal(legal, rng) {
                Some(a) => a,
                None => return played,
            },
        };
        state.apply_unchecked(action);
    }
    limit
}
