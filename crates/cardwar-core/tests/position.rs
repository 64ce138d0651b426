//! The position builder, the one-line notation and the action views.

mod common;

use cardwar_core::rand::{Rng, SeedableRng};
use cardwar_core::{
    ActionView, CardSet, CardWar, CardWarError, FirstAttacker, Game, GameRng, LayKind, LineCard,
    Open, Phase, PlayerId, PositionBuilder, Rules, Soldier, Turn,
};
use proptest::prelude::*;

use common::{act, position, soldier, A, D};

/// States met in random games under a few rule sets, every `stride`-th.
fn reachable(seed: u64, stride: usize) -> Vec<CardWar> {
    let sets = [
        Rules::default(),
        Rules {
            aside: 0,
            keep_in_pile: 0,
            donor_returns: true,
            first_attacker: FirstAttacker::Alternate,
            reserve_in_first_round: true,
            reserve_all_or_nothing: true,
            bomb_hits_hand: true,
            ..Rules::default()
        },
        Rules {
            aside: 20,
            keep_in_pile: 2,
            ..Rules::default()
        },
    ];
    let rules = sets[seed as usize % sets.len()];
    let mut rng = GameRng::seed_from_u64(seed);
    let mut g = CardWar::new(&rules).unwrap();
    let mut legal = Vec::new();
    let mut out = Vec::new();
    for step in 0.. {
        if step % stride == 0 || g.turn() == Turn::Terminal {
            out.push(g.clone());
        }
        if g.turn() == Turn::Terminal {
            break;
        }
        g.legal_actions(&mut legal);
        g.apply(legal[rng.random_range(0..legal.len())]).unwrap();
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig {
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::Direct(
                "proptest-regressions/position.txt",
            ),
        )),
        ..ProptestConfig::default()
    })]

    #[test]
    fn notation_round_trips_reachable_positions(seed in any::<u64>(), stride in 5usize..60) {
        for g in reachable(seed, stride) {
            let text = g.to_notation();
            prop_assert!(!text.contains('\n'));
            prop_assert_eq!(CardWar::from_notation(&text), Ok(g.clone()), "{}", text);
            prop_assert_eq!(text.parse::<CardWar>(), Ok(g.clone()));
            prop_assert_eq!(g.to_builder().build(), Ok(g.clone()));
        }
    }

    #[test]
    fn arbitrary_text_is_refused_without_a_panic(text in ".{0,300}") {
        let _ = CardWar::from_notation(&text);
    }

    #[test]
    fn damaged_notation_is_refused_or_valid(seed in 0u64..200, cut in any::<prop::sample::Index>(), junk in "[ -~]{0,6}") {
        // A real position with a few characters replaced: either refused
        // with a typed error, or a valid position that writes itself back.
        let states = reachable(seed, 40);
        let g = &states[seed as usize % states.len()];
        let text = g.to_notation();
        let i = cut.index(text.len());
        let damaged = format!("{}{junk}{}", &text[..i], &text[(i + junk.len()).min(text.len())..]);
        match CardWar::from_notation(&damaged) {
            Ok(h) => prop_assert_eq!(CardWar::from_notation(&h.to_notation()), Ok(h)),
            Err(e) => prop_assert!(matches!(
                e,
                CardWarError::InvalidPosition(_) | CardWarError::InvalidRules(_)
            )),
        }
    }
}

#[test]
fn builder_defaults_to_round_one_with_every_soldier_in_hand() {
    let g = PositionBuilder::new(Rules::default()).build().unwrap();
    assert_eq!(g.round(), 1);
    assert_eq!(
        g.phase(),
        Phase::Lay {
            player: A,
            kind: LayKind::Attack,
            left: 12
        }
    );
    for p in PlayerId::BOTH {
        assert_eq!(g.hidden(p).hand, CardSet::ALL);
        assert_eq!(g.side(p).guards, [14, 14, 15]);
    }
    assert_eq!(
        CardWar::from_notation("").unwrap(),
        g,
        "every field left out"
    );
}

