//! The tiny game passes the whole conformance kit, and the kit catches
//! broken games.

use game_traits::kuhn::{KuhnAction, KuhnPoker, KuhnRules};
use game_traits::testkit::{check_game, check_game_with, check_golden, KitConfig};
use game_traits::RuleSet;
use game_traits::{play_match, Agent, Game, Outcome, PlayerId, RandomAgent, Record, Turn};

#[test]
fn kuhn_passes_the_conformance_kit() {
    check_game::<KuhnPoker>(&KuhnRules::default());
    check_game::<KuhnPoker>(&KuhnRules { ante: 3 });
}

#[test]
fn kuhn_golden_playthroughs() {
    check_golden::<KuhnPoker>(
        &KuhnRules::default(),
        &[1, 2, 3, 4],
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/kuhn.txt"),
    );
}

fn dealt(cards: [game_traits::kuhn::Card; 2]) -> KuhnPoker {
    let mut g = KuhnPoker::new(&KuhnRules::default()).unwrap();
    for c in cards {
        g.apply(KuhnAction::Deal(c)).unwrap();
    }
    g
}

#[test]
fn showdown_goes_to_the_higher_card() {
    use game_traits::kuhn::Card::*;
    let mut g = dealt([Jack, King]);
    g.apply(KuhnAction::Bet).unwrap();
    g.apply(KuhnAction::Bet).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Win(PlayerId::P1)));
    assert_eq!(g.returns(PlayerId::P1), 2.0);
    assert_eq!(g.returns(PlayerId::P0), -2.0);
}

#[test]
fn folding_loses_the_ante() {
    use game_traits::kuhn::Card::*;
    let mut g = dealt([Jack, King]);
    g.apply(KuhnAction::Pass).unwrap();
    g.apply(KuhnAction::Bet).unwrap();
    g.apply(KuhnAction::Pass).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Win(PlayerId::P1)));
    assert_eq!(g.returns(PlayerId::P0), -1.0);
}

#[test]
fn illegal_action_is_refused_and_changes_nothing() {
    use game_traits::kuhn::Card::*;
    let g = dealt([Queen, King]);
    let mut copy = g.clone();
    assert!(copy.apply(KuhnAction::Deal(Jack)).is_err());
    assert_eq!(copy, g);
}

#[test]
fn hidden_card_is_not_in_the_observation() {
    use game_traits::kuhn::Card::*;
    // Two states that differ only in the card P0 cannot see.
    let (a, b) = (dealt([Jack, Queen]), dealt([Jack, King]));
    assert_eq!(a.observation(PlayerId::P0), b.observation(PlayerId::P0));
    assert_ne!(a.observation(PlayerId::P1), b.observation(PlayerId::P1));
}

#[test]
fn match_driver_is_reproducible_and_records_replay() {
    let rules = KuhnRules::default();
    let play = |seed| {
        let (mut a, mut b) = (RandomAgent, RandomAgent);
        play_match::<KuhnPoker>(&rules, seed, &mut [&mut a, &mut b]).unwrap()
    };
    let (s1, r1) = play(9);
    let (s2, r2) = play(9);
    assert_eq!((s1.clone(), r1.clone()), (s2, r2));
    assert_eq!(r1.replay().unwrap(), s1);
    let back: Record<KuhnPoker> =
        serde_json::from_str(&serde_json::to_string(&r1).unwrap()).unwrap();
    assert_eq!(back, r1);
}

#[test]
fn match_driver_refuses_an_agent_that_cheats() {
    struct Cheat;
    impl Agent<KuhnPoker> for Cheat {
        fn name(&self) -> String {
            "cheat".into()
        }
        fn choose(
            &mut self,
            _: &game_traits::kuhn::KuhnObservation,
            _: &[KuhnAction],
            _: &mut game_traits::GameRng,
        ) -> KuhnAction {
            KuhnAction::Deal(game_traits::kuhn::Card::King)
        }
    }
    let err = play_match::<KuhnPoker>(
        &KuhnRules::default(),
        1,
        &mut [&mut Cheat, &mut RandomAgent],
    )
    .unwrap_err();
    assert!(matches!(err, game_traits::MatchError::IllegalChoice { .. }));
}

