//! The formation rules: classes, their order, sums, Fog, Mud and the wild
//! cards, on the public evaluator.

use battleline_core::{
    formation_strength, Card, Colour, Environment, FormationClass, FormationOrder, Tactic,
};

fn t(c: Colour, v: u8) -> Card {
    Card::troop(c, v).unwrap()
}
const PLAIN: Environment = Environment {
    fog: false,
    mud: false,
};

#[test]
fn rule_wedge_beats_phalanx() {
    let wedge = formation_strength(
        &[t(Colour::Red, 4), t(Colour::Red, 5), t(Colour::Red, 3)],
        PLAIN,
        FormationOrder::Text,
    )
    .unwrap();
    let phalanx = formation_strength(
        &[t(Colour::Yellow, 8), t(Colour::Red, 8), t(Colour::Green, 8)],
        PLAIN,
        FormationOrder::Text,
    )
    .unwrap();
    assert_eq!(wedge.class(), Some(FormationClass::Wedge));
    assert_eq!(phalanx.class(), Some(FormationClass::Phalanx));
    assert!(wedge > phalanx);
}

#[test]
fn rule_text_order_ranks_skirmish_line_above_battalion() {
    let line = [t(Colour::Yellow, 4), t(Colour::Red, 6), t(Colour::Green, 5)];
    let battalion = [t(Colour::Blue, 2), t(Colour::Blue, 7), t(Colour::Blue, 4)];
    let s = |c: &[Card], o| formation_strength(c, PLAIN, o).unwrap();
    assert!(s(&line, FormationOrder::Text) > s(&battalion, FormationOrder::Text));
    assert!(s(&line, FormationOrder::Published) < s(&battalion, FormationOrder::Published));
}

#[test]
fn rule_runs_do_not_wrap() {
    let s = formation_strength(
        &[t(Colour::Red, 9), t(Colour::Blue, 10), t(Colour::Green, 1)],
        PLAIN,
        FormationOrder::Text,
    )
    .unwrap();
    assert_eq!(s.class(), Some(FormationClass::Host));
}

#[test]
fn rule_sum_breaks_ties_between_equal_classes() {
    let a = [t(Colour::Red, 2), t(Colour::Blue, 9), t(Colour::Green, 5)];
    let b = [t(Colour::Red, 3), t(Colour::Blue, 9), t(Colour::Green, 5)];
    let s = |c: &[Card]| formation_strength(c, PLAIN, FormationOrder::Text).unwrap();
    assert!(s(&b) > s(&a));
}

#[test]
fn rule_fog_compares_sums_only() {
    let fog = Environment {
        fog: true,
        mud: false,
    };
    let wedge = [t(Colour::Red, 1), t(Colour::Red, 2), t(Colour::Red, 3)];
    let host = [t(Colour::Red, 9), t(Colour::Blue, 2), t(Colour::Green, 5)];
    let s = |c: &[Card]| formation_strength(c, fog, FormationOrder::Text).unwrap();
    assert!(s(&host) > s(&wedge));
    assert_eq!(s(&wedge).class(), None);
}

#[test]
fn rule_mud_makes_four_card_formations() {
    let mud = Environment {
        fog: false,
        mud: true,
    };
    let three = [t(Colour::Red, 1), t(Colour::Red, 2), t(Colour::Red, 3)];
    assert!(formation_strength(&three, mud, FormationOrder::Text).is_none());
    let four = [
        t(Colour::Red, 1),
        t(Colour::Red, 2),
        t(Colour::Red, 3),
        t(Colour::Red, 4),
    ];
    let s = formation_strength(&four, mud, FormationOrder::Text).unwrap();
    assert_eq!((s.class(), s.sum()), (Some(FormationClass::Wedge), 10));
}

#[test]
fn rule_fog_and_mud_together_sum_four_cards() {
    let both = Environment {
        fog: true,
        mud: true,
    };
    let four = [
        t(Colour::Red, 1),
        t(Colour::Red, 2),
        t(Colour::Red, 3),
        t(Colour::Red, 4),
    ];
    let s = formation_strength(&four, both, FormationOrder::Text).unwrap();
    assert_eq!((s.class(), s.sum()), (None, 10));
}

#[test]
fn rule_leader_takes_any_colour_and_value() {
    let s = formation_strength(
        &[
            t(Colour::Blue, 8),
            Card::tactic(Tactic::Alexander),
            t(Colour::Blue, 9),
        ],
        PLAIN,
        FormationOrder::Text,
    )
    .unwrap();
    assert_eq!((s.class(), s.sum()), (Some(FormationClass::Wedge), 27));
}

#[test]
fn rule_wild_may_copy_a_card_already_in_the_formation() {
    let s = formation_strength(
        &[
            t(Colour::Blue, 8),
            Card::tactic(Tactic::CompanionCavalry),
            t(Colour::Red, 8),
        ],
        PLAIN,
        FormationOrder::Text,
    )
    .unwrap();
    assert_eq!((s.class(), s.sum()), (Some(FormationClass::Phalanx), 24));
}

#[test]
fn rule_companion_cavalry_is_an_eight() {
    let s = formation_strength(
        &[
            t(Colour::Blue, 6),
            Card::tactic(Tactic::CompanionCavalry),
            t(Colour::Blue, 7),
        ],
        PLAIN,
        FormationOrder::Text,
    )
    .unwrap();
    assert_eq!((s.class(), s.sum()), (Some(FormationClass::Wedge), 21));
    let s = formation_strength(
        &[
            t(Colour::Blue, 1),
            Card::tactic(Tactic::CompanionCavalry),
            t(Colour::Blue, 2),
        ],
        PLAIN,
        FormationOrder::Text,
    )
    .unwrap();
    assert_eq!((s.class(), s.sum()), (Some(FormationClass::Battalion), 11));
}

#[test]
fn rule_shield_bearers_take_one_two_or_three() {
    let s = formation_strength(
        &[
            t(Colour::Green, 4),
            Card::tactic(Tactic::ShieldBearers),
            t(Colour::Green, 5),
        ],
        PLAIN,
        FormationOrder::Text,
    )
    .unwrap();
    assert_eq!((s.class(), s.sum()), (Some(FormationClass::Wedge), 12));
    let s = formation_strength(
        &[
            t(Colour::Green, 9),
            Card::tactic(Tactic::ShieldBearers),
            t(Colour::Red, 9),
        ],
        PLAIN,
        FormationOrder::Text,
    )
    .unwrap();
    assert_eq!((s.class(), s.sum()), (Some(FormationClass::Host), 21));
}

#[test]
fn invalid_formations_are_refused() {
    let r = t(Colour::Red, 1);
    assert!(formation_strength(&[r, r, t(Colour::Red, 2)], PLAIN, FormationOrder::Text).is_none());
    assert!(formation_strength(
        &[r, t(Colour::Red, 2), Card::tactic(Tactic::Fog)],
        PLAIN,
        FormationOrder::Text
    )
    .is_none());
    assert!(formation_strength(&[], PLAIN, FormationOrder::Text).is_none());
}
