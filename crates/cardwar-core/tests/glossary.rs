//! Card war's glossary: every kind of line the observation's `lay` phase
//! sends is named once, by the code the wire writes for it.

use cardwar_core::game_traits::{RuleSet, Wire};
use cardwar_core::{CardWar, CardWarLineKind, Rules};

#[test]
fn every_line_kind_has_exactly_one_name_under_the_code_the_wire_sends() {
    for preset in Rules::presets() {
        let glossary = CardWar::glossary(&preset.rules);
        assert_eq!(
            glossary.len(),
            CardWarLineKind::ALL.len(),
            "{}",
            preset.name
        );
        for line in CardWarLineKind::ALL {
            // The code is the one serde writes in `phase.line`.
            let sent = serde_json::to_value(line).unwrap();
            assert_eq!(sent.as_str(), Some(line.code()));
            let named: Vec<_> = glossary
                .iter()
                .filter(|t| t.group == "line" && t.code == line.code())
                .collect();
            assert_eq!(named.len(), 1, "{}: {}", preset.name, line.code());
            assert_eq!(named[0].name, line.name());
        }
    }
    let name = |code: &str| {
        CardWar::glossary(&Rules::default())
            .into_iter()
            .find(|t| t.code == code)
            .map(|t| t.name)
    };
    assert_eq!(name("attack").as_deref(), Some("attack line"));
    assert_eq!(name("free_attack").as_deref(), Some("free attack line"));
    assert_eq!(name("defence").as_deref(), Some("defence line"));
}
