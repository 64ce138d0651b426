//! The position builder and the one-line notation: what they keep, what
//! they derive, and what they refuse.

mod common;

use common::{mv, play, sq};
use game_traits::PlayerId::{P0, P1};
use game_traits::{Game, Outcome};
use stratego_core::{
    classic, czech, srazhenie, Chase, EndReason, KindSet, Piece, PositionBuilder, Rules, Shuttle,
    Stratego, StrategoError,
};

fn flags(rules: Rules) -> PositionBuilder {
    PositionBuilder::new(rules)
        .piece(sq("a1"), Piece::new(P0, classic::FLAG))
        .piece(sq("j10"), Piece::new(P1, classic::FLAG))
}

#[test]
fn position_keeps_moved_and_revealed_flags_and_derives_losses() {
    let g = flags(Rules::classic())
        .piece(sq("e4"), Piece::new(P0, classic::SCOUT).moved().revealed())
        .piece(sq("e7"), Piece::new(P1, classic::MARSHAL).moved())
        .piece(sq("b1"), Piece::new(P0, classic::BOMB))
        .to_move(P1)
        .build()
        .unwrap();
    let scout = g.piece(sq("e4")).unwrap();
    assert!(scout.moved && scout.revealed);
    let marshal = g.piece(sq("e7")).unwrap();
    assert!(marshal.moved && !marshal.revealed);
    assert_eq!(g.current_player(), Some(P1));
    // Every piece not on the board was lost in a fight.
    assert_eq!(g.lost(P0)[classic::SCOUT.index()], 7);
    assert_eq!(g.lost(P0)[classic::BOMB.index()], 5);
    assert_eq!(g.lost(P1)[classic::MARSHAL.index()], 0);
    assert_eq!(Stratego::from_notation(&g.to_notation()), Ok(g));
}

#[test]
fn position_in_the_setup_phase_counts_the_placements() {
    let mut g = Stratego::new(&Rules::srazhenie()).unwrap();
    for _ in 0..45 {
        let mut legal = Vec::new();
        g.legal_actions(&mut legal);
        g.apply(legal[0]).unwrap();
    }
    let text = g.to_notation();
    assert!(text.contains(" setup "), "{text}");
    let h = Stratego::from_notation(&text).unwrap();
    assert_eq!((h.placed(P0), h.placed(P1)), (40, 5));
    assert_eq!(h, g);
    // Placements must fill the setup squares in order.
    let gap = PositionBuilder::new(Rules::srazhenie())
        .setup_phase(true)
        .piece(sq("b4"), Piece::new(P0, srazhenie::SOLDIER));
    assert!(matches!(
        gap.build(),
        Err(StrategoError::InvalidPosition(_))
    ));
}

#[test]
fn position_takes_the_two_square_history() {
    let rules = Rules {
        two_square_limit: Some(3),
        ..Rules::classic()
    };
    let base = flags(rules)
        .piece(sq("e4"), Piece::new(P0, classic::MAJOR).moved())
        .piece(sq("j7"), Piece::new(P1, classic::MAJOR));
    // A first move ends on its end square, going out.
    assert!(Shuttle::new(sq("e4"), sq("e5"), sq("e4"), 1, false).is_none());
    assert!(Shuttle::new(sq("e4"), sq("e5"), sq("e5"), 1, true).is_none());
    assert!(Shuttle::new(sq("e4"), sq("f6"), sq("f6"), 1, false).is_none());
    // e5-e4, e4-e5 and e5-e4 again: the fourth move back is forbidden.
    let shuttle = Shuttle::new(sq("e5"), sq("e4"), sq("e4"), 3, false).unwrap();
    let g = base.clone().shuttle(P0, Some(shuttle)).build().unwrap();
    assert_eq!(g.shuttle(P0), Some(shuttle));
    assert!(!g.legal_moves().contains(&stratego_core::Move {
        from: sq("e4"),
        to: sq("e5")
    }));
    assert!(g.is_legal(mv("e4", "e3")));
    assert_eq!(Stratego::from_notation(&g.to_notation()), Ok(g));
    // The shuttle's piece must be the player's and have moved.
    let unmoved = flags(rules)
        .piece(sq("e4"), Piece::new(P0, classic::MAJOR))
        .piece(sq("j7"), Piece::new(P1, classic::MAJOR))
        .shuttle(P0, Some(shuttle));
    assert!(matches!(
        unmoved.build(),
        Err(StrategoError::InvalidPosition(_))
    ));
    assert!(base.shuttle(P1, Some(shuttle)).build().is_err());
}

