//! Actions read from text (`FromStr` round-trips `Display`, and the short
//! forms a person types) and told in words (`Game::narrate`): a claim
//! says why it holds.

use battleline_core::{
    Action, BattleLine, Card, Colour, Deck, FlagId, Game, ParseActionError, Phase, PlayerId,
    PositionBuilder, Rules, Tactic, ACTION_SPACE,
};

fn r(v: u8) -> Card {
    Card::troop(Colour::Red, v).unwrap()
}

fn flag(n: usize) -> FlagId {
    FlagId::new(n - 1).unwrap()
}

#[test]
fn every_action_round_trips_its_display() {
    for id in 0..ACTION_SPACE {
        let a = Action::from_id(id).unwrap();
        assert_eq!(a.to_string().parse::<Action>(), Ok(a), "id {id}");
        assert_eq!(a.to_string().to_lowercase().parse::<Action>(), Ok(a));
        assert_eq!(a.to_string().to_uppercase().parse::<Action>(), Ok(a));
    }
}

#[test]
fn short_play_forms_are_accepted() {
    let play = Action::Play {
        card: r(7),
        flag: flag(1),
    };
    for text in ["R7 F1", "r7f1", "r7 f1", "play r7 at f1", "R7 1", " R7F1 "] {
        assert_eq!(text.parse(), Ok(play), "{text}");
    }
    let fog = Action::Play {
        card: Card::tactic(Tactic::Fog),
        flag: flag(9),
    };
    assert_eq!("fogf9".parse(), Ok(fog));
    assert_eq!("FOG F9".parse(), Ok(fog));
    assert_eq!(
        "p10f2".parse(),
        Ok(Action::Play {
            card: Card::troop(Colour::Purple, 10).unwrap(),
            flag: flag(2)
        })
    );
    assert_eq!("claim 3".parse(), Ok(Action::Claim(flag(3))));
    assert_eq!("draw tactics".parse(), Ok(Action::Draw(Deck::Tactics)));
    assert_eq!("troop".parse(), Ok(Action::Draw(Deck::Troop)));
    assert_eq!("scout".parse(), Ok(Action::Scout));
    assert_eq!("end".parse(), Ok(Action::EndTurn));
    assert_eq!(
        "redeploy r7 f2".parse(),
        Ok(Action::Redeploy {
            card: r(7),
            to: Some(flag(2))
        })
    );
    assert_eq!("deserter r7".parse(), Ok(Action::Deserter { card: r(7) }));
    assert_eq!(
        "traitor r7 f2".parse(),
        Ok(Action::Traitor {
            card: r(7),
            to: flag(2)
        })
    );
}

#[test]
fn unreadable_actions_get_a_typed_error() {
    assert_eq!("".parse::<Action>(), Err(ParseActionError::Empty));
    assert!(matches!(
        "X7 F1".parse::<Action>(),
        Err(ParseActionError::NotACard(_))
    ));
    assert!(matches!(
        "R7 F10".parse::<Action>(),
        Err(ParseActionError::NotAFlag(_))
    ));
    assert!(matches!(
        "R11 F1".parse::<Action>(),
        Err(ParseActionError::NotACard(_))
    ));
    assert!(matches!(
        "draw bottom".parse::<Action>(),
        Err(ParseActionError::NotADeck(_))
    ));
    assert!(matches!(
        "hello".parse::<Action>(),
        Err(ParseActionError::Unrecognised(_))
    ));
    assert!("claim F0".parse::<Action>().is_err());
    assert!("R7 F1 F2 F3".parse::<Action>().is_err());
}

/// `action` in `state` told to `viewer`.
fn told(state: &BattleLine, viewer: PlayerId, action: Action) -> String {
    let before = state.observation(viewer);
    let view = state.action_view(viewer, action);
    let mut after = *state;
    after.apply(action).unwrap();
    BattleLine::narrate(viewer, &before, &view, &after.observation(viewer))
}

#[test]
fn claim_narration_gives_the_proof_in_words() {
    let b = |v| Card::troop(Colour::Blue, v).unwrap();
    let g = |v| Card::troop(Colour::Green, v).unwrap();
    let game = PositionBuilder::new(Rules::default())
        .place(flag(1), PlayerId::P0, r(8))
        .place(flag(1), PlayerId::P0, r(9))
        .place(flag(1), PlayerId::P0, r(10))
        .place(flag(1), PlayerId::P1, b(2))
        .place(flag(2), PlayerId::P0, r(1))
        .place(flag(2), PlayerId::P0, r(2))
        .place(flag(2), PlayerId::P0, r(3))
        .place(flag(2), PlayerId::P1, b(5))
        .place(flag(2), PlayerId::P1, g(5))
        .place(flag(2), PlayerId::P1, b(4))
        .hand(PlayerId::P0, [r(4), r(5)].into_iter().collect())
        .hand(PlayerId::P1, [b(6)].into_iter().collect())
        .turn(PlayerId::P0, Phase::Claim)
        .draws_due(1)
        .build()
        .unwrap();
    assert_eq!(
        told(&game, PlayerId::P1, Action::Claim(flag(1))),
        "P0: claim F1: Wedge 27 (R8 R9 R10); no cards still to come can make your B2 beat it"
    );
    assert_eq!(
        told(&game, PlayerId::P0, Action::Claim(flag(2))),
        "you: claim F2: Wedge 6 (R1 R2 R3) beats Host 14 (B5 G5 B4)"
    );
}

#[test]
fn draws_hide_the_opponents_card_and_name_the_viewers() {
    let mut game = BattleLine::new(&Rules::default()).unwrap();
    let deal = Action::Deal(r(7));
    assert_eq!(told(&game, PlayerId::P0, deal), "you are dealt R7");
    assert_eq!(told(&game, PlayerId::P1, deal), "P0 is dealt a troop card");
    game.apply(deal).unwrap();
    let play = "r7f1".parse::<Action>().unwrap();
    assert_eq!(play.to_string(), "play R7 at F1");
}

#[test]
fn tactics_cards_are_read_by_name_as_by_code() {
    let at = |t, n| Action::Play {
        card: Card::tactic(t),
        flag: flag(n),
    };
    for (text, action) in [
        ("Darius F3", at(Tactic::Darius, 3)),
        ("play darius at f3", at(Tactic::Darius, 3)),
        ("DA F3", at(Tactic::Darius, 3)),
        ("Companion Cavalry F2", at(Tactic::CompanionCavalry, 2)),
        ("cavalry 2", at(Tactic::CompanionCavalry, 2)),
        ("Shield Bearers F1", at(Tactic::ShieldBearers, 1)),
        ("fog f9", at(Tactic::Fog, 9)),
    ] {
        assert_eq!(text.parse(), Ok(action), "{text}");
    }
    assert_eq!(
        "deserter alexander".parse(),
        Ok(Action::Deserter {
            card: Card::tactic(Tactic::Alexander)
        })
    );
}