#[test]
fn record_with_an_illegal_step_is_refused() {
    let mut r = Record::<KuhnPoker>::new(KuhnRules::default(), 0);
    r.push(KuhnAction::Bet);
    assert!(matches!(
        r.replay(),
        Err(game_traits::ReplayError::Step { step: 0, .. })
    ));
    let wrong: Result<Record<KuhnPoker>, _> =
        serde_json::from_str(r#"{"game":"chess","rules":{"ante":1},"seed":0,"actions":[]}"#);
    assert!(matches!(
        wrong.unwrap().replay(),
        Err(game_traits::ReplayError::WrongGame { .. })
    ));
}

#[test]
fn tampered_state_is_refused() {
    for bad in [
        r#"{"rules":{"ante":1},"cards":["King","King"],"history":[]}"#,
        r#"{"rules":{"ante":1},"cards":[null,null],"history":["Bet"]}"#,
        r#"{"rules":{"ante":0},"cards":[null,null],"history":[]}"#,
        r#"{"rules":{"ante":1},"cards":["Jack","King"],"history":["Bet","Bet","Bet"]}"#,
    ] {
        assert!(serde_json::from_str::<KuhnPoker>(bad).is_err(), "{bad}");
    }
}

/// Deliberately broken games: each breaks one contract, and the kit must
/// notice.
mod broken {
    use super::*;
    use game_traits::kuhn::KuhnView;
    use game_traits::rand::Rng;

    /// Honest observations, but determinisation ignores its generator.
    pub const FIXED_DEAL: u8 = 0;
    /// The observation carries the whole state.
    pub const LEAKY_OBSERVATION: u8 = 1;
    /// The view of a deal shows every player the card.
    pub const LEAKY_VIEW: u8 = 2;
    /// `is_legal` accepts a second deal of the same card, which the list
    /// and `check_action` refuse.
    pub const LAX_IS_LEGAL: u8 = 3;
    /// `sample_legal` always draws the first listed action.
    pub const SKEWED_SAMPLER: u8 = 4;

    #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    pub struct Broken<const FAULT: u8>(pub KuhnPoker);

    #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    pub struct View {
        honest: <KuhnPoker as Game>::Observation,
        everything: Option<KuhnPoker>,
    }

    impl std::fmt::Display for View {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            self.honest.fmt(f)
        }
    }

    impl<const FAULT: u8> std::fmt::Display for Broken<FAULT> {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            self.0.fmt(f)
        }
    }

    impl<const FAULT: u8> Game for Broken<FAULT> {
        type Rules = KuhnRules;
        type Action = KuhnAction;
        type Observation = View;
        type Error = <KuhnPoker as Game>::Error;
        type ActionView = KuhnView;
        const NAME: &'static str = "broken-kuhn";
        const TITLE: &'static str = "Broken Kuhn";
        fn new(r: &KuhnRules) -> Result<Self, Self::Error> {
            KuhnPoker::new(r).map(Broken)
        }
        fn rules(&self) -> &KuhnRules {
            self.0.rules()
        }
        fn turn(&self) -> Turn {
            self.0.turn()
        }
        fn legal_actions(&self, out: &mut Vec<KuhnAction>) {
            self.0.legal_actions(out)
        }
        fn check_action(&self, a: KuhnAction) -> Result<(), Self::Error> {
            self.0.check_action(a)
        }
        fn is_legal(&self, a: KuhnAction) -> bool {
            let lax = FAULT == LAX_IS_LEGAL && matches!(a, KuhnAction::Deal(_));
            lax && self.0.turn() == Turn::Chance || self.0.is_legal(a)
        }
        fn apply_unchecked(&mut self, a: KuhnAction) {
            self.0.apply_unchecked(a)
        }
        fn sample_legal<R: Rng + ?Sized>(
            &self,
            legal: &mut Vec<KuhnAction>,
            rng: &mut R,
        ) -> Option<KuhnAction> {
            if FAULT != SKEWED_SAMPLER {
                return self.0.sample_legal(legal, rng);
            }
            self.0.sample_legal(legal, rng)?;
            legal.first().copied()
        }
        fn action_view(&self, viewer: PlayerId, a: KuhnAction) -> KuhnView {
            match (FAULT, self.0.action_view(viewer, a)) {
                (LEAKY_VIEW, KuhnView::Deal { to, .. }) => {
                    let KuhnAction::Deal(card) = a else {
                        unreachable!("a deal's view comes from a deal")
                    };
                    KuhnView::Deal {
                        to,
                        card: Some(card),
                    }
                }
                (_, view) => view,
            }
        }
        fn chance_outcomes(&self, out: &mut Vec<(KuhnAction, f64)>) {
            self.0.chance_outcomes(out)
        }
        fn observation(&self, p: PlayerId) -> View {
            View {
                honest: self.0.observation(p),
                everything: (FAULT == LEAKY_OBSERVATION).then(|| self.0.clone()),
            }
        }
        fn determinize<R: Rng + ?Sized>(
            o: &Self::Observation,
            rng: &mut R,
        ) -> Result<Self, Self::Error> {
            if let Some(all) = &o.everything {
                return Ok(Broken(all.clone()));
            }
            if FAULT == FIXED_DEAL {
                // Always the same completion: the generator is ignored.
                let mut fixed = game_traits::GameRng::from_seed([7; 32]);
                return KuhnPoker::determinize(&o.honest, &mut fixed).map(Broken);
            }
            KuhnPoker::determinize(&o.honest, rng).map(Broken)
        }
        fn outcome(&self) -> Option<Outcome> {
            self.0.outcome()
        }
        fn returns(&self, p: PlayerId) -> f64 {
            self.0.returns(p)
        }
        fn move_count(&self) -> u32 {
            self.0.move_count()
        }
    }
    use game_traits::rand::SeedableRng;
}

