//! The rules of one flag: slots, completion order, Mud, claims.

use battleline_core::{
    Card, Colour, Flag, FlagError, FlagId, Phase, PlayerId, PositionBuilder, Rules, Tactic,
};

fn t(c: Colour, v: u8) -> Card {
    Card::troop(c, v).unwrap()
}

#[test]
fn rule_first_completion_is_tracked_per_flag() {
    let mut f = Flag::new();
    for v in 1..=3 {
        f.place(PlayerId::P1, t(Colour::Red, v)).unwrap();
    }
    assert_eq!(f.first_complete(), Some(PlayerId::P1));
    for v in 1..=3 {
        f.place(PlayerId::P0, t(Colour::Blue, v)).unwrap();
    }
    assert_eq!(f.first_complete(), Some(PlayerId::P1));
}

#[test]
fn rule_taking_a_card_reopens_the_side_and_completion_counts_anew() {
    let mut f = Flag::new();
    for v in 1..=3 {
        f.place(PlayerId::P1, t(Colour::Red, v)).unwrap();
        f.place(PlayerId::P0, t(Colour::Blue, v)).unwrap();
    }
    assert_eq!(f.first_complete(), Some(PlayerId::P1));
    // Deserter takes one of P1's cards; P1 completes again, now last.
    f.take(PlayerId::P1, t(Colour::Red, 2)).unwrap();
    assert_eq!(f.first_complete(), Some(PlayerId::P0));
    f.place(PlayerId::P1, t(Colour::Green, 2)).unwrap();
    assert_eq!(f.first_complete(), Some(PlayerId::P0));
}

#[test]
fn rule_mud_reopens_complete_sides() {
    let mut f = Flag::new();
    for v in 1..=3 {
        f.place(PlayerId::P0, t(Colour::Red, v)).unwrap();
    }
    f.add_mud().unwrap();
    assert!(!f.is_complete(PlayerId::P0));
    assert_eq!(f.first_complete(), None);
    f.place(PlayerId::P0, t(Colour::Red, 4)).unwrap();
    assert!(f.is_complete(PlayerId::P0));
}

#[test]
fn rule_claimed_flag_refuses_every_change() {
    let f1 = FlagId::new(0).unwrap();
    let mut b = PositionBuilder::new(Rules::default()).turn(PlayerId::P1, Phase::Play);
    for v in 1..=3 {
        b = b.place(f1, PlayerId::P0, t(Colour::Red, v));
    }
    let game = b.claim(f1, PlayerId::P0).build().unwrap();
    let mut f = *game.table().flag(f1);
    assert_eq!(f.claimed(), Some(PlayerId::P0));
    assert_eq!(
        f.place(PlayerId::P1, t(Colour::Blue, 1)),
        Err(FlagError::Claimed)
    );
    assert_eq!(f.add_fog(), Err(FlagError::Claimed));
    assert_eq!(f.add_mud(), Err(FlagError::Claimed));
    assert_eq!(
        f.take(PlayerId::P0, t(Colour::Red, 1)),
        Err(FlagError::Claimed)
    );
    assert_eq!(
        f.place(PlayerId::P1, Card::tactic(Tactic::Alexander)),
        Err(FlagError::Claimed)
    );
}

#[test]
fn flag_refuses_bad_placements() {
    let mut f = Flag::new();
    assert_eq!(
        f.place(PlayerId::P0, Card::tactic(Tactic::Fog)),
        Err(FlagError::NotASlotCard(Card::tactic(Tactic::Fog)))
    );
    f.place(PlayerId::P0, t(Colour::Red, 1)).unwrap();
    assert_eq!(
        f.place(PlayerId::P1, t(Colour::Red, 1)),
        Err(FlagError::Duplicate(t(Colour::Red, 1)))
    );
    f.place(PlayerId::P0, t(Colour::Red, 2)).unwrap();
    f.place(PlayerId::P0, t(Colour::Red, 3)).unwrap();
    assert_eq!(
        f.place(PlayerId::P0, t(Colour::Red, 4)),
        Err(FlagError::Full)
    );
}

#[test]
fn tampered_flag_json_is_refused() {
    let mut f = Flag::new();
    f.place(PlayerId::P0, t(Colour::Red, 1)).unwrap();
    let json = serde_json::to_string(&f).unwrap();
    let back: Flag = serde_json::from_str(&json).unwrap();
    assert_eq!(back, f);
    let bad = json.replace("\"first_complete\":null", "\"first_complete\":0");
    assert!(serde_json::from_str::<Flag>(&bad).is_err());
}
