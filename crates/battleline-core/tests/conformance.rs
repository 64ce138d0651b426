//! The conformance kit of game-traits on every rule set and preset (the
//! game checks and the encoding checks), the golden playthroughs of the
//! default rules, and the parameter list the registry reads.

use std::collections::BTreeSet;

use battleline_core::{
    BattleLine, ClaimTiming, EnvironmentTactics, LastPass, LeaderLimit, ProofTie, Rules, WildCards,
    TENSOR_SIZE,
};
use game_traits::testkit::{check_encoding, check_game, check_golden, KitConfig};
use game_traits::Preset;
use game_traits::RuleSet;
use game_traits::{Encode, PlayerId};

/// Both halves of the kit on `rules`.
fn kit(rules: &Rules) {
    check_game::<BattleLine>(rules);
    check_encoding::<BattleLine>(rules, &KitConfig::default());
}

fn preset(name: &str) -> Rules {
    Rules::presets()
        .into_iter()
        .find(|p| p.name == name)
        .map(|p| p.rules)
        .unwrap_or_else(|| panic!("no preset {name}"))
}

#[test]
fn conformance_default_rules() {
    kit(&preset("default"));
}

#[test]
fn conformance_published_order() {
    kit(&preset("published_order"));
}

#[test]
fn conformance_troops_only() {
    kit(&preset("troops_only"));
    // Troops only under the published order and the other claim timing.
    kit(&Rules {
        tactics: false,
        claim_timing: ClaimTiming::StartOfTurn,
        first_player: PlayerId::P1,
        ..Rules::published_order()
    });
}

#[test]
fn conformance_claims_at_start_of_turn() {
    kit(&preset("claims_at_start"));
}

#[test]
fn conformance_other_options() {
    kit(&Rules {
        claim_timing: ClaimTiming::BeforeDraw,
        leader_limit: LeaderLimit::OneOnTable,
        proof_tie: ProofTie::Blocks,
        first_player: PlayerId::P1,
        ..Rules::published_order()
    });
}

#[test]
fn conformance_last_pass_settles_at_once() {
    kit(&Rules {
        last_pass: LastPass::SettleAtOnce,
        ..Rules::default()
    });
}

#[test]
fn conformance_movable_environment() {
    kit(&preset("movable_environment"));
    kit(&Rules {
        environment_tactics: EnvironmentTactics::Movable,
        leader_limit: LeaderLimit::OneOnTable,
        ..Rules::claims_at_start_of_turn()
    });
}

#[test]
fn conformance_unseen_wilds() {
    kit(&preset("unseen_wilds"));
    kit(&Rules {
        wild_cards: WildCards::UnseenOnly,
        environment_tactics: EnvironmentTactics::Movable,
        proof_tie: ProofTie::Blocks,
        ..Rules::published_order()
    });
}

#[test]
fn golden_default_rules() {
    check_golden::<BattleLine>(
        &Rules::default(),
        &[1, 2],
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/default.txt"),
    );
}

#[test]
fn presets_start_with_the_default_and_have_distinct_names_and_rules() {
    assert_eq!(Rules::presets()[0].name, "default");
    assert_eq!(preset("troops_only"), Rules::troops_only());
    assert_eq!(preset("published_order"), Rules::published_order());
}

/// The serialised field names: the default rules leave out the fields
/// that hold their default (so old records read and hash as before), so
/// the names are gathered from the default and from rules where every
/// field differs from it.
fn serialised_names() -> BTreeSet<String> {
    let every_option = Rules {
        formation_order: battleline_core::FormationOrder::Published,
        claim_timing: ClaimTiming::StartOfTurn,
        leader_limit: LeaderLimit::OneOnTable,
        proof_tie: ProofTie::Blocks,
        first_player: PlayerId::P1,
        environment_tactics: EnvironmentTactics::Movable,
        wild_cards: WildCards::UnseenOnly,
        tactics: false,
        last_pass: LastPass::SettleAtOnce,
    };
    let mut names = BTreeSet::new();
    for r in [Rules::default(), every_option] {
        match serde_json::to_value(r).unwrap() {
            serde_json::Value::Object(map) => names.extend(map.keys().cloned()),
            other => panic!("rules serialise as {other}"),
        }
    }
    names
}

#[test]
fn the_rule_set_table_names_exactly_the_serialised_fields() {
    game_traits::testkit::check_rule_set::<Rules>();
    let table: BTreeSet<String> = Rules::parameters()
        .iter()
        .map(|p| p.name.to_owned())
        .collect();
    assert_eq!(table, serialised_names());
    game_traits::testkit::check_named::<battleline_core::FormationOrder>();
    game_traits::testkit::check_named::<ClaimTiming>();
    game_traits::testkit::check_named::<LeaderLimit>();
    game_traits::testkit::check_named::<ProofTie>();
    game_traits::testkit::check_named::<EnvironmentTactics>();
    game_traits::testkit::check_named::<WildCards>();
    game_traits::testkit::check_named::<LastPass>();
    // Every field the default leaves out still reads back from its name.
    for name in ["environment_tactics", "wild_cards", "tactics", "last_pass"] {
        assert!(serde_json::to_value(Rules::default()).unwrap()[name].is_null());
    }
    let read: Rules = serde_json::from_str(
        r#"{"formation_order":"Text","claim_timing":"BeforeDraw","leader_limit":"OncePerGame",
            "proof_tie":"ClaimantWins","first_player":0,"tactics":false,"last_pass":"SettleAtOnce"}"#,
    )
    .unwrap();
    assert_eq!(
        read,
        Rules {
            tactics: false,
            last_pass: LastPass::SettleAtOnce,
            ..Rules::default()
        }
    );
}

#[test]
fn tensor_layout_is_the_same_under_every_preset() {
    let layout = BattleLine::tensor_layout(&Rules::default());
    assert_eq!(layout.size(), TENSOR_SIZE);
    assert_eq!(layout.shape, vec![TENSOR_SIZE]);
    for Preset { rules: r, .. } in Rules::presets() {
        assert_eq!(BattleLine::tensor_layout(&r), layout);
    }
}
