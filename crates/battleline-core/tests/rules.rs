//! One test per rule of the game, on whole states.

use battleline_core::{Action, BattleLine, Rules};
use game_traits::{play_match, Game, RandomAgent};

#[test]
fn random_games_end_and_replay() {
    for seed in 0..200 {
        let (mut a, mut b) = (RandomAgent, RandomAgent);
        let (state, record) =
            play_match::<BattleLine>(&Rules::default(), seed, &mut [&mut a, &mut b])
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(state.is_terminal());
        assert_eq!(record.replay().unwrap(), state);
        let _ = Action::Pass;
    }
}
