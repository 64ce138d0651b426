//! The sampler behind `sample_legal` draws exactly the listed actions: on
//! states of random games under every preset, each listed action is drawn
//! (60 draws per action miss one with odds about e^-60) and nothing else.
//! The kit's chi-square test covers uniformity; this covers a listed
//! action the sampler could never draw, which a chi-square test over many
//! actions may let through.

use std::collections::BTreeSet;

use battleline_core::{Action, BattleLine, Rules};
use game_traits::Preset;
use game_traits::RuleSet;
use game_traits::{Game, GameRng, Turn};
use rand::{Rng, SeedableRng};

#[test]
fn sampler_draws_exactly_the_listed_actions() {
    let mut rng = GameRng::seed_from_u64(11);
    let mut legal = Vec::new();
    let mut scratch = Vec::new();
    let mut checked = 0;
    for Preset { name, rules, .. } in Rules::presets() {
        for seed in 0..12 {
            let mut s = BattleLine::new(&rules).unwrap();
            let mut game_rng = GameRng::seed_from_u64(seed);
            while !s.is_terminal() {
                let a = match s.turn() {
                    Turn::Chance => {
                        assert_eq!(s.sample_legal(&mut scratch, &mut rng), None, "{name}");
                        s.sample_chance(&mut game_rng).unwrap()
                    }
                    _ => {
                        s.legal_actions(&mut legal);
                        let listed: BTreeSet<Action> = legal.iter().copied().collect();
                        let mut drawn = BTreeSet::new();
                        for _ in 0..60 * legal.len() {
                            drawn.insert(s.sample_legal(&mut scratch, &mut rng).unwrap());
                        }
                        assert_eq!(drawn, listed, "{name}, seed {seed}:\n{s}");
                        checked += 1;
                        legal[game_rng.random_range(0..legal.len())]
                    }
                };
                s.apply(a).unwrap();
            }
            assert_eq!(s.sample_legal(&mut scratch, &mut rng), None);
        }
    }
    assert!(checked > 1000, "{checked}");
}