#[test]
fn position_takes_the_counters_and_settles_the_end() {
    let rules = Rules::srazhenie();
    let base = flags(rules)
        .piece(sq("e4"), Piece::new(P0, srazhenie::MAJOR))
        .piece(sq("e7"), Piece::new(P1, srazhenie::MAJOR));
    let g = base.clone().moves(250).no_attack(99).build().unwrap();
    assert_eq!((g.moves_played(), g.moves_without_attack()), (250, 99));
    assert!(!g.is_terminal());
    let over = base.clone().moves(250).no_attack(100).build().unwrap();
    assert_eq!(over.end().map(|e| e.reason), Some(EndReason::NoAttackLimit));
    assert!(base.clone().moves(10).no_attack(11).build().is_err());
    // A captured flag: the game is over, won by the side that has one.
    let taken = base.clear(sq("j10")).build().unwrap();
    assert_eq!(taken.outcome(), Some(Outcome::Win(P0)));
    assert_eq!(Stratego::from_notation(&taken.to_notation()), Ok(taken));
}

#[test]
fn position_takes_a_chase_in_progress() {
    let rules = Rules::classic();
    assert!(rules.more_squares_rule, "the ISF rules chase");
    let mut g = common::pos(
        rules,
        &[
            ("a1", P0, classic::FLAG),
            ("j10", P1, classic::FLAG),
            ("d2", P0, classic::MARSHAL),
            ("d4", P1, classic::MAJOR),
        ],
        P0,
    );
    play(&mut g, &["d2-d3", "d4-e4", "d3-d4", "e4-e3"]);
    let chase = g.chase().cloned().expect("a chase");
    assert_eq!((chase.chaser(), chase.evader()), (P0, sq("e3")));
    let text = g.to_notation();
    assert_eq!(Stratego::from_notation(&text), Ok(g.clone()));
    // A chase whose last position is not this one is refused.
    let wrong = Chase::new(P0, sq("e3"), vec![1, 2]);
    assert!(PositionBuilder::from(&g)
        .chase(Some(wrong))
        .build()
        .is_err());
    // Without the rule there is no chase to give.
    let text = text.replacen("classic", "classic[chase=0]", 1);
    assert!(Stratego::from_notation(&text).is_err());
}

#[test]
fn position_keeps_the_kinds_ruled_out() {
    let rules = Rules {
        reveal_attacker: false,
        ..Rules::czech()
    };
    let known = KindSet::of(czech::SPION).or(KindSet::of(czech::MINER));
    let g = PositionBuilder::new(rules)
        .piece(sq("a1"), Piece::new(P0, czech::PRAPOR))
        .piece(sq("j10"), Piece::new(P1, czech::PRAPOR))
        .piece(
            sq("e5"),
            Piece {
                ruled_out: known,
                ..Piece::new(P1, czech::KAPITAN).moved()
            },
        )
        .piece(sq("b2"), Piece::new(P0, czech::KADET))
        .build()
        .unwrap();
    assert_eq!(g.ruled_out(sq("e5")), known);
    assert_eq!(Stratego::from_notation(&g.to_notation()), Ok(g));
}

#[test]
fn position_refuses_what_the_rules_forbid() {
    let rules = Rules::classic();
    let lake = flags(rules).piece(sq("c5"), Piece::new(P0, classic::SPY));
    assert_eq!(
        lake.build(),
        Err(StrategoError::InvalidPosition("a piece on a lake"))
    );
    let too_many = (1..=10).fold(flags(rules), |b, rank| {
        b.piece(
            stratego_core::Square::from_file_rank(4, rank).unwrap(),
            Piece::new(P0, classic::SCOUT),
        )
    });
    assert!(too_many.build().is_err());
    let moved_bomb = flags(rules).piece(sq("b1"), Piece::new(P0, classic::BOMB).moved());
    assert!(moved_bomb.build().is_err());
    for text in [
        "",
        "classic",
        "chess 10/10/10/10/2~~2~~2/2~~2~~2/10/10/10/10 setup 0 0 -,- -,- -",
        "classic[chase=2] 10/10/10/10/2~~2~~2/2~~2~~2/10/10/10/10 setup 0 0 -,- -,- -",
        "classic 10/10/10/10/10/2~~2~~2/10/10/10/10 setup 0 0 -,- -,- -",
        "classic 11/10/10/10/2~~2~~2/2~~2~~2/10/10/10/10 setup 0 0 -,- -,- -",
        "classic 10/10/10/10/2~~2~~2/2~~2~~2/10/10/10/10 P2 0 0 -,- -,- -",
    ] {
        assert!(
            matches!(
                Stratego::from_notation(text),
                Err(StrategoError::InvalidPosition(_) | StrategoError::InvalidRules(_))
            ),
            "{text}"
        );
    }
}

