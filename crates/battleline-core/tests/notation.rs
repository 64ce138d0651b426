//! The position builder and the one-line notation: every reachable state
//! round-trips, hand-made positions are validated, and no text panics.

use battleline_core::{
    Action, BattleLine, BattleLineError, Card, CardSet, Colour, Deck, FlagId, Game, GameRng, Phase,
    PlayerId, PositionBuilder, Rules, Tactic, Turn,
};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};

const P0: PlayerId = PlayerId::P0;
const P1: PlayerId = PlayerId::P1;

fn all_rules() -> Vec<Rules> {
    vec![
        Rules::default(),
        Rules::published_order(),
        Rules::claims_at_start_of_turn(),
        Rules::movable_environment(),
        Rules::unseen_wilds().with_first_player(P1),
        Rules::troops_only(),
        Rules {
            last_pass: battleline_core::LastPass::SettleAtOnce,
            ..Rules::default()
        },
    ]
}

/// The state after `steps` random actions (or the end) of game `seed`.
fn random_state(rules: &Rules, seed: u64, steps: usize) -> BattleLine {
    let mut rng = GameRng::seed_from_u64(seed);
    let mut s = BattleLine::new(rules).unwrap();
    let mut legal = Vec::new();
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
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn notation_round_trips_every_reachable_state(seed in any::<u64>(), steps in 0usize..400, r in 0usize..5) {
        let s = random_state(&all_rules()[r], seed, steps);
        let line = s.to_notation();
        prop_assert!(!line.contains('\n'));
        let back = BattleLine::from_notation(&line);
        prop_assert_eq!(back, Ok(s), "{}", line);
        prop_assert_eq!(PositionBuilder::from_state(&s).build(), Ok(s));
    }

    #[test]
    fn notation_of_arbitrary_text_never_panics(text in "\\PC{0,200}") {
        let _ = BattleLine::from_notation(&text);
    }

    #[test]
    fn notation_with_one_character_changed_never_panics(seed in any::<u64>(), steps in 0usize..400, at in any::<usize>(), c in any::<char>()) {
        let line = random_state(&Rules::movable_environment(), seed, steps).to_notation();
        let mut chars: Vec<char> = line.chars().collect();
        let i = at % chars.len();
        chars[i] = c;
        let text: String = chars.into_iter().collect();
        if let Ok(s) = BattleLine::from_notation(&text) {
            // Whatever is accepted is a state the engine stands behind.
            prop_assert_eq!(BattleLine::from_notation(&s.to_notation()), Ok(s));
            let json = serde_json::to_string(&s).unwrap();
            prop_assert_eq!(serde_json::from_str::<BattleLine>(&json).unwrap(), s);
        }
    }
}

fn t(c: Colour, v: u8) -> Card {
    Card::troop(c, v).unwrap()
}

fn f(i: usize) -> FlagId {
    FlagId::new(i).unwrap()
}

#[test]
fn notation_of_the_start_lists_every_field() {
    let s = BattleLine::new(&Rules::default()).unwrap();
    assert_eq!(
        s.to_notation(),
        "-/-|-/-|-/-|-/-|-/-|-/-|-/-|-/-|-/- P0:setup h=-/- d=60/10 x=-/- t=0/0 m=0"
    );
    let s = BattleLine::new(&Rules::movable_environment().with_first_player(P1)).unwrap();
    assert!(s
        .to_notation()
        .ends_with("P1:setup h=-/- d=60/10 x=-/- t=0/0 m=0 rules=first-P1,movable-environment"));
}

#[test]
fn notation_shows_completion_order_claims_environment_and_known_cards() {
    let line = "R1,R2,R3*#/B4,B5|F0M1:-/Y1,Y2,Y3,Y4*|-/-|-/-|-/-|-/-|-/-|-/-|-/- \
                P1:return h=R4!,SB/B1,B2,B3 d=46+G9/6 x=-/SCT t=1/2 returns=1 drawn=3 scout=P1 m=30 \
                rules=movable-environment";
    let s = BattleLine::from_notation(line).unwrap();
    assert_eq!(
        s.to_notation(),
        line.split_whitespace().collect::<Vec<_>>().join(" ")
    );
    let f1 = s.table().flag(f(0));
    assert_eq!((f1.first_complete(), f1.claimed()), (Some(P0), Some(P0)));
    let f2 = s.table().flag(f(1));
    assert_eq!((f2.fog_owner(), f2.mud_owner()), (Some(P0), Some(P1)));
    assert_eq!(
        s.returned(Deck::Troop).collect::<Vec<_>>(),
        [t(Colour::Green, 9)]
    );
    assert_eq!(s.known_by(P1), [t(Colour::Red, 4)].into_iter().collect());
    assert_eq!((s.table().phase(), s.table().player()), (Phase::Return, P1));
    assert_eq!(s.table().scout_by(), Some(P1));
}