#[test]
fn builder_refuses_what_the_rules_do_not_allow() {
    let king = soldier(13, 0);
    let both = PositionBuilder::new(Rules::default())
        .line(A, &[LineCard::down(king)])
        .pile(A, [king].into_iter().collect());
    assert!(matches!(
        both.build(),
        Err(CardWarError::InvalidPosition(_))
    ));
    let fight_without_cards = PositionBuilder::new(Rules::default()).phase(Phase::AttackDie);
    assert!(matches!(
        fight_without_cards.build(),
        Err(CardWarError::InvalidPosition(_))
    ));
    let bad_rules = PositionBuilder::new(Rules {
        max_rounds: 0,
        ..Rules::default()
    });
    assert!(matches!(
        bad_rules.build(),
        Err(CardWarError::InvalidRules(_))
    ));
    let over_without_result = PositionBuilder::new(Rules::default()).phase(Phase::Over);
    assert!(over_without_result.build().is_err());
}

#[test]
fn builder_sets_every_part_of_a_battle() {
    let (king, five, seven) = (soldier(13, 0), soldier(5, 0), soldier(7, 1));
    let g = PositionBuilder::new(Rules::default())
        .round(3)
        .first(D)
        .attacker(D)
        .last_attacker(Some(D))
        .line(
            D,
            &[
                LineCard::Revealed {
                    card: king,
                    health: 6,
                },
                LineCard::down(five),
                LineCard::FromPile {
                    card: seven,
                    extra: 1,
                },
            ],
        )
        .guards(A, [0, 9, 15])
        .open(A, Open::Guard(cardwar_core::Guard::SecondAce))
        .open(D, Open::Soldier)
        .prayed(D, true)
        .asked(A, true)
        .phase(Phase::AttackDie)
        .build()
        .unwrap();
    assert_eq!(g.open_health(D), Some(6));
    assert_eq!(g.open_health(A), Some(9));
    assert_eq!(g.line_card(D, 2), Some(seven));
    assert_eq!(
        g.side(D).unseen_in_pile,
        1,
        "the reinforcement was never seen"
    );
    let text = g.to_notation();
    assert!(text.contains("p1.line=Ka:6,(5a),{7b+1}"), "{text}");
    assert!(text.contains("p0.guards=0/9/15"), "{text}");
    assert_eq!(CardWar::from_notation(&text).unwrap(), g);
}

#[test]
fn notation_reads_hand_written_positions() {
    let g: CardWar = "round=2 phase=attack-die p0.line=Ka:13,(5a) p1.line=9a:9 \
                      p0.open=soldier p1.open=soldier p0.asked=1 p1.asked=1"
        .parse()
        .unwrap();
    assert_eq!(g.open_health(A), Some(13));
    assert_eq!(g.hidden(D).hand.len(), 23);
    for bad in [
        "round=2 round=3",
        "phase=fight",
        "p2.hand=-",
        "p0.hand=Za",
        "p0.hand=2a,2a",
        "rules=aside:25",
        "moves=-1",
        "round",
    ] {
        assert!(CardWar::from_notation(bad).is_err(), "{bad}");
    }
}

/// P0 attacks in round 2 with `hand` cards in hand (the rest in his
/// pile), laying `left` more.
fn laying(hand: usize, left: u8, defender_hand: usize) -> CardWar {
    let keep = |n: usize| CardSet::ALL.iter().take(n).collect::<CardSet>();
    PositionBuilder::new(Rules::default())
        .round(2)
        .pile(A, CardSet::ALL.minus(keep(hand)))
        .pile(D, CardSet::ALL.minus(keep(defender_hand)))
        .phase(Phase::Lay {
            player: A,
            kind: LayKind::Attack,
            left,
        })
        .build()
        .unwrap()
}