#[test]
fn notation_names_the_rule_options_that_differ() {
    let rules = Rules {
        more_squares_rule: false,
        no_attack_limit: Some(200),
        two_square_limit: None,
        first_player: stratego_core::FirstPlayer::Seat1,
        ..Rules::classic()
    };
    let g = Stratego::new(&rules).unwrap();
    let text = g.to_notation();
    assert!(
        text.starts_with("classic[two_square=off,chase=0,no_attack=200,first=p1] "),
        "{text}"
    );
    assert_eq!(Stratego::from_notation(&text).unwrap().rules(), &rules);
}

#[test]
fn position_keeps_hidden_losses_and_the_draw_of_who_starts() {
    use stratego_core::{czech, FirstPlayer, KindSet};
    // Before the draw, the drawn starter, and losses of unknown kind.
    let undrawn = Stratego::new(&Rules::czech()).unwrap();
    assert_eq!(
        undrawn.to_notation(),
        "czech 10/10/10/10/2~~2~~2/2~~2~~2/10/10/10/10 setup 0 0 -,- -,- -"
    );
    assert_eq!(Stratego::from_notation(&undrawn.to_notation()), Ok(undrawn));
    let mut drawn = Stratego::new(&Rules::czech()).unwrap();
    drawn.apply(stratego_core::Action::Start(P1)).unwrap();
    let text = drawn.to_notation();
    assert!(text.contains(" setup:P1 "), "{text}");
    assert_eq!(Stratego::from_notation(&text), Ok(drawn));
    let fixed = "classic 10/10/10/10/2~~2~~2/2~~2~~2/10/10/10/10 setup:P1 0 0 -,- -,- -";
    assert!(
        Stratego::from_notation(fixed).is_err(),
        "classic does not draw"
    );
    assert_eq!(Rules::classic().first_player, FirstPlayer::Seat0);
    let ruled_out = KindSet::MOBILE
        .and(KindSet::of_variant(stratego_core::Variant::Czech))
        .minus(KindSet::of(czech::KAPRAL))
        .minus(KindSet::of(czech::STRELEC));
    let g = flags(Rules::czech())
        .piece(sq("e4"), Piece::new(P0, czech::KADET).moved())
        .piece(sq("e7"), Piece::new(P1, czech::KADET))
        .hidden_loss(P0, czech::STRELEC, ruled_out)
        .build()
        .unwrap();
    let text = g.to_notation();
    assert!(text.ends_with(" F{KJIHEDC},-"), "{text}");
    assert_eq!(Stratego::from_notation(&text), Ok(g.clone()));
    assert_eq!(g.observation(P1).hidden_lost[P0].len(), 1);
    assert_eq!(g.observation(P1).hidden_lost[P0][0].kind, None);
    // A hidden loss of a kind ruled out, or under revealing rules, is
    // refused.
    let bad = flags(Rules::czech())
        .piece(sq("e4"), Piece::new(P0, czech::KADET).moved())
        .piece(sq("e7"), Piece::new(P1, czech::KADET))
        .hidden_loss(P0, czech::KAPITAN, ruled_out);
    assert!(bad.build().is_err());
    let revealing = Rules {
        reveal_attacker: true,
        ..Rules::czech()
    };
    let bad = flags(revealing)
        .piece(sq("e4"), Piece::new(P0, czech::KADET).moved())
        .piece(sq("e7"), Piece::new(P1, czech::KADET))
        .hidden_loss(P0, czech::STRELEC, ruled_out);
    assert!(bad.build().is_err());
}
