//! The shared conformance kit, for every preset and option, and the
//! encoding checks (tensor, information-state string, mask) on each.

use game_traits::testkit::{check_encoding, check_game, check_game_with, check_golden, KitConfig};
use game_traits::Preset;
use game_traits::RuleSet;
use game_traits::{Encode, Game};
use stratego_core::{FirstPlayer, Rules, Stratego};

/// Random Stratego games are long (hundreds of moves, each checked in
/// depth), so the option variants run fewer games than the defaults;
/// `CONFORMANCE_GAMES` raises both.
fn light() -> KitConfig {
    let base = KitConfig::default();
    KitConfig {
        games: game_traits::testkit::env_count("CONFORMANCE_GAMES", 4),
        ..base
    }
}

/// Encoding checks determinise both players' views at every step, so a
/// few games cover them.
fn encoding() -> KitConfig {
    KitConfig {
        games: light().games.min(3),
        ..KitConfig::default()
    }
}

fn preset(name: &str) -> Rules {
    Rules::presets()
        .into_iter()
        .find(|p| p.name == name)
        .map(|p| p.rules)
        .unwrap_or_else(|| panic!("no preset {name}"))
}

#[test]
fn conformance_srazhenie() {
    check_game::<Stratego>(&preset("srazhenie"));
}

#[test]
fn conformance_srazhenie_runner_soldiers() {
    check_game_with::<Stratego>(&preset("srazhenie_runner_soldiers"), &light());
}

/// The Czech default: hidden attackers (losses of unknown kind), no
/// two-square rule, who starts drawn by a chance event.
#[test]
fn conformance_czech() {
    check_game::<Stratego>(&preset("czech"));
}

#[test]
fn conformance_czech_revealing_attacker_two_square_rule_first_seat() {
    check_game_with::<Stratego>(
        &Rules {
            reveal_attacker: true,
            two_square_limit: Some(3),
            first_player: FirstPlayer::Seat1,
            ..Rules::czech()
        },
        &light(),
    );
}

#[test]
fn conformance_czech_hidden_attacker_no_diagonal_scout() {
    check_game_with::<Stratego>(
        &Rules {
            czech_scout_steps_diagonally: false,
            no_attack_limit: Some(60),
            ..Rules::czech()
        },
        &light(),
    );
}

#[test]
fn conformance_czech_no_diagonal_scout() {
    check_game_with::<Stratego>(
        &Rules {
            czech_scout_steps_diagonally: false,
            ..Rules::czech()
        },
        &light(),
    );
}

#[test]
fn conformance_classic_hidden_attacker() {
    check_game_with::<Stratego>(
        &Rules {
            reveal_attacker: false,
            ..Rules::classic()
        },
        &light(),
    );
}

/// The ISF rules: 5 moves between two squares with the scout clause, the
/// more-squares rule, both stuck a draw.
#[test]
fn conformance_classic() {
    check_game::<Stratego>(&preset("classic"));
}

#[test]
fn conformance_classic_milton_bradley() {
    check_game_with::<Stratego>(&preset("classic_milton_bradley"), &light());
}

#[test]
fn conformance_classic_gravon() {
    check_game_with::<Stratego>(&preset("classic_gravon"), &light());
}

#[test]
fn conformance_classic_more_squares_rule_three_moves() {
    check_game_with::<Stratego>(
        &Rules {
            two_square_limit: Some(3),
            no_attack_limit: Some(200),
            ..Rules::classic()
        },
        &light(),
    );
}

#[test]
fn conformance_classic_no_repetition_rule_short_games() {
    check_game_with::<Stratego>(
        &Rules {
            two_square_limit: None,
            more_squares_rule: false,
            long_move_attack: false,
            max_moves: 150,
            ..Rules::classic()
        },
        &light(),
    );
}

#[test]
fn encoding_of_every_preset() {
    for Preset { name, rules, .. } in Rules::presets() {
        eprintln!("encoding: {name}");
        check_encoding::<Stratego>(&rules, &encoding());
    }
}

#[test]
fn encoding_with_every_kind_of_knowledge() {
    // Hidden attackers and diagonal tells (Classic, Czech), a drawn
    // starter with a two-square rule.
    for rules in [
        Rules {
            reveal_attacker: false,
            ..Rules::classic()
        },
        Rules {
            czech_scout_steps_diagonally: false,
            two_square_limit: Some(3),
            ..Rules::czech()
        },
    ] {
        check_encoding::<Stratego>(&rules, &encoding());
    }
}

