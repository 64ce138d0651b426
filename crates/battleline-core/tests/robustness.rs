//! Fuzz-like properties: no input through the public API panics, and a
//! refused action leaves the state as it was.

use battleline_core::{
    check_claim, formation_strength, Action, BattleLine, Card, CardSet, Environment, Flag,
    FormationOrder, Rules, ACTION_SPACE,
};
use game_traits::{Game, GameRng, PlayerId, Turn};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn arbitrary_action_ids_never_panic(seed in any::<u64>(), ids in proptest::collection::vec(0..ACTION_SPACE, 1..60)) {
        let mut rng = GameRng::seed_from_u64(seed);
        let mut s = BattleLine::new(&Rules::default()).unwrap();
        let mut legal = Vec::new();
        // Play into the game a random number of steps, then throw actions at it.
        let steps = rng.random_range(0..150);
        for _ in 0..steps {
            let a = match s.turn() {
                Turn::Terminal => break,
                Turn::Chance => s.sample_chance(&mut rng).unwrap(),
                Turn::Player(_) => {
                    s.legal_actions(&mut legal);
                    legal[rng.random_range(0..legal.len())]
                }
            };
            s.apply(a).unwrap();
        }
        for id in ids {
            let a = Action::from_id(id).unwrap();
            let before = s;
            let legal_now = s.is_legal(a);
            match s.apply(a) {
                Ok(()) => prop_assert!(legal_now),
                Err(_) => {
                    prop_assert!(!legal_now);
                    prop_assert_eq!(s, before);
                }
            }
        }
    }

    #[test]
    fn arbitrary_card_slices_never_panic(idx in proptest::collection::vec(0usize..70, 0..8), fog: bool, mud: bool) {
        let cards: Vec<Card> = idx.iter().filter_map(|&i| Card::from_index(i)).collect();
        let env = Environment { fog, mud };
        let _ = formation_strength(&cards, env, FormationOrder::Text);
        let mut flag = Flag::new();
        for (k, &c) in cards.iter().enumerate() {
            let _ = flag.place(PlayerId::new((k % 2) as u8), c);
        }
        if mud { let _ = flag.add_mud(); }
        for p in [PlayerId::P0, PlayerId::P1] {
            let _ = check_claim(&flag, p, CardSet::ALL_TROOPS, &Rules::default());
        }
    }
}
