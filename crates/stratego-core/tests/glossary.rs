//! Stratego's glossary: every piece of every rule set named once, by the
//! name the observation's army gives it, with the sign a board draws it
//! by and what it does under the rules in play.

use game_traits::{Game, PlayerId, RuleSet, Term, Wire};
use stratego_core::{Kind, Rules, Stratego, Variant};

fn glossary(rules: &Rules) -> Vec<Term> {
    Stratego::glossary(rules)
}

fn term<'a>(glossary: &'a [Term], code: &str) -> &'a Term {
    glossary
        .iter()
        .find(|t| t.code == code)
        .unwrap_or_else(|| panic!("{code} not in the glossary"))
}

#[test]
fn every_kind_of_every_rule_set_has_exactly_one_name_and_symbol() {
    for preset in Rules::presets() {
        let rules = preset.rules;
        let glossary = glossary(&rules);
        let kinds: Vec<Kind> = rules.variant.kinds().collect();
        assert_eq!(glossary.len(), kinds.len(), "{}", preset.name);
        // The army the observation sends, kind code by kind code: the
        // glossary names each piece as the board does.
        let state = Stratego::new(&rules).unwrap();
        let army = Stratego::observation_struct(&state.observation(PlayerId::P0)).army;
        assert_eq!(army.len(), glossary.len(), "{}", preset.name);
        for (entry, pieces) in glossary.iter().zip(&army) {
            assert_eq!(entry.code, pieces.kind, "{}", preset.name);
            assert_eq!(entry.name, pieces.piece, "{}", preset.name);
            assert_eq!(entry.group, "piece");
            let symbol = entry.symbol.as_deref().unwrap_or_default();
            assert!(
                !symbol.is_empty() && symbol.chars().count() <= 2 && symbol.trim() == symbol,
                "{}: {} drawn as {symbol:?}",
                preset.name,
                entry.code
            );
            let same_symbol = glossary.iter().filter(|t| t.symbol == entry.symbol).count();
            let same_code = glossary.iter().filter(|t| t.code == entry.code).count();
            assert_eq!(
                (same_symbol, same_code),
                (1, 1),
                "{}: {entry:?}",
                preset.name
            );
        }
    }
}

#[test]
fn each_rule_set_names_and_draws_its_pieces_its_own_way() {
    let classic = glossary(&Rules::classic());
    let czech = glossary(&Rules::czech());
    let srazhenie = glossary(&Rules::srazhenie());
    let named = |g: &[Term], code: &str| {
        let t = term(g, code);
        (t.name.clone(), t.symbol.clone().unwrap())
    };
    assert_eq!(named(&classic, "R0"), ("Marshal".into(), "10".into()));
    assert_eq!(named(&classic, "R9"), ("Spy".into(), "S".into()));
    assert_eq!(named(&classic, "MINE"), ("Bomb".into(), "B".into()));
    assert_eq!(named(&srazhenie, "R0"), ("Marshal".into(), "1".into()));
    assert_eq!(named(&srazhenie, "R9"), ("Scout".into(), "10".into()));
    assert_eq!(named(&srazhenie, "MINE"), ("Mine".into(), "M".into()));
    assert_eq!(named(&czech, "R0"), ("Maršál".into(), "Ma".into()));
    assert_eq!(named(&czech, "MINE"), ("Minové pole".into(), "MP".into()));
    // The Czech army has no tenth rank.
    assert!(czech.iter().all(|t| t.code != "R9"));
    for variant in Variant::ALL {
        assert_eq!(
            glossary(&Rules::for_variant(variant)).len(),
            variant.kinds().count()
        );
    }
}

#[test]
fn the_notes_tell_what_each_special_piece_does_under_the_rules_in_play() {
    let note = |rules: &Rules, code: &str| term(&glossary(rules), code).note.clone();
    let classic = Rules::classic();
    assert_eq!(
        note(&classic, "MINE").as_deref(),
        Some("never moves; defeats every attacker but the Miner.")
    );
    assert_eq!(
        note(&classic, "R9").as_deref(),
        Some("the weakest, but defeats the Marshal when it attacks.")
    );
    assert_eq!(
        note(&classic, "R8").as_deref(),
        Some("moves any distance in a straight line.")
    );
    assert_eq!(note(&classic, "R4"), None);
    // Milton Bradley: the Scout may not move and strike in one turn.
    let mb = note(&Rules::classic_milton_bradley(), "R8").unwrap();
    assert!(mb.contains("may not strike"), "{mb}");
    // Srazhenie's Soldier runs only under the running-Soldiers option.
    assert_eq!(note(&Rules::srazhenie(), "R8"), None);
    assert!(note(&Rules::srazhenie_runner_soldiers(), "R8")
        .unwrap()
        .contains("any distance"));
    // The Czech Špión beats the Maršál whoever attacks; the Průzkumník runs.
    let czech = Rules::czech();
    assert_eq!(
        note(&czech, "R8").as_deref(),
        Some("the weakest, but defeats the Maršál, whoever attacks.")
    );
    assert!(note(&czech, "R6").unwrap().contains("any distance"));
    assert_eq!(
        note(&czech, "R7").as_deref(),
        Some("the only piece that clears a Minové pole.")
    );
}
