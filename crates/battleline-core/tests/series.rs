//! The scoring of a series of games.

use battleline_core::game_traits::{play_match, RandomAgent};
use battleline_core::{BattleLine, Game, Rules, Series, SeriesError};

#[test]
fn rule_series_winner_scores_five_loser_one_per_flag_winner_starts_next() {
    let mut series = Series::new(Rules::default());
    let mut total = [0u32; 2];
    for seed in 0..20 {
        let rules = series.next_rules();
        let (mut a, mut b) = (RandomAgent, RandomAgent);
        let (game, _) = play_match::<BattleLine>(&rules, seed, &mut [&mut a, &mut b]).unwrap();
        let s = series.record(&game).unwrap();
        let flags = |p| game.table().claimed(p).len() as u32;
        match s.winner {
            Some(w) => {
                let l = w.other();
                assert_eq!(s.points[w.index()], 5);
                assert_eq!(s.points[l.index()], flags(l));
                assert_eq!(series.next_rules().first_player, w);
            }
            None => assert_ne!(series.next_rules().first_player, rules.first_player),
        }
        total[0] += s.points[0];
        total[1] += s.points[1];
    }
    assert_eq!(series.points(), total);
    let fresh = BattleLine::new(&series.next_rules()).unwrap();
    assert_eq!(series.record(&fresh), Err(SeriesError::NotOver));
}