#[test]
fn notation_errors_are_typed() {
    let ok = "-/-|-/-|-/-|-/-|-/-|-/-|-/-|-/-|-/- P0:play h=-/- d=60/10 x=-/- t=0/0 m=0";
    assert!(BattleLine::from_notation(ok).is_ok());
    for bad in [
        "",
        "-/-|-/- P0:play h=-/- d=60/10 x=-/- t=0/0 m=0",
        &ok.replace("P0:play", "P2:play"),
        &ok.replace("play", "dance"),
        &ok.replace("d=60/10", "d=59/10"),
        &ok.replace("h=-/-", "h=R1/R1"),
        &ok.replace("m=0", "m=0 m=1"),
        &ok.replace("m=0", "m=x"),
        &ok.replace("m=0", "q=1 m=0"),
        &ok.replace("t=0/0", "t=1/0"),
        &ok.replace("-/- P0", "R1,R2,R3/- P0"),
        &ok.replace("-/- P0", "R1,R2,R3*/-* P0"),
    ] {
        assert!(
            matches!(
                BattleLine::from_notation(bad),
                Err(BattleLineError::InvalidPosition(_))
            ),
            "accepted: {bad}"
        );
    }
    assert!("R11".parse::<Card>().is_err() && "X1".parse::<Card>().is_err());
    assert_eq!(
        "C8".parse::<Card>(),
        Ok(Card::tactic(Tactic::CompanionCavalry))
    );
    assert_eq!("P10".parse::<Card>(), Ok(t(Colour::Purple, 10)));
}

#[test]
fn builder_positions_play_on() {
    // P0 holds Red 8-9-10 at F1 against one Blue card; it is his claim step.
    let game = PositionBuilder::new(Rules::default())
        .place(f(0), P0, t(Colour::Red, 8))
        .place(f(0), P0, t(Colour::Red, 9))
        .place(f(0), P0, t(Colour::Red, 10))
        .place(f(0), P1, t(Colour::Blue, 2))
        .hand(P0, [t(Colour::Red, 1)].into_iter().collect())
        .hand(P1, [t(Colour::Blue, 5)].into_iter().collect())
        .turn(P0, Phase::Claim)
        .draws_due(1)
        .moves(4)
        .build()
        .unwrap();
    let mut legal = Vec::new();
    game.legal_actions(&mut legal);
    assert_eq!(
        legal,
        [
            Action::Claim(f(0)),
            Action::Draw(Deck::Troop),
            Action::Draw(Deck::Tactics)
        ]
    );
    assert_eq!(BattleLine::from_notation(&game.to_notation()), Ok(game));
}

#[test]
fn builder_refuses_what_no_game_reaches() {
    let b = || PositionBuilder::new(Rules::default());
    let r = |v| t(Colour::Red, v);
    let bad = [
        // A card twice.
        b().place(f(0), P0, r(1))
            .hand(P0, [r(1)].into_iter().collect()),
        // Four cards without Mud.
        b().place(f(0), P0, r(1))
            .place(f(0), P0, r(2))
            .place(f(0), P0, r(3))
            .place(f(0), P0, r(4)),
        // A claim by an incomplete side.
        b().place(f(0), P0, r(1)).claim(f(0), P0),
        // A breakthrough in a game not over.
        (0..3).fold(b(), |b, i| {
            (1..=3)
                .fold(b, |b, v| b.place(f(i), P0, t(Colour::ALL[i], v)))
                .claim(f(i), P0)
        }),
        // A tactics card played by nobody.
        b().discards(P0, [Card::tactic(Tactic::Scout)].into_iter().collect()),
        // Owners of Fog under the default (fixed) rules.
        b().fog(f(2), Some(P0)).tactics_played(P0, 1, false),
        // Scout returns without Scout.
        b().returned(Deck::Troop, &[r(5)]),
        // Known cards not in the other hand.
        b().known(P0, [r(5)].into_iter().collect()),
    ];
    for builder in bad {
        assert!(
            matches!(builder.build(), Err(BattleLineError::InvalidPosition(_))),
            "accepted {builder:?}"
        );
    }
    assert!(b()
        .fog(f(2), None)
        .tactics_played(P0, 1, false)
        .build()
        .is_ok());
    let hand: CardSet = (1..=7).map(r).collect();
    assert!(b().hand(P0, hand).build().is_ok());
}
