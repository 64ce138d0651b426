//! The deck: 60 troop cards and 10 tactics cards.

use battleline_core::{Card, CardKind, CardSet, Colour, Tactic, CARDS};

#[test]
fn rule_deck_has_sixty_troops_and_ten_tactics() {
    let troops = (0..CARDS)
        .filter_map(Card::from_index)
        .filter(|c| c.is_troop())
        .count();
    assert_eq!(troops, 60);
    assert_eq!(CardSet::ALL_TACTICS.len(), 10);
    for colour in Colour::ALL {
        for v in 1..=10 {
            let c = Card::troop(colour, v).unwrap();
            assert_eq!(c.kind(), CardKind::Troop(colour, v));
        }
    }
    assert!(Card::troop(Colour::Red, 0).is_none());
    assert!(Card::troop(Colour::Red, 11).is_none());
    for t in Tactic::ALL {
        assert_eq!(Card::tactic(t).as_tactic(), Some(t));
        assert_eq!(Card::tactic(t).is_slot_card(), t.is_morale());
    }
}

#[test]
fn card_set_rejects_bits_beyond_the_deck() {
    assert!(CardSet::try_from(1u128 << 70).is_err());
    assert!(Card::try_from(70u8).is_err());
}