#[test]
fn encoding_layout_is_fixed_per_rule_set_and_named() {
    for Preset { name, rules, .. } in Rules::presets() {
        let layout = Stratego::tensor_layout(&rules);
        let kinds = rules.variant.kinds().count();
        // 3 kinds-wide groups and 18 single planes on the board, then 18
        // values and 3 kinds-wide groups.
        assert_eq!(
            layout.size(),
            (3 * kinds + 18) * 100 + 18 + 3 * kinds,
            "{name}"
        );
        assert_eq!(
            layout.plane("own_r0").map(|p| (p.offset, p.len)),
            Some((0, 100))
        );
        assert!(layout.plane("foe_possible_flag").is_some());
        assert!(layout.plane("viewer_to_move").is_some_and(|p| p.len == 1));
        let mut names: Vec<&str> = layout.planes.iter().map(|p| p.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), layout.planes.len(), "{name}: names are unique");
        let info = Stratego::info(&rules);
        assert_eq!(info.action_space, rules.action_space());
    }
}

/// The default rules, the international classic game (the registry's
/// `stratego`).
#[test]
fn golden_default_classic() {
    check_golden::<Stratego>(
        &Rules::default(),
        &[1, 2],
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/classic.txt"),
    );
}

/// «Сражение», the default rules before the classic game took the name:
/// its playthroughs are pinned unchanged.
#[test]
fn golden_srazhenie() {
    check_golden::<Stratego>(
        &Rules::srazhenie(),
        &[1, 2],
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/srazhenie.txt"),
    );
}

#[test]
fn the_rule_set_table_matches_the_rules_and_the_presets_are_distinct() {
    game_traits::testkit::check_rule_set::<Rules>();
    game_traits::testkit::check_named::<stratego_core::Variant>();
    game_traits::testkit::check_named::<stratego_core::FirstPlayer>();
}

#[test]
fn rules_without_the_new_fields_read_as_before() {
    // A stored rule set from before `two_square_partial_moves` and
    // `first_player`: partial moves back counted, the first seat started.
    let mut json = serde_json::to_value(Rules::classic()).unwrap();
    let map = json.as_object_mut().unwrap();
    map.remove("two_square_partial_moves");
    map.remove("first_player");
    let old: Rules = serde_json::from_value(json).unwrap();
    assert!(old.two_square_partial_moves);
    assert_eq!(old.first_player, FirstPlayer::Seat0);
}

#[test]
fn legend_explains_the_rendering_codes() {
    for code in [
        "~~~", " . ", "+S", "*S", "-S", "=S", "??", "?>", "lost", "unseen", "to place",
    ] {
        assert!(stratego_core::LEGEND.contains(code), "{code}");
    }
}

#[test]
fn the_tensor_names_the_viewers_seat_since_the_second_seats_board_is_turned() {
    // The board planes are the viewer's (his home rows at the bottom) and
    // the action ids are the board's own: a policy maps one onto the other
    // by the seat, which nothing else in the tensor tells in every rule set.
    for Preset { name, rules, .. } in Rules::presets() {
        let layout = Stratego::tensor_layout(&rules);
        let at = layout.plane("viewer_second").map(|p| p.offset).unwrap();
        let g = Stratego::new(&rules).unwrap();
        for (player, want) in [
            (game_traits::PlayerId::P0, 0.0),
            (game_traits::PlayerId::P1, 1.0),
        ] {
            let mut out = vec![0.0; layout.size()];
            Stratego::encode(&g.observation(player), &mut out);
            assert_eq!(out[at], want, "{name}: {player:?}");
        }
    }
}

#[test]
fn information_state_string_example_of_the_rules_document() {
    use game_traits::GameRng;
    use rand::SeedableRng;
    let mut rng = GameRng::seed_from_u64(7);
    let red = stratego_core::Setup::smart(stratego_core::Variant::Classic, &mut rng);
    let blue = stratego_core::Setup::shuffle(stratego_core::Variant::Classic, &mut rng);
    let mut g = Stratego::new_with_setups(&Rules::classic(), &red, &blue).unwrap();
    let first = g.legal_moves()[0];
    g.apply(stratego_core::Action::Move(first)).unwrap();
    let text = Stratego::information_state_string(&g.observation(game_traits::PlayerId::P1));
    // The first listed move, a Scout striking from a4 at a7, lost: the
    // defender is revealed (`h*`), the Scout a public loss (`D`).
    assert_eq!(
        text,
        "classic P1 jeigdfdebf/dlidbkfdeh/ijgebgbgdh/h*bfdhedbmc/2~~2~~2/2~~2~~2/\
         1XXXXXXXXX/XXXXXXXXXX/XXXXXXXXXX/XXXXXXXXXX P1:P0 1 0 (D|) a4-a7,- -,- - -"
    );
}