fn few_games() -> KitConfig {
    KitConfig {
        games: 20,
        ..KitConfig::default()
    }
}

#[test]
#[should_panic(expected = "never differed")]
fn kit_catches_determinisation_that_ignores_its_generator() {
    check_game_with::<broken::Broken<{ broken::FIXED_DEAL }>>(&KuhnRules::default(), &few_games());
}

#[test]
#[should_panic(expected = "reveal everything hidden")]
fn kit_catches_observations_that_leak_the_hidden_card() {
    check_game_with::<broken::Broken<{ broken::LEAKY_OBSERVATION }>>(
        &KuhnRules::default(),
        &few_games(),
    );
}

#[test]
#[should_panic(expected = "both leave him the same observation")]
fn kit_catches_an_action_view_that_shows_the_opponents_card() {
    check_game_with::<broken::Broken<{ broken::LEAKY_VIEW }>>(&KuhnRules::default(), &few_games());
}

#[test]
#[should_panic(expected = "is_legal")]
fn kit_catches_is_legal_disagreeing_with_the_list() {
    check_game_with::<broken::Broken<{ broken::LAX_IS_LEGAL }>>(
        &KuhnRules::default(),
        &few_games(),
    );
}

#[test]
#[should_panic(expected = "sample_legal is not uniform")]
fn kit_catches_a_sampler_that_is_not_uniform() {
    check_game_with::<broken::Broken<{ broken::SKEWED_SAMPLER }>>(
        &KuhnRules::default(),
        &few_games(),
    );
}

#[test]
fn the_default_checks_pass_on_an_honest_wrapper_too() {
    // The same wrapper without a fault passes, so the tests above fail for
    // the fault they name and nothing else.
    check_game_with::<broken::Broken<99>>(&KuhnRules::default(), &few_games());
}

proptest::proptest! {
    /// Any sequence of action ids a caller may send: legal ones apply,
    /// the others are refused and change nothing; nothing panics.
    #[test]
    fn arbitrary_action_ids_never_panic(ids in proptest::collection::vec(0usize..8, 0..12)) {
        let rules = KuhnRules::default();
        let mut g = KuhnPoker::new(&rules).unwrap();
        for id in ids {
            let Some(a) = rules.action_from_id(id) else {
                proptest::prop_assert!(id >= rules.action_space());
                continue;
            };
            let before = g.clone();
            match g.apply(a) {
                Ok(()) => proptest::prop_assert!(before.is_legal(a)),
                Err(_) => proptest::prop_assert_eq!(&g, &before),
            }
        }
    }
}

