//! Card war's glossary: every line kind, guard and prayer result the
//! observation sends is named once, by the code the wire writes for it,
//! and the notes say what the rules in play make of it.

use cardwar_core::game_traits::{RuleSet, Term, Wire};
use cardwar_core::{
    CardWar, CardWarLineKind, CardWarOpen, CardWarPrayerResult, Guard, Prayer, Rules,
};

fn group(rules: &Rules, group: &str) -> Vec<Term> {
    CardWar::glossary(rules)
        .into_iter()
        .filter(|t| t.group == group)
        .collect()
}

fn note(rules: &Rules, code: &str) -> String {
    CardWar::glossary(rules)
        .into_iter()
        .find(|t| t.code == code)
        .and_then(|t| t.note)
        .unwrap_or_default()
}

#[test]
fn every_line_kind_has_exactly_one_name_under_the_code_the_wire_sends() {
    for preset in Rules::presets() {
        let glossary = CardWar::glossary(&preset.rules);
        assert_eq!(
            group(&preset.rules, "line").len(),
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

#[test]
fn every_guard_is_named_once_under_the_code_open_sends_in_the_order_of_guards() {
    let opens = [CardWarOpen::A1, CardWarOpen::A2, CardWarOpen::Jk];
    for preset in Rules::presets() {
        let guards = group(&preset.rules, "guard");
        // A side's `guards` holds the healths in this order, and `open`
        // names the guard that fights by the same code.
        let codes: Vec<_> = guards.iter().map(|t| t.code.as_str()).collect();
        assert_eq!(codes, ["A1", "A2", "Jk"], "{}", preset.name);
        for ((term, guard), open) in guards.iter().zip(Guard::ORDER).zip(opens) {
            let sent = serde_json::to_value(open).unwrap();
            assert_eq!(sent.as_str(), Some(guard.code()));
            assert_eq!(term.name, guard.name());
            assert_eq!(term.symbol.as_deref(), Some(guard.code()));
        }
    }
    assert!(note(&Rules::default(), "Jk").contains("when he dies his side loses"));
    assert!(note(&Rules::default(), "A1").starts_with("strength 14"));
    assert!(!note(&Rules::default(), "A2").contains("general"));
}

#[test]
fn every_prayer_result_is_named_once_under_the_code_the_wire_sends_with_its_sum() {
    for preset in Rules::presets() {
        let prayers = group(&preset.rules, "prayer");
        assert_eq!(prayers.len(), 11, "{}", preset.name);
        let results = (2..=12)
            .filter_map(Prayer::from_sum)
            .map(CardWarPrayerResult::from);
        for (sum, (term, result)) in (2u8..).zip(prayers.iter().zip(results)) {
            let sent = serde_json::to_value(result).unwrap();
            assert_eq!(sent.as_str(), Some(result.code()));
            assert_eq!(term.code, result.code());
            assert_eq!(term.symbol.as_deref(), Some(sum.to_string().as_str()));
            let note = term.note.as_deref().unwrap_or_default();
            assert!(note.starts_with(&format!("{sum} on two dice: ")), "{note}");
        }
    }
    let names: Vec<_> = group(&Rules::default(), "prayer")
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(names[0], "grin of the gods (+2)");
    assert_eq!(names[10], "atomic bomb (all soldiers die)");
}

#[test]
fn the_notes_tell_what_each_prayer_does_under_the_rules_in_play() {
    let default = Rules::default();
    let gangrene = note(&default, "gangrene");
    assert!(gangrene.contains("an ace or the joker too"), "{gangrene}");
    let spared = Rules {
        gangrene_hits_guards: false,
        ..default
    };
    assert!(note(&spared, "gangrene").contains("aces and the joker are spared"));

    assert!(!note(&default, "sniper").contains("ace"));
    let sniper = Rules {
        sniper_targets_guards: true,
        sniper_by_health: true,
        ..default
    };
    let sniper = note(&sniper, "sniper");
    assert!(sniper.contains("a defending ace or joker"), "{sniper}");
    assert!(sniper.contains("most health left"), "{sniper}");

    assert!(note(&default, "grenade").contains("rounded up"));
    let down = Rules {
        grenade_rounds_up: false,
        ..default
    };
    assert!(note(&down, "grenade").contains("rounded down"));

    assert!(!note(&default, "atomic_bomb").contains("hand"));
    let bomb = Rules {
        bomb_hits_hand: true,
        ..default
    };
    assert!(note(&bomb, "atomic_bomb").contains("in his hand and set aside"));

    let no_bonus = Rules {
        guards_earn_bonus: false,
        ..default
    };
    assert!(note(&default, "A1").contains("three-kills bonus"));
    assert!(!note(&no_bonus, "A1").contains("three-kills bonus"));
}
