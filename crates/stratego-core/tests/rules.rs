//! One test per rule per rule set.

mod common;

use common::Pieces;

use game_traits::PlayerId::{P0, P1};

use common::{mv, play, pos, sq, targets};
use game_traits::Preset;
use game_traits::RuleSet;
use game_traits::{Game, Outcome, PlayerId};
use stratego_core::{classic, czech, srazhenie};
use stratego_core::{EndReason, Fight, Kind, KindSet, ObsCell, Rules, Square, Variant};

const FLAGS: [(&str, PlayerId, Kind); 2] = [("a1", P0, Kind::FLAG), ("j10", P1, Kind::FLAG)];

fn with_flags(extra: &[(&'static str, PlayerId, Kind)]) -> Vec<(&'static str, PlayerId, Kind)> {
    let mut v = FLAGS.to_vec();
    v.extend_from_slice(extra);
    v
}

/// One test per rule set: `rule_x::srazhenie`, `rule_x::czech`,
/// `rule_x::classic`.
macro_rules! per_rule_set {
    ($name:ident, $body:expr) => {
        mod $name {
            use super::*;

            fn check(rules: Rules) {
                let body: fn(Rules) = $body;
                body(rules);
            }

            #[test]
            fn srazhenie() {
                check(Rules::srazhenie());
            }

            #[test]
            fn czech() {
                check(Rules::czech());
            }

            #[test]
            fn classic() {
                check(Rules::classic());
            }
        }
    };
}

// ----- board and armies ----------------------------------------------------

#[test]
fn rule_board_is_ten_by_ten_with_two_lakes() {
    let lakes: Vec<String> = Square::all()
        .filter(|s| s.is_lake())
        .map(|s| s.to_string())
        .collect();
    assert_eq!(lakes, ["c6", "d6", "g6", "h6", "c5", "d5", "g5", "h5"]);
    assert_eq!(Square::all().count(), 100);
}

#[test]
fn rule_srazhenie_army_counts() {
    let v = Variant::Srazhenie;
    let counts: Vec<u8> = v.kinds().map(|k| v.count(k)).collect();
    assert_eq!(counts, [1, 1, 2, 3, 4, 4, 4, 5, 8, 1, 6, 1]);
    assert_eq!(v.name(srazhenie::MARSHAL), "Marshal (1)");
    assert_eq!(v.name(srazhenie::SCOUT), "Scout (10)");
}

#[test]
fn rule_czech_army_counts() {
    let v = Variant::Czech;
    let counts: Vec<u8> = v.kinds().map(|k| v.count(k)).collect();
    assert_eq!(counts, [1, 1, 2, 3, 4, 5, 8, 6, 1, 8, 1]);
    let names: Vec<&str> = v.kinds().map(|k| v.name(k)).collect();
    assert_eq!(
        names,
        [
            "Maršál",
            "Generál",
            "Kapitán",
            "Kadet",
            "Kaprál",
            "Střelec",
            "Průzkumník",
            "Minér",
            "Špión",
            "Minové pole",
            "Prapor"
        ]
    );
}

#[test]
fn rule_classic_army_counts() {
    let v = Variant::Classic;
    let counts: Vec<u8> = v.kinds().map(|k| v.count(k)).collect();
    assert_eq!(counts, [1, 1, 2, 3, 4, 4, 4, 5, 8, 1, 6, 1]);
    assert_eq!(v.name(classic::MARSHAL), "Marshal (10)");
    assert_eq!(v.name(classic::SPY), "Spy (1)");
}

#[test]
fn rule_every_army_has_forty_pieces() {
    for v in Variant::ALL {
        assert_eq!(v.kinds().map(|k| v.count(k) as u32).sum::<u32>(), 40, "{v}");
    }
}

#[test]
fn rule_srazhenie_smaller_number_is_stronger() {
    let v = Variant::Srazhenie;
    // 1 Marshal beats 2 General; 9 Soldier beats 10 Scout when attacking.
    assert_eq!(
        v.fight(srazhenie::MARSHAL, srazhenie::GENERAL),
        Fight::AttackerWins
    );
    assert_eq!(
        v.fight(srazhenie::SOLDIER, srazhenie::SCOUT),
        Fight::AttackerWins
    );
    assert_eq!(
        v.fight(srazhenie::LIEUTENANT, srazhenie::CAPTAIN),
        Fight::DefenderWins
    );
}

#[test]
fn rule_czech_table_order_is_rank_order() {
    let v = Variant::Czech;
    let ranks: Vec<Kind> = v.kinds().filter(|k| k.is_mobile()).collect();
    for w in ranks.windows(2) {
        // Each piece of the table beats the next one, except the Špión rule.
        if w[1] != v.spy() {
            assert_eq!(
                v.fight(w[0], w[1]),
                Fight::AttackerWins,
                "{} vs {}",
                v.name(w[0]),
                v.name(w[1])
            );
        }
    }
    assert_eq!(
        v.fight(czech::PRUZKUMNIK, czech::MINER),
        Fight::AttackerWins,
        "Průzkumník beats Minér"
    );
}

#[test]
fn rule_classic_ten_beats_nine_down_to_two() {
    let v = Variant::Classic;
    for a in 0..8u8 {
        let (strong, weak) = (Kind::new(a).unwrap(), Kind::new(a + 1).unwrap());
        assert_eq!(v.fight(strong, weak), Fight::AttackerWins);
        assert_eq!(v.fight(weak, strong), Fight::DefenderWins);
    }
}

// ----- movement ------------------------------------------------------------

#[test]
fn rule_srazhenie_and_classic_step_one_square_orthogonally() {
    for rules in [Rules::srazhenie(), Rules::classic()] {
        let g = pos(
            rules,
            &with_flags(&[("e3", P0, srazhenie::MAJOR), ("e8", P1, srazhenie::MAJOR)]),
            P0,
        );
        assert_eq!(
            targets(&g, "e3"),
            ["e4", "d3", "f3", "e2"],
            "{:?}",
            rules.variant
        );
    }
}

#[test]
fn rule_czech_steps_in_eight_directions() {
    let g = pos(
        Rules::czech(),
        &with_flags(&[("e3", P0, czech::KADET), ("e8", P1, czech::KADET)]),
        P0,
    );
    assert_eq!(
        targets(&g, "e3"),
        ["d4", "e4", "f4", "d3", "f3", "d2", "e2", "f2"]
    );
}

#[test]
fn rule_czech_attacks_only_orthogonally() {
    let g = pos(
        Rules::czech(),
        &with_flags(&[
            ("e3", P0, czech::KADET),
            ("e4", P1, czech::KAPRAL),
            ("f4", P1, czech::KAPRAL),
        ]),
        P0,
    );
    let t = targets(&g, "e3");
    assert!(t.contains(&"e4".to_string()), "orthogonal attack");
    assert!(!t.contains(&"f4".to_string()), "no diagonal attack");
}

per_rule_set!(
    rule_pieces_never_enter_lakes_or_own_squares,
    |rules: Rules| {
        let g = pos(
            rules,
            &with_flags(&[
                ("c4", P0, Kind::R3),
                ("b4", P0, Kind::R4),
                ("e8", P1, Kind::R3),
            ]),
            P0,
        );
        let t = targets(&g, "c4");
        assert!(!t.contains(&"c5".to_string()), "lake");
        assert!(!t.contains(&"b4".to_string()), "own piece");
    }
);

per_rule_set!(rule_mines_and_flags_never_move, |rules: Rules| {
    let g = pos(
        rules,
        &with_flags(&[
            ("e3", P0, Kind::MINE),
            ("f3", P0, Kind::R3),
            ("e8", P1, Kind::R3),
        ]),
        P0,
    );
    assert!(targets(&g, "e3").is_empty());
    assert!(targets(&g, "a1").is_empty());
    assert!(!g.is_legal(mv("e3", "e4")));
});

#[test]
fn rule_classic_scout_moves_any_distance_and_strikes_at_the_end() {
    let g = pos(
        Rules::classic(),
        &with_flags(&[("a3", P0, classic::SCOUT), ("a8", P1, classic::SPY)]),
        P0,
    );
    let t = targets(&g, "a3");
    for s in ["a4", "a5", "a6", "a7", "a8", "b3", "j3", "a2"] {
        assert!(t.contains(&s.to_string()), "{s} in {t:?}");
    }
    assert!(!t.contains(&"a9".to_string()), "no jumping");
    let mut g = g;
    play(&mut g, &["a3-a8"]);
    assert_eq!(
        g.piece_of(sq("a8")),
        Some((P0, classic::SCOUT)),
        "the scout beat the spy on arrival"
    );
}

#[test]
fn rule_long_move_attack_can_be_switched_off() {
    let rules = Rules {
        long_move_attack: false,
        ..Rules::classic()
    };
    let g = pos(
        rules,
        &with_flags(&[("a3", P0, classic::SCOUT), ("a8", P1, classic::SPY)]),
        P0,
    );
    let t = targets(&g, "a3");
    assert!(!t.contains(&"a8".to_string()));
    assert!(t.contains(&"a7".to_string()));
    let g2 = pos(
        rules,
        &with_flags(&[("a3", P0, classic::SCOUT), ("a4", P1, classic::SPY)]),
        P0,
    );
    assert!(
        targets(&g2, "a3").contains(&"a4".to_string()),
        "a one-square attack stays"
    );
}

#[test]
fn rule_czech_pruzkumnik_moves_far_without_jumping_and_attacks() {
    let g = pos(
        Rules::czech(),
        &with_flags(&[
            ("e2", P0, czech::PRUZKUMNIK),
            ("e4", P0, czech::KADET),
            ("h2", P1, czech::MARSAL),
        ]),
        P0,
    );
    let t = targets(&g, "e2");
    assert!(
        t.contains(&"e3".to_string()) && !t.contains(&"e5".to_string()),
        "blocked by its own piece: {t:?}"
    );
    assert!(
        t.contains(&"g2".to_string())
            && t.contains(&"h2".to_string())
            && !t.contains(&"i2".to_string())
    );
    assert!(
        t.contains(&"d3".to_string()) && t.contains(&"f1".to_string()),
        "diagonal steps too"
    );
    let no_diag = Rules {
        czech_scout_steps_diagonally: false,
        ..Rules::czech()
    };
    let g = pos(
        no_diag,
        &with_flags(&[("e2", P0, czech::PRUZKUMNIK), ("h2", P1, czech::MARSAL)]),
        P0,
    );
    assert!(!targets(&g, "e2").contains(&"d3".to_string()));
}

#[test]
fn rule_long_moves_never_cross_lakes_or_pieces() {
    let runners = Rules {
        runner_soldiers: true,
        ..Rules::srazhenie()
    };
    for (rules, kind) in [
        (Rules::classic(), Kind::R8),
        (Rules::czech(), Kind::R6),
        (runners, Kind::R8),
    ] {
        // b5 faces the left lake (c5-d5) on its right; an own piece on b8
        // and an enemy on b2 stop the column.
        let g = pos(
            rules,
            &with_flags(&[
                ("b5", P0, kind),
                ("b8", P0, Kind::R3),
                ("b2", P1, Kind::R3),
                ("a5", P1, Kind::R4),
            ]),
            P0,
        );
        let t = targets(&g, "b5");
        let v = rules.variant;
        for s in ["c5", "d5", "e5", "f5"] {
            assert!(!t.contains(&s.to_string()), "{v:?}: across the lake to {s}");
        }
        for s in ["b6", "b7", "b4", "b3", "b2", "a5"] {
            assert!(t.contains(&s.to_string()), "{v:?}: {s} in {t:?}");
        }
        for s in ["b8", "b9", "b1"] {
            assert!(!t.contains(&s.to_string()), "{v:?}: jumps to {s}");
        }
    }
}

#[test]
fn rule_czech_pruzkumnik_never_attacks_diagonally() {
    let g = pos(
        Rules::czech(),
        &with_flags(&[
            ("e3", P0, czech::PRUZKUMNIK),
            ("f4", P1, czech::STRELEC),
            ("d2", P1, czech::STRELEC),
        ]),
        P0,
    );
    let t = targets(&g, "e3");
    assert!(!t.contains(&"f4".to_string()) && !t.contains(&"d2".to_string()));
    assert!(t.contains(&"d4".to_string()), "a free diagonal step: {t:?}");
}

#[test]
fn rule_srazhenie_soldier_steps_unless_runner_soldiers() {
    let pieces = with_flags(&[("e2", P0, srazhenie::SOLDIER), ("e9", P1, srazhenie::MAJOR)]);
    let g = pos(Rules::srazhenie(), &pieces, P0);
    assert_eq!(targets(&g, "e2"), ["e3", "d2", "f2", "e1"]);
    let runners = Rules {
        runner_soldiers: true,
        ..Rules::srazhenie()
    };
    let g = pos(runners, &pieces, P0);
    let t = targets(&g, "e2");
    assert!(
        t.contains(&"e9".to_string())
            && t.contains(&"a2".to_string())
            && t.contains(&"j2".to_string())
    );
    assert!(Rules {
        runner_soldiers: true,
        ..Rules::classic()
    }
    .validate()
    .is_err());
}

#[test]
fn rule_long_move_reveals_the_piece() {
    let mut g = pos(
        Rules::classic(),
        &with_flags(&[("a3", P0, classic::SCOUT), ("j8", P1, classic::MAJOR)]),
        P0,
    );
    play(&mut g, &["a3-a4"]);
    assert_eq!(
        g.observation(P1).cells[sq("a4").index()],
        ObsCell::Foe {
            kind: None,
            moved: true,
            ruled_out: KindSet::EMPTY,
        }
    );
    play(&mut g, &["j8-j7", "a4-a7"]);
    assert_eq!(
        g.observation(P1).cells[sq("a7").index()],
        ObsCell::Foe {
            kind: Some(classic::SCOUT),
            moved: true,
            ruled_out: KindSet::EMPTY,
        }
    );
}

#[test]
fn rule_no_passing() {
    let g = pos(
        Rules::srazhenie(),
        &with_flags(&[("e3", P0, srazhenie::MAJOR), ("e8", P1, srazhenie::MAJOR)]),
        P0,
    );
    let mut legal = Vec::new();
    g.legal_actions(&mut legal);
    assert!(legal
        .iter()
        .all(|a| matches!(a, stratego_core::Action::Move(_))));
    assert_eq!(legal.len(), 4);
}

// ----- combat --------------------------------------------------------------

per_rule_set!(
    rule_stronger_wins_and_attacker_takes_the_square,
    |rules: Rules| {
        let mut g = pos(
            rules,
            &with_flags(&[("e3", P0, Kind::R1), ("e4", P1, Kind::R3)]),
            P0,
        );
        let before = g.lost(P1)[Kind::R3.index()];
        play(&mut g, &["e3-e4"]);
        assert_eq!(
            g.piece_of(sq("e4")),
            Some((P0, Kind::R1)),
            "{:?}",
            rules.variant
        );
        assert_eq!(g.piece_of(sq("e3")), None);
        assert_eq!(g.lost(P1)[Kind::R3.index()], before + 1);
    }
);

per_rule_set!(rule_weaker_attacker_leaves_the_board, |rules: Rules| {
    let mut g = pos(
        rules,
        &with_flags(&[("e3", P0, Kind::R4), ("e4", P1, Kind::R2)]),
        P0,
    );
    play(&mut g, &["e3-e4"]);
    assert_eq!(g.piece_of(sq("e4")), Some((P1, Kind::R2)));
    assert_eq!(g.piece_of(sq("e3")), None);
    assert!(g.revealed_at(sq("e4")), "the defender is now known");
});

per_rule_set!(rule_equal_ranks_both_leave, |rules: Rules| {
    let mut g = pos(
        rules,
        &with_flags(&[
            ("e3", P0, Kind::R2),
            ("e4", P1, Kind::R2),
            ("h8", P1, Kind::R4),
        ]),
        P0,
    );
    play(&mut g, &["e3-e4"]);
    assert_eq!(g.piece_of(sq("e4")), None);
    assert_eq!(g.piece_of(sq("e3")), None);
});

per_rule_set!(
    rule_mine_destroys_any_attacker_but_the_miner_and_stays,
    |rules: Rules| {
        for attacker in [Kind::R0, Kind::R1, Kind::R5] {
            let mut g = pos(
                rules,
                &with_flags(&[
                    ("e3", P0, attacker),
                    ("e2", P0, Kind::R4),
                    ("e4", P1, Kind::MINE),
                    ("h8", P1, Kind::R4),
                ]),
                P0,
            );
            play(&mut g, &["e3-e4"]);
            assert_eq!(g.piece_of(sq("e4")), Some((P1, Kind::MINE)));
            assert!(g.revealed_at(sq("e4")));
            assert_eq!(g.piece_of(sq("e3")), None);
        }
    }
);

// Srazhenie Sapper (8), Czech Minér, classic Miner (3).
per_rule_set!(rule_miner_clears_mines, |rules: Rules| {
    let mut g = pos(
        rules,
        &with_flags(&[
            ("e3", P0, Kind::MINER),
            ("e4", P1, Kind::MINE),
            ("h8", P1, Kind::R4),
        ]),
        P0,
    );
    play(&mut g, &["e3-e4"]);
    assert_eq!(
        g.piece_of(sq("e4")),
        Some((P0, Kind::MINER)),
        "{:?}",
        rules.variant
    );
    assert_eq!(
        g.lost(P1)[Kind::MINE.index()],
        rules.variant.count(Kind::MINE)
    );
});

#[test]
fn rule_srazhenie_scout_beats_the_marshal_only_when_attacking() {
    let v = Variant::Srazhenie;
    assert_eq!(v.spy(), srazhenie::SCOUT);
    assert_eq!(
        v.fight(srazhenie::SCOUT, srazhenie::MARSHAL),
        Fight::AttackerWins
    );
    assert_eq!(
        v.fight(srazhenie::MARSHAL, srazhenie::SCOUT),
        Fight::AttackerWins
    );
    assert_eq!(
        v.fight(srazhenie::SCOUT, srazhenie::GENERAL),
        Fight::DefenderWins
    );
    let mut g = pos(
        Rules::srazhenie(),
        &with_flags(&[("e3", P0, srazhenie::SCOUT), ("e4", P1, srazhenie::MARSHAL)]),
        P0,
    );
    play(&mut g, &["e3-e4"]);
    assert_eq!(g.piece_of(sq("e4")), Some((P0, srazhenie::SCOUT)));
}

#[test]
fn rule_classic_spy_beats_the_marshal_only_when_attacking() {
    let v = Variant::Classic;
    assert_eq!(v.fight(classic::SPY, classic::MARSHAL), Fight::AttackerWins);
    assert_eq!(v.fight(classic::MARSHAL, classic::SPY), Fight::AttackerWins);
    assert_eq!(v.fight(classic::SPY, classic::SCOUT), Fight::DefenderWins);
}

#[test]
fn rule_czech_spion_beats_the_marshal_whoever_attacks() {
    let v = Variant::Czech;
    assert_eq!(v.spy(), czech::SPION);
    assert_eq!(v.fight(czech::SPION, czech::MARSAL), Fight::AttackerWins);
    assert_eq!(v.fight(czech::MARSAL, czech::SPION), Fight::DefenderWins);
    assert_eq!(
        v.fight(czech::GENERAL, czech::SPION),
        Fight::AttackerWins,
        "anyone else captures the Špión"
    );
    let mut g = pos(
        Rules::czech(),
        &with_flags(&[("e3", P0, czech::MARSAL), ("e4", P1, czech::SPION)]),
        P0,
    );
    play(&mut g, &["e3-e4"]);
    assert_eq!(g.piece_of(sq("e4")), Some((P1, czech::SPION)));
    assert_eq!(g.piece_of(sq("e3")), None);
}

per_rule_set!(rule_any_piece_captures_the_flag, |rules: Rules| {
    let spy = rules.variant.spy();
    assert_eq!(rules.variant.fight(spy, Kind::FLAG), Fight::AttackerWins);
});

per_rule_set!(
    rule_fight_reveals_both_and_the_survivor_stays_known,
    |rules: Rules| {
        // The Czech default hides the attacker (below); shown, it is the
        // same in all three.
        let rules = Rules {
            reveal_attacker: true,
            ..rules
        };
        let mut g = pos(
            rules,
            &with_flags(&[
                ("e3", P0, Kind::R1),
                ("e4", P1, Kind::R3),
                ("h8", P1, Kind::R4),
            ]),
            P0,
        );
        play(&mut g, &["e3-e4", "h8-h7", "e4-e5"]);
        assert_eq!(
            g.observation(P1).cells[sq("e5").index()],
            ObsCell::Foe {
                kind: Some(Kind::R1),
                moved: true,
                ruled_out: KindSet::EMPTY,
            }
        );
        assert_eq!(
            g.observation(P0).cells[sq("e5").index()],
            ObsCell::Own {
                kind: Kind::R1,
                moved: true,
                revealed: true,
                ruled_out: KindSet::EMPTY,
            }
        );
    }
);

#[test]
fn rule_czech_attacker_kind_stays_hidden_whether_it_wins_or_loses() {
    // "Hodnotu svého kamene protivníkovy nesděluje": the default.
    let mut g = pos(
        Rules::czech(),
        &with_flags(&[
            ("e3", P0, czech::GENERAL),
            ("e4", P1, czech::KADET),
            ("h8", P1, czech::KAPRAL),
            ("b3", P0, czech::STRELEC),
            ("b4", P1, czech::KAPITAN),
        ]),
        P0,
    );
    // Wins: hidden, but known to beat what it took (tests/knowledge.rs
    // has the details).
    let weaker_than = |k: Kind| {
        Variant::Czech
            .kinds()
            .filter(|o| o.is_mobile() && *o >= k)
            .fold(KindSet::EMPTY, |s, o| s.or(KindSet::of(o)))
    };
    let public = g.observation(P1).lost;
    play(&mut g, &["e3-e4"]);
    assert_eq!(
        g.observation(P1).cells[sq("e4").index()],
        ObsCell::Foe {
            kind: None,
            moved: true,
            ruled_out: weaker_than(czech::KADET),
        }
    );
    assert_eq!(
        g.observation(P1).lost[P1][czech::KADET.index()],
        public[P1][czech::KADET.index()] + 1,
        "the defender's loss is public"
    );
    // Loses: the defender, now shown to the attacker, stays; the attacker's
    // kind is "lost, kind not known" to the defender.
    play(&mut g, &["h8-h7", "b3-b4"]);
    let obs = g.observation(P1);
    assert_eq!(obs.lost[P0], public[P0], "no public loss");
    assert_eq!(obs.hidden_lost[P0].len(), 1);
    assert_eq!(obs.hidden_lost[P0][0].kind, None);
    assert!(!obs.hidden_lost[P0][0].ruled_out.contains(czech::STRELEC));
    assert_eq!(
        g.observation(P0).cells[sq("b4").index()],
        ObsCell::Foe {
            kind: Some(czech::KAPITAN),
            moved: false,
            ruled_out: KindSet::EMPTY,
        },
        "the attacker saw the defender"
    );
}

#[test]
fn rule_czech_attacker_can_be_shown_as_an_option() {
    let rules = Rules {
        reveal_attacker: true,
        ..Rules::czech()
    };
    let mut g = pos(
        rules,
        &with_flags(&[
            ("b3", P0, czech::STRELEC),
            ("b4", P1, czech::KAPITAN),
            ("h8", P1, czech::KAPRAL),
        ]),
        P0,
    );
    let before = g.observation(P1).lost[P0][czech::STRELEC.index()];
    play(&mut g, &["b3-b4"]);
    let obs = g.observation(P1);
    assert_eq!(
        obs.lost[P0][czech::STRELEC.index()],
        before + 1,
        "a public loss"
    );
    assert!(obs.hidden_lost[P0].is_empty());
}

// ----- repetition ----------------------------------------------------------

per_rule_set!(
    rule_two_square_rule_three_moves_then_blocked,
    |rules: Rules| {
        // Srazhenie's limit; the other rule sets' readings below.
        let rules = Rules {
            two_square_limit: Some(3),
            ..rules
        };
        let mut g = pos(
            rules,
            &with_flags(&[("e3", P0, Kind::R3), ("j8", P1, Kind::R3)]),
            P0,
        );
        play(
            &mut g,
            &["e3-e4", "j8-j7", "e4-e3", "j7-j8", "e3-e4", "j8-j7"],
        );
        assert!(
            !g.is_legal(mv("e4", "e3")),
            "{:?}: a fourth move between e3 and e4",
            rules.variant
        );
        assert!(g.is_legal(mv("e4", "e5")) && g.is_legal(mv("e4", "d4")));
        assert!(g.apply(mv("e4", "e3")).is_err());
    }
);

#[test]
fn rule_two_square_rule_counts_own_turns_whatever_the_opponent_does() {
    let mut g = pos(
        Rules::srazhenie(),
        &with_flags(&[
            ("e3", P0, srazhenie::MAJOR),
            ("j8", P1, srazhenie::MAJOR),
            ("a8", P1, srazhenie::CAPTAIN),
        ]),
        P0,
    );
    play(
        &mut g,
        &["e3-e4", "j8-j7", "e4-e3", "a8-a7", "e3-e4", "j7-i7"],
    );
    assert!(!g.is_legal(mv("e4", "e3")));
}

#[test]
fn rule_two_square_rule_resets_when_another_piece_moves() {
    let mut g = pos(
        Rules::srazhenie(),
        &with_flags(&[
            ("e3", P0, srazhenie::MAJOR),
            ("b3", P0, srazhenie::CAPTAIN),
            ("j8", P1, srazhenie::MAJOR),
        ]),
        P0,
    );
    play(
        &mut g,
        &[
            "e3-e4", "j8-j7", "e4-e3", "j7-i7", "b3-b4", "i7-i8", "e3-e4", "i8-j8", "e4-e3",
            "j8-j7", "e3-e4", "j7-i7",
        ],
    );
    assert!(!g.is_legal(mv("e4", "e3")), "a new series of three");
}

// An attack by another piece that leaves the board (it loses, or both
// leave) is a move of another piece: the shuttling piece starts afresh.
per_rule_set!(
    rule_two_square_rule_resets_when_another_piece_attacks_and_leaves,
    |rules: Rules| {
        for (attacker, defender) in [(Kind::R4, Kind::R2), (Kind::R2, Kind::R2)] {
            let mut g = pos(
                rules,
                &with_flags(&[
                    ("e3", P0, Kind::R3),
                    ("b3", P0, attacker),
                    ("b4", P1, defender),
                    ("j8", P1, Kind::R3),
                ]),
                P0,
            );
            play(
                &mut g,
                &[
                    "e3-e4", "j8-j7", "e4-e3", "j7-j8", "e3-e4", "j8-j7", "b3-b4", "j7-i7",
                ],
            );
            assert_eq!(g.piece_of(common::sq("b3")), None, "the attacker left");
            assert!(
                g.is_legal(mv("e4", "e3")),
                "{:?}: {attacker:?} attacking {defender:?} ended the series",
                rules.variant
            );
        }
    }
);

/// Classic with the two-square rule at three moves (the ISF's count is 5;
/// the scout clause is the same).
fn classic_three() -> Rules {
    Rules {
        two_square_limit: Some(3),
        ..Rules::classic()
    }
}

#[test]
fn rule_classic_isf_two_square_rule_five_moves_then_blocked() {
    // ISF 10.1: "not allowed to move a piece more than 5 times non-stop
    // between the same two squares".
    let mut g = pos(
        Rules::classic(),
        &with_flags(&[("e3", P0, classic::MAJOR), ("j8", P1, classic::MAJOR)]),
        P0,
    );
    play(
        &mut g,
        &[
            "e3-e4", "j8-j7", "e4-e3", "j7-j8", "e3-e4", "j8-j7", "e4-e3", "j7-j8", "e3-e4",
            "j8-j7",
        ],
    );
    assert!(
        !g.is_legal(mv("e4", "e3")),
        "a sixth move between e3 and e4"
    );
    assert!(g.is_legal(mv("e4", "e5")));
    for (rules, limit) in [
        (Rules::classic_gravon(), 5),
        (Rules::classic_milton_bradley(), 3),
    ] {
        assert_eq!(rules.two_square_limit, Some(limit));
    }
}

#[test]
fn rule_czech_has_no_two_square_rule_by_default() {
    let mut g = pos(
        Rules::czech(),
        &with_flags(&[("e3", P0, czech::KADET), ("j8", P1, czech::KADET)]),
        P0,
    );
    let line: Vec<&str> = ["e3-e4", "j8-j7", "e4-e3", "j7-j8"]
        .iter()
        .copied()
        .cycle()
        .take(40)
        .collect();
    play(&mut g, &line);
    assert!(g.is_legal(mv("e3", "e4")));
    let limited = Rules {
        two_square_limit: Some(3),
        ..Rules::czech()
    };
    let mut g = pos(
        limited,
        &with_flags(&[("e3", P0, czech::KADET), ("j8", P1, czech::KADET)]),
        P0,
    );
    play(&mut g, &line[..6]);
    assert!(!g.is_legal(mv("e4", "e3")), "the limit stays a field");
}

#[test]
fn rule_srazhenie_two_square_rule_counts_only_the_same_two_squares() {
    // "между двумя клетками": a runner soldier's partial move back starts
    // a new run; only a shuttle between the same two squares counts.
    let rules = Rules::srazhenie_runner_soldiers();
    let pieces = [
        ("j1", P0, srazhenie::FLAG),
        ("j10", P1, srazhenie::FLAG),
        ("a3", P0, srazhenie::SOLDIER),
        ("j8", P1, srazhenie::MAJOR),
    ];
    let mut g = pos(rules, &pieces, P0);
    play(
        &mut g,
        &["a3-a7", "j8-j7", "a7-a5", "j7-i7", "a5-a7", "i7-i8"],
    );
    assert!(
        g.is_legal(mv("a7", "a5")),
        "a7-a5-a7 is one shuttle of two moves"
    );
    play(&mut g, &["a7-a5", "i8-j8"]);
    assert!(
        !g.is_legal(mv("a5", "a7")),
        "a fourth move between a5 and a7"
    );
    assert!(g.is_legal(mv("a5", "a3")));
    // Between the same two squares, a long mover is held like any piece.
    let mut g = pos(rules, &pieces, P0);
    play(
        &mut g,
        &["a3-a7", "j8-j7", "a7-a3", "j7-i7", "a3-a7", "i7-i8"],
    );
    assert!(!g.is_legal(mv("a7", "a3")));
    assert!(
        g.is_legal(mv("a7", "a4")),
        "a partial move back is a new run"
    );
    // The extension is a field.
    let partial = Rules {
        two_square_partial_moves: true,
        ..rules
    };
    let mut g = pos(partial, &pieces, P0);
    play(
        &mut g,
        &["a3-a7", "j8-j7", "a7-a3", "j7-i7", "a3-a7", "i7-i8"],
    );
    assert!(!g.is_legal(mv("a7", "a4")));
}

#[test]
fn rule_two_square_rule_long_mover_partial_moves_back_count() {
    // The ISF scout clause (`two_square_partial_moves`): a scout that went
    // a3-a7 moves within that segment: a partial move back continues the
    // series, and after three moves it may not end anywhere on a3..a7
    // again.
    let mut g = pos(
        classic_three(),
        &[
            ("j1", P0, classic::FLAG),
            ("j10", P1, classic::FLAG),
            ("a3", P0, classic::SCOUT),
            ("j8", P1, classic::MAJOR),
        ],
        P0,
    );
    play(
        &mut g,
        &["a3-a7", "j8-j7", "a7-a5", "j7-j8", "a5-a7", "j8-j7"],
    );
    for s in ["a6", "a5", "a4", "a3"] {
        assert!(
            !g.is_legal(mv("a7", s)),
            "a7-{s} stays inside the first move's segment"
        );
    }
    assert!(
        g.is_legal(mv("a7", "a2")),
        "past the first move's start is a new series"
    );
    assert!(g.is_legal(mv("a7", "a8")), "onwards in the same direction");
    assert!(g.is_legal(mv("a7", "b7")), "sideways");
}

#[test]
fn rule_two_square_rule_long_mover_full_shuttle() {
    let mut g = pos(
        classic_three(),
        &[
            ("j1", P0, classic::FLAG),
            ("j10", P1, classic::FLAG),
            ("a3", P0, classic::SCOUT),
            ("j8", P1, classic::MAJOR),
        ],
        P0,
    );
    play(
        &mut g,
        &["a3-a7", "j8-j7", "a7-a3", "j7-j8", "a3-a7", "j8-j7"],
    );
    assert!(!g.is_legal(mv("a7", "a3")));
    assert!(!g.is_legal(mv("a7", "a4")));
    assert!(g.is_legal(mv("a7", "a1")));
    // The series restarts from the longer move: three more shuttles.
    play(
        &mut g,
        &["a7-a1", "j7-i7", "a1-a7", "i7-i8", "a7-a1", "i8-j8"],
    );
    assert!(!g.is_legal(mv("a1", "a7")) && !g.is_legal(mv("a1", "a2")));
}

#[test]
fn rule_two_square_rule_can_be_switched_off() {
    let rules = Rules {
        two_square_limit: None,
        ..Rules::classic()
    };
    let mut g = pos(
        rules,
        &with_flags(&[("e3", P0, classic::MAJOR), ("j8", P1, classic::MAJOR)]),
        P0,
    );
    play(
        &mut g,
        &[
            "e3-e4", "j8-j7", "e4-e3", "j7-j8", "e3-e4", "j8-j7", "e4-e3",
        ],
    );
}

fn chase_rules(on: bool) -> Rules {
    Rules {
        more_squares_rule: on,
        ..classic_three()
    }
}

#[test]
fn rule_classic_more_squares_rule_forbids_recreating_a_chase_position() {
    // The Marshal chases a Major round the block d3-d4-e4-e3.
    let pieces = with_flags(&[("d2", P0, classic::MARSHAL), ("d4", P1, classic::MAJOR)]);
    let line = [
        "d2-d3", "d4-e4", "d3-d4", "e4-e3", "d4-e4", "e3-d3", "e4-e3", "d3-d4",
    ];
    let mut g = pos(chase_rules(true), &pieces, P0);
    play(&mut g, &line);
    assert!(g.chase().is_some());
    assert!(
        !g.is_legal(mv("e3", "d3")),
        "(d3, d4) already stood in this chase"
    );
    assert!(
        g.is_legal(mv("e3", "f3")),
        "moves that recreate nothing stay legal"
    );
    let mut free = pos(chase_rules(false), &pieces, P0);
    play(&mut free, &line);
    assert!(free.is_legal(mv("e3", "d3")));
}

#[test]
fn rule_classic_more_squares_rule_allows_moving_straight_back() {
    let pieces = with_flags(&[("d2", P0, classic::MARSHAL), ("d4", P1, classic::MAJOR)]);
    let mut g = pos(chase_rules(true), &pieces, P0);
    // (d3, e4) is recorded; the chaser goes d3-d4 and back while the Major
    // goes e4-e3 and back: every return is straight back.
    play(
        &mut g,
        &[
            "d2-d3", "d4-e4", "d3-d4", "e4-e3", "d4-d3", "e3-e4", "d3-d4",
        ],
    );
    play(&mut g, &["e4-e3"]);
    assert!(
        !g.is_legal(mv("d4", "d3")),
        "straight back, but the two-square rule forbids a fourth"
    );
    let mut g = pos(chase_rules(true), &pieces, P0);
    play(
        &mut g,
        &["d2-d3", "d4-e4", "d3-d4", "e4-e3", "d4-d3", "e3-e4"],
    );
    assert!(
        g.is_legal(mv("d3", "d4")),
        "back to where it came from recreates (d4, e4) but is allowed"
    );
}

#[test]
fn rule_more_squares_chase_ends_when_the_chased_piece_does_not_evade() {
    let pieces = with_flags(&[
        ("d2", P0, Kind::R0),
        ("d4", P1, Kind::R3),
        ("j7", P1, Kind::R4),
    ]);
    let mut g = pos(chase_rules(true), &pieces, P0);
    play(&mut g, &["d2-d3", "d4-e4"]);
    assert!(g.chase().is_some());
    play(&mut g, &["d3-d4", "j7-j6"]);
    assert!(g.chase().is_none());
}

// ----- game end ------------------------------------------------------------

per_rule_set!(rule_capturing_the_flag_wins, |rules: Rules| {
    let mut g = pos(
        rules,
        &[
            ("a1", P0, Kind::FLAG),
            ("e4", P1, Kind::FLAG),
            ("e3", P0, rules.variant.spy()),
            ("j8", P1, Kind::R3),
        ],
        P0,
    );
    play(&mut g, &["e3-e4"]);
    assert_eq!(g.outcome(), Some(Outcome::Win(PlayerId::P0)));
    assert_eq!(g.end().map(|e| e.reason), Some(EndReason::FlagCaptured));
    assert_eq!(g.returns(PlayerId::P0), 1.0);
    assert_eq!(g.returns(PlayerId::P1), -1.0);
});

fn last_piece_taken(rules: Rules) -> stratego_core::Stratego {
    let mut g = pos(
        rules,
        &with_flags(&[
            ("e3", P0, Kind::R1),
            ("e4", P1, Kind::R3),
            ("i10", P1, Kind::MINE),
            ("j9", P1, Kind::MINE),
        ]),
        P0,
    );
    play(&mut g, &["e3-e4"]);
    g
}

#[test]
fn rule_srazhenie_no_legal_move_loses() {
    let g = last_piece_taken(Rules::srazhenie());
    assert_eq!(g.outcome(), Some(Outcome::Win(PlayerId::P0)));
    assert_eq!(g.end().map(|e| e.reason), Some(EndReason::NoLegalMove));
}

#[test]
fn rule_classic_no_legal_move_loses() {
    let g = last_piece_taken(Rules::classic());
    assert_eq!(g.outcome(), Some(Outcome::Win(PlayerId::P0)));
}

#[test]
fn rule_czech_no_legal_move_is_a_draw() {
    let g = last_piece_taken(Rules::czech());
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    assert_eq!(g.end().map(|e| e.reason), Some(EndReason::NoLegalMove));
}

#[test]
fn rule_no_legal_move_counts_moves_forbidden_by_the_two_square_rule() {
    // The only piece of the first player shuttles in a dead end.
    let mut g = pos(
        Rules::srazhenie(),
        &[
            ("a1", P0, srazhenie::FLAG),
            ("b1", P0, srazhenie::MINE),
            ("a2", P0, srazhenie::MAJOR),
            ("b3", P0, srazhenie::MINE),
            ("j10", P1, srazhenie::FLAG),
            ("j8", P1, srazhenie::MAJOR),
        ],
        P0,
    );
    play(
        &mut g,
        &["a2-a3", "j8-j7", "a3-a2", "j7-j8", "a2-a3", "j8-j7"],
    );
    assert_eq!(targets(&g, "a3"), ["a4"]);
    let mut g = pos(
        Rules::srazhenie(),
        &[
            ("a1", P0, srazhenie::FLAG),
            ("b1", P0, srazhenie::MINE),
            ("a2", P0, srazhenie::MAJOR),
            ("b2", P0, srazhenie::MINE),
            ("a4", P0, srazhenie::MINE),
            ("b3", P0, srazhenie::MINE),
            ("j10", P1, srazhenie::FLAG),
            ("j8", P1, srazhenie::MAJOR),
        ],
        P0,
    );
    play(
        &mut g,
        &["a2-a3", "j8-j7", "a3-a2", "j7-j8", "a2-a3", "j8-j7"],
    );
    assert_eq!(
        g.outcome(),
        Some(Outcome::Win(PlayerId::P1)),
        "stuck by the two-square rule\n{g}"
    );
}

#[test]
fn rule_classic_both_stuck_is_a_draw_srazhenie_loses() {
    let pieces = with_flags(&[("e3", P0, classic::GENERAL), ("e4", P1, classic::BOMB)]);
    let mut classic = pos(Rules::classic(), &pieces, P0);
    play(&mut classic, &["e3-e4"]);
    assert_eq!(classic.outcome(), Some(Outcome::Draw));
    assert_eq!(classic.end().map(|e| e.reason), Some(EndReason::BothStuck));
    let mut sr = pos(Rules::srazhenie(), &pieces, P0);
    play(&mut sr, &["e3-e4"]);
    assert_eq!(
        sr.outcome(),
        Some(Outcome::Win(PlayerId::P0)),
        "the player to move has no move"
    );
}

#[test]
fn rule_czech_draw_when_no_flag_can_ever_be_captured() {
    let pieces = [
        ("a1", P0, czech::PRAPOR),
        ("a2", P0, czech::MINOVE_POLE),
        ("b1", P0, czech::MINOVE_POLE),
        ("e3", P0, czech::KADET),
        ("j10", P1, czech::PRAPOR),
        ("i10", P1, czech::MINOVE_POLE),
        ("j9", P1, czech::MINOVE_POLE),
        ("e4", P1, czech::MINER),
        ("h8", P1, czech::KAPRAL),
    ];
    let mut g = pos(Rules::czech(), &pieces, P0);
    play(&mut g, &["e3-e4"]);
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    assert_eq!(g.end().map(|e| e.reason), Some(EndReason::FlagUnreachable));
    // While a Minér is left, the game goes on.
    let mut pieces2 = pieces.to_vec();
    pieces2.push(("c8", P1, czech::KAPRAL));
    pieces2[7] = ("e4", P1, czech::KAPRAL);
    pieces2.push(("b8", P1, czech::MINER));
    let mut g = pos(Rules::czech(), &pieces2, P0);
    play(&mut g, &["e3-e4"]);
    assert_eq!(g.outcome(), None);
    let mut g = pos(Rules::classic(), &pieces, P0);
    play(&mut g, &["e3-e4"]);
    assert_eq!(g.outcome(), None, "not a rule of the classic game");
}

#[test]
fn rule_czech_position_where_no_flag_can_be_captured_is_drawn_at_once() {
    // Both flags walled in by their own mines and no Minér on the board:
    // a position set up like this is over before any fight.
    let pieces = [
        ("a1", P0, czech::PRAPOR),
        ("a2", P0, czech::MINOVE_POLE),
        ("b1", P0, czech::MINOVE_POLE),
        ("e3", P0, czech::KADET),
        ("j10", P1, czech::PRAPOR),
        ("i10", P1, czech::MINOVE_POLE),
        ("j9", P1, czech::MINOVE_POLE),
        ("e8", P1, czech::KADET),
    ];
    let g = pos(Rules::czech(), &pieces, P0);
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    assert_eq!(g.end().map(|e| e.reason), Some(EndReason::FlagUnreachable));
    let g = pos(Rules::classic(), &pieces, P0);
    assert_eq!(g.outcome(), None, "not a rule of the classic game");
}

fn cycle_moves(n: usize) -> Vec<&'static str> {
    let p0 = ["e2-e3", "e3-f3", "f3-f2", "f2-e2"];
    let p1 = ["e9-e8", "e8-f8", "f8-f9", "f9-e9"];
    (0..n)
        .map(|i| {
            if i % 2 == 0 {
                p0[(i / 2) % 4]
            } else {
                p1[(i / 2) % 4]
            }
        })
        .collect()
}

#[test]
fn rule_srazhenie_hundred_moves_without_attack_is_a_draw() {
    let mut g = pos(
        Rules::srazhenie(),
        &with_flags(&[("e2", P0, srazhenie::MAJOR), ("e9", P1, srazhenie::MAJOR)]),
        P0,
    );
    play(&mut g, &cycle_moves(99));
    assert_eq!(g.outcome(), None);
    assert_eq!(g.moves_without_attack(), 99);
    play(&mut g, &cycle_moves(100)[99..]);
    assert_eq!(g.outcome(), Some(Outcome::Draw));
    assert_eq!(g.end().map(|e| e.reason), Some(EndReason::NoAttackLimit));
}

#[test]
fn rule_no_attack_limit_is_configurable_elsewhere() {
    let mut czech = pos(
        Rules::czech(),
        &with_flags(&[("e2", P0, Kind::R3), ("e9", P1, Kind::R3)]),
        P0,
    );
    play(&mut czech, &cycle_moves(120));
    assert_eq!(
        czech.outcome(),
        None,
        "no such rule in the Czech text by default"
    );
    let rules = Rules {
        no_attack_limit: Some(10),
        ..Rules::classic()
    };
    let mut g = pos(
        rules,
        &with_flags(&[("e2", P0, Kind::R3), ("e9", P1, Kind::R3)]),
        P0,
    );
    play(&mut g, &cycle_moves(10));
    assert_eq!(g.end().map(|e| e.reason), Some(EndReason::NoAttackLimit));
}

#[test]
fn rule_an_attack_resets_the_no_attack_count() {
    let mut g = pos(
        Rules::srazhenie(),
        &with_flags(&[
            ("e2", P0, srazhenie::MAJOR),
            ("e9", P1, srazhenie::MAJOR),
            ("b3", P0, srazhenie::GENERAL),
            ("b4", P1, srazhenie::LIEUTENANT),
        ]),
        P0,
    );
    play(&mut g, &cycle_moves(6));
    assert_eq!(g.moves_without_attack(), 6);
    play(&mut g, &["b3-b4"]);
    assert_eq!(g.moves_without_attack(), 0);
}

#[test]
fn rule_hard_move_limit_ends_every_game() {
    let rules = Rules {
        max_moves: 20,
        ..Rules::classic()
    };
    let mut g = pos(
        rules,
        &with_flags(&[("e2", P0, classic::MAJOR), ("e9", P1, classic::MAJOR)]),
        P0,
    );
    play(&mut g, &cycle_moves(20));
    assert_eq!(g.end().map(|e| e.reason), Some(EndReason::MoveLimit));
    assert!(g.apply(mv("e2", "e3")).is_err());
}

// ----- who starts ----------------------------------------------------------

#[test]
fn rule_czech_who_starts_is_drawn_by_a_chance_event() {
    use game_traits::{ChanceMode, Turn};
    use stratego_core::{Action, FirstPlayer, Setup, Stratego};
    // "Hráči se dohodnou, nebo si vylosují kdo začne."
    let rules = Rules::czech();
    assert_eq!(rules.first_player, FirstPlayer::Drawn);
    assert_eq!(rules.chance_mode(), ChanceMode::ExplicitStochastic);
    let mut g = Stratego::new(&rules).unwrap();
    assert_eq!(g.turn(), Turn::Chance);
    let mut outcomes = Vec::new();
    g.chance_outcomes(&mut outcomes);
    assert_eq!(
        outcomes,
        vec![(Action::Start(P0), 0.5), (Action::Start(P1), 0.5)]
    );
    assert!(
        g.apply(Action::Place(czech::PRAPOR)).is_err(),
        "no setup before the draw"
    );
    g.apply(Action::Start(P1)).unwrap();
    assert!(g.apply(Action::Start(P0)).is_err(), "one draw");
    assert_eq!(
        g.turn(),
        Turn::Player(P0),
        "the first seat still sets up first"
    );
    assert_eq!(g.observation(P0).first, Some(P1));
    let mut rng = <game_traits::GameRng as rand::SeedableRng>::seed_from_u64(3);
    let setup = Setup::shuffle(rules.variant, &mut rng);
    for &k in setup.kinds().iter().chain(setup.kinds()) {
        g.apply(Action::Place(k)).unwrap();
    }
    assert_eq!(g.turn(), Turn::Player(P1), "the drawn player moves first");
}

#[test]
fn rule_first_player_is_a_rules_field() {
    use game_traits::{ChanceMode, Turn};
    use stratego_core::{FirstPlayer, Setup, Stratego};
    for rules in [Rules::srazhenie(), Rules::classic()] {
        assert_eq!(rules.first_player, FirstPlayer::Seat0, "red starts");
        assert_eq!(rules.chance_mode(), ChanceMode::Deterministic);
    }
    let mut rng = <game_traits::GameRng as rand::SeedableRng>::seed_from_u64(4);
    for (first, starter) in [(FirstPlayer::Seat0, P0), (FirstPlayer::Seat1, P1)] {
        let rules = Rules {
            first_player: first,
            ..Rules::czech()
        };
        assert_eq!(rules.chance_mode(), ChanceMode::Deterministic);
        let g = Stratego::new(&rules).unwrap();
        assert_eq!(g.turn(), Turn::Player(P0));
        let (a, b) = (
            Setup::shuffle(rules.variant, &mut rng),
            Setup::shuffle(rules.variant, &mut rng),
        );
        let g = Stratego::new_with_setups(&rules, &a, &b).unwrap();
        assert_eq!(g.turn(), Turn::Player(starter));
    }
}

#[test]
fn rule_classic_presets_follow_their_sources() {
    let isf = Rules::classic();
    assert_eq!(
        (
            isf.two_square_limit,
            isf.two_square_partial_moves,
            isf.more_squares_rule,
            isf.both_stuck_draw,
            isf.long_move_attack
        ),
        (Some(5), true, true, true, true),
        "ISF"
    );
    let mb = Rules::classic_milton_bradley();
    assert_eq!(
        (
            mb.two_square_limit,
            mb.two_square_partial_moves,
            mb.more_squares_rule,
            mb.both_stuck_draw,
            mb.long_move_attack
        ),
        (Some(3), false, false, false, false),
        "Milton Bradley"
    );
    let gravon = Rules::classic_gravon();
    assert_eq!(
        (
            gravon.two_square_limit,
            gravon.two_square_partial_moves,
            gravon.more_squares_rule,
            gravon.both_stuck_draw,
            gravon.long_move_attack
        ),
        (Some(5), true, false, false, true),
        "Gravon"
    );
    let names: Vec<&str> = Rules::presets().iter().map(|p| p.name).collect();
    assert_eq!(
        names,
        [
            "classic",
            "classic_milton_bradley",
            "classic_gravon",
            "srazhenie",
            "srazhenie_runner_soldiers",
            "czech"
        ]
    );
}

/// "Stratego" alone means the international classic game as the ISF plays
/// it: the default rules and the first preset (the registry's `stratego`),
/// while «Сражение» and the Czech rules are named variants.
#[test]
fn rule_the_default_is_the_isf_classic_game() {
    assert_eq!(Rules::default(), Rules::classic());
    assert_eq!(Rules::default().variant, Variant::Classic);
    let Preset { name, rules, .. } = Rules::presets()[0];
    assert_eq!((name, rules), ("classic", Rules::default()));
    for (name, variant) in [("srazhenie", Variant::Srazhenie), ("czech", Variant::Czech)] {
        let preset = Rules::presets().into_iter().find(|p| p.name == name);
        assert_eq!(
            preset.map(|p| p.rules),
            Some(Rules::for_variant(variant)),
            "{name}"
        );
    }
}

#[test]
fn rule_milton_bradley_scout_may_not_move_and_strike() {
    let mut g = pos(
        Rules::classic_milton_bradley(),
        &with_flags(&[
            ("a3", P0, classic::SCOUT),
            ("a7", P1, classic::MAJOR),
            ("j8", P1, classic::MAJOR),
        ]),
        P0,
    );
    assert!(!g.is_legal(mv("a3", "a7")));
    assert!(g.is_legal(mv("a3", "a6")));
    play(&mut g, &["a3-a6", "j8-j7"]);
    assert!(g.is_legal(mv("a6", "a7")), "one square and strike");
}