#[test]
fn views_hide_a_card_laid_face_down_from_the_opponent() {
    let g = laying(10, 5, 10);
    let two = soldier(2, 0);
    assert_eq!(
        g.action_view(D, cardwar_core::Action::Place(two))
            .to_string(),
        "P0 laid a card face down"
    );
    assert_eq!(
        g.action_view(A, cardwar_core::Action::Place(two)),
        ActionView::Lay {
            player: A,
            card: Some(two),
            face_down: true
        }
    );
    // The only card of a line that no defender answers opens at once.
    let g = laying(1, 1, 0);
    assert_eq!(
        g.action_view(D, cardwar_core::Action::Place(two)),
        ActionView::Lay {
            player: A,
            card: Some(two),
            face_down: false
        }
    );
}

#[test]
fn views_show_a_draw_only_to_its_receiver() {
    let mut g = position(Rules::default(), 2, &[], &[])
        .pile(A, &[2, 3, 4, 5, 6, 7, 8])
        .at(Phase::DrawRoll { player: A });
    act(&mut g, cardwar_core::Action::Dice(2));
    let card = cardwar_core::Action::Draw(soldier(2, 0));
    assert_eq!(g.action_view(D, card).to_string(), "P0 drew a card");
    assert_eq!(g.action_view(A, card).to_string(), "P0 drew 2a");
}

/// Whether every other outcome of the roll due in `g` leaves `viewer` a
/// different observation than `roll` does.
fn observation_keeps(
    g: &CardWar,
    viewer: cardwar_core::PlayerId,
    roll: cardwar_core::Action,
) -> bool {
    let seen = |a| {
        let mut after = g.clone();
        after.apply(a).unwrap();
        after.observation(viewer)
    };
    let mine = seen(roll);
    let mut outcomes = Vec::new();
    g.legal_actions(&mut outcomes);
    outcomes.iter().all(|&b| b == roll || seen(b) != mine)
}

#[test]
fn views_of_a_roll_show_its_value_and_the_observation_keeps_it() {
    // Both initiative dice are kept, not only who won.
    let mut g = CardWar::new(&Rules {
        aside: 0,
        ..Rules::default()
    })
    .unwrap();
    let die = cardwar_core::Action::Die;
    assert_eq!(g.action_view(D, die(3)), ActionView::Die(3));
    act(&mut g, die(3));
    assert_eq!(g.action_view(D, die(5)), ActionView::Die(5));
    assert!(observation_keeps(&g, D, die(5)));
    act(&mut g, die(5));
    assert_eq!(g.public().initiative, cardwar_core::PerPlayer::new(3, 5));
    // A draw roll of 7 from a pile of 10 keeping 5 draws 5, as 8 does: the
    // roll itself is kept.
    let g = position(Rules::default(), 2, &[], &[])
        .pile(A, &[2, 2, 3, 3, 4, 4, 5, 5, 6, 6])
        .at(Phase::DrawRoll { player: A });
    let dice = cardwar_core::Action::Dice;
    assert_eq!(g.action_view(D, dice(7)), ActionView::Dice(7));
    assert!(observation_keeps(&g, D, dice(7)));
    let mut after = g.clone();
    act(&mut after, dice(7));
    assert_eq!(after.side(A).draw_roll, 7);
    // The fight that ends the first battle: its report survives the start
    // of the second.
    let mut g = common::battle(Rules::default(), 1, &[6], &[10]);
    act(&mut g, die(3));
    assert!(observation_keeps(&g, A, die(5)));
    act(&mut g, die(5));
    assert_eq!(g.public().battle_no, 2);
    assert_eq!(g.public().battle.last_fight.unwrap().defence_die, 5);
}

#[test]
fn soldiers_read_as_they_are_written() {
    for card in Soldier::all() {
        assert_eq!(card.to_string().parse::<Soldier>(), Ok(card));
    }
    for bad in ["", "a", "1a", "11a", "Ac", "02a", "+5a", "Kab"] {
        assert!(bad.parse::<Soldier>().is_err(), "{bad}");
    }
}
