//! The shared conformance kit, for every rule set and option.

use game_traits::testkit::{check_game, check_game_with, check_golden, KitConfig};
use stratego_core::{Rules, Stratego};

/// Random Stratego games are long (hundreds of moves, each checked in
/// depth), so the option variants run fewer games than the defaults;
/// `CONFORMANCE_GAMES` raises both.
fn light() -> KitConfig {
    let base = KitConfig::default();
    KitConfig {
        games: std::env::var("CONFORMANCE_GAMES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(4),
        ..base
    }
}

#[test]
fn conformance_srazhenie() {
    check_game::<Stratego>(&Rules::srazhenie());
}

#[test]
fn conformance_srazhenie_runner_soldiers() {
    check_game_with::<Stratego>(
        &Rules {
            runner_soldiers: true,
            ..Rules::srazhenie()
        },
        &light(),
    );
}

#[test]
fn conformance_czech() {
    check_game::<Stratego>(&Rules::czech());
}

#[test]
fn conformance_czech_hidden_attacker_no_diagonal_scout() {
    check_game_with::<Stratego>(
        &Rules {
            reveal_attacker: false,
            czech_scout_steps_diagonally: false,
            no_attack_limit: Some(60),
            ..Rules::czech()
        },
        &light(),
    );
}

/// Each option that makes moves and fights rule kinds out, alone and at
/// full game length (the combined test above cuts games short).
#[test]
fn conformance_czech_hidden_attacker() {
    check_game_with::<Stratego>(
        &Rules {
            reveal_attacker: false,
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

#[test]
fn conformance_classic() {
    check_game::<Stratego>(&Rules::classic());
}

#[test]
fn conformance_classic_more_squares_rule() {
    check_game_with::<Stratego>(
        &Rules {
            more_squares_rule: true,
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
            long_move_attack: false,
            max_moves: 150,
            ..Rules::classic()
        },
        &light(),
    );
}

#[test]
fn golden_default() {
    check_golden::<Stratego>(
        &Rules::default(),
        &[1, 2],
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/default.txt"),
    );
}
