//! The conformance kit of `game-traits` on every rule switch and every
//! preset, the encodings' checks on each, and golden playthroughs of the
//! default rules.

mod common;

use cardwar_core::game_traits::testkit::{check_encoding, check_game, check_golden, KitConfig};
use cardwar_core::{CardWar, Rules};
use common::every_switch_flipped;
use game_traits::Preset;
use game_traits::RuleSet;

/// The kit's game checks and encoding checks.
fn check_all(rules: &Rules) {
    check_game::<CardWar>(rules);
    check_encoding::<CardWar>(rules, &KitConfig::default());
}

#[test]
fn conformance_default_rules() {
    check_all(&Rules::default());
}

#[test]
fn conformance_every_switch_flipped() {
    check_all(&every_switch_flipped());
}

#[test]
fn conformance_large_pile() {
    check_all(&Rules {
        aside: 20,
        keep_in_pile: 2,
        ..Rules::default()
    });
}

#[test]
fn conformance_every_preset() {
    // The default is checked above.
    for Preset { name, rules, .. } in Rules::presets().iter().skip(1) {
        eprintln!("preset {name}");
        check_all(rules);
    }
}

#[test]
fn golden_default_rules() {
    check_golden::<CardWar>(
        &Rules::default(),
        &[1, 2],
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/default.txt"),
    );
}

#[test]
fn the_rule_set_table_matches_the_rules_and_the_presets_are_distinct() {
    game_traits::testkit::check_rule_set::<Rules>();
    game_traits::testkit::check_named::<cardwar_core::FirstAttacker>();
    assert_eq!(Rules::presets()[0].name, "default");
}

#[test]
fn the_rules_document_lists_every_part_of_the_tensor() {
    use cardwar_core::game_traits::Encode;
    let doc = include_str!("../docs/cardwar.md");
    let layout = CardWar::tensor_layout(&Rules::default());
    let own = layout.plane("own_counts").unwrap().offset;
    let opp = layout.plane("opp_counts").unwrap().offset;
    for plane in &layout.planes {
        if let Some(part) = plane.name.strip_prefix("opp_") {
            // Documented once, as the viewer's part at its offset.
            let mine = layout.plane(&format!("own_{part}")).unwrap();
            assert_eq!(plane.offset - opp, mine.offset - own);
            continue;
        }
        let row = format!("| `{}` | {} | {} |", plane.name, plane.offset, plane.len);
        assert!(doc.contains(&row), "docs/cardwar.md lacks the row {row}");
    }
    let opp_row = format!("| `opp_*` | {opp} | {} |", opp - own);
    assert!(doc.contains(&opp_row), "{opp_row}");
    assert!(doc.contains(&format!("**{}** `f32`", layout.size())));
}
