//! Helpers shared by the legacy-protocol tests (`spelinski.rs`, `ucc.rs`).

use game_env::{DynGame, DynState, EnvError, Opponent};
use game_traits::{agent_rng, chance_rng, Outcome, PerPlayer, Turn};

/// Plays one game between two opponents, calling `watch` before each
/// decision: the tests compare what a bot was told with what its seat saw.
pub fn play(
    game: &dyn DynGame,
    mut bots: PerPlayer<Box<dyn Opponent>>,
    seed: u64,
    mut watch: impl FnMut(&dyn DynState),
) -> Result<Outcome, EnvError> {
    let mut chance = chance_rng(seed);
    let mut rngs = PerPlayer::from_fn(|p| agent_rng(seed, p));
    let mut state = game.new_state();
    for _ in 0..game.info().max_game_length {
        let id = match state.turn() {
            Turn::Terminal => return Ok(state.outcome().expect("an ended game has an outcome")),
            Turn::Chance => state.sample_chance_id(&mut chance).unwrap(),
            Turn::Player(p) => {
                watch(state.as_ref());
                bots[p].choose(state.as_ref(), p, &mut rngs[p])?
            }
        };
        state.apply_id(id)?;
    }
    panic!("the game ran past its maximum length")
}
