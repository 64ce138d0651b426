//! The conformance kit of `game-traits` on every rule switch and every
//! preset, the encodings' checks on each, and golden playthroughs of the
//! default rules.

mod common;

use cardwar_core::game_traits::testkit::{check_encoding, check_game, check_golden, KitConfig};
use cardwar_core::{CardWar, Rules};
use common::every_switch_flipped;

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
    for (name, _, rules) in Rules::presets().iter().skip(1) {
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
fn parameter_docs_name_exactly_the_serialised_fields() {
    let json = serde_json::to_value(Rules::default()).unwrap();
    let mut fields: Vec<&str> = json
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut documented: Vec<&str> = Rules::PARAMETER_DOCS.iter().map(|d| d.0).collect();
    fields.sort_unstable();
    documented.sort_unstable();
    assert_eq!(fields, documented);
    assert!(Rules::PARAMETER_DOCS.iter().all(|d| !d.1.is_empty()));
}

#[test]
fn presets_start_with_the_default_and_have_distinct_names_and_rules() {
    let presets = Rules::presets();
    assert_eq!(presets[0].0, "default");
    assert_eq!(presets[0].2, Rules::default());
    for (i, a) in presets.iter().enumerate() {
        for b in &presets[i + 1..] {
            assert_ne!(a.0, b.0);
            assert_ne!(a.2, b.2, "{} and {} are the same rules", a.0, b.0);
        }
    }
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