#[test]
fn random_playout_reaches_the_end_and_counts_actions() {
    use game_traits::rand::SeedableRng;
    let mut g = KuhnPoker::new(&KuhnRules::default()).unwrap();
    let mut rng = game_traits::GameRng::seed_from_u64(3);
    let played = game_traits::random_playout(&mut g, &mut Vec::new(), &mut rng, 100);
    assert!(g.is_terminal());
    assert_eq!(played as usize, 2 + g.move_count() as usize);
    let mut h = KuhnPoker::new(&KuhnRules::default()).unwrap();
    assert_eq!(
        game_traits::random_playout(&mut h, &mut Vec::new(), &mut rng, 1),
        1
    );
}

#[test]
fn seats_are_two_and_serialise_as_numbers() {
    assert_eq!(PlayerId::P0.other(), PlayerId::P1);
    assert_eq!(PlayerId::P1.other(), PlayerId::P0);
    assert_eq!(PlayerId::from_index(1), Some(PlayerId::P1));
    assert_eq!(PlayerId::from_index(2), None);
    assert_eq!(serde_json::to_string(&PlayerId::P1).unwrap(), "1");
    assert_eq!(serde_json::from_str::<PlayerId>("0").unwrap(), PlayerId::P0);
    for bad in ["2", "255", "-1", "\"P0\"", "null"] {
        assert!(serde_json::from_str::<PlayerId>(bad).is_err(), "{bad}");
    }
    let both = game_traits::PerPlayer::new("a", "b");
    assert_eq!(serde_json::to_string(&both).unwrap(), r#"["a","b"]"#);
    assert_eq!(both[PlayerId::P1], "b");
}

#[test]
fn kuhn_action_view_hides_the_opponents_card() {
    use game_traits::kuhn::Card::*;
    let g = KuhnPoker::new(&KuhnRules::default()).unwrap();
    let deal = KuhnAction::Deal(King);
    assert_eq!(
        g.action_view(PlayerId::P1, deal).to_string(),
        "P0 is dealt a card"
    );
    assert_eq!(
        g.action_view(PlayerId::P0, deal).to_string(),
        "P0 is dealt K"
    );
    assert_eq!(
        g.action_view(PlayerId::P1, deal),
        g.action_view(PlayerId::P1, KuhnAction::Deal(Jack))
    );
}

#[test]
fn kuhn_encodings_pass_the_kit() {
    game_traits::testkit::check_encoding::<KuhnPoker>(&KuhnRules::default(), &few_games());
}

#[test]
fn kuhn_metadata_says_what_the_game_is() {
    let info = KuhnPoker::info(&KuhnRules::default());
    assert_eq!(info.players, 2);
    assert_eq!(info.action_space, 5);
    assert_eq!(info.chance, game_traits::ChanceMode::ExplicitStochastic);
    assert_eq!(info.utility, game_traits::Utility::ZeroSum);
    assert_eq!((info.min_return, info.max_return), (-2.0, 2.0));
}

#[test]
fn kuhn_survives_a_hostile_run() {
    let report = game_traits::testkit::hostile_run::<KuhnPoker>(&KuhnRules::default(), 3000, 1);
    assert_eq!(report.inputs, 3000);
    assert_eq!(report.refused + report.accepted, 3000);
    assert!(report.refused > 0 && report.accepted > 0, "{report}");
    let finals = game_traits::testkit::determinise_final_positions::<KuhnPoker>(
        &KuhnRules::default(),
        500,
        3,
    );
    assert_eq!(finals, 1000);
}

#[test]
fn kuhn_fuzz_bodies_take_any_bytes() {
    use game_traits::testkit::fuzz;
    let inputs: [&[u8]; 6] = [
        b"",
        b"\xff\x00garbage",
        br#"{"rules":{"ante":1},"cards":["King",null],"history":[]}"#,
        br#"{"rules":{"ante":1},"player":0,"own":"King","dealt":1,"history":[],"shown":null}"#,
        br#"{"game":"kuhn-poker","rules":{"ante":2},"seed":3,"actions":[{"Deal":"Jack"},"Bet"]}"#,
        br#"{"ante":7}"#,
    ];
    for data in inputs {
        fuzz::state::<KuhnPoker>(data);
        fuzz::observation::<KuhnPoker>(data);
        fuzz::record::<KuhnPoker>(data);
        fuzz::rules::<KuhnPoker>(data);
        fuzz::actions::<KuhnPoker>(&KuhnRules::default(), data);
    }
}
