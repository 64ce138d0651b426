//! Actions read from text (`FromStr` round-trips `Display`, and the short
//! forms a person types) and told in words (`Game::narrate`): what each
//! roll was for and how each fight ended, hiding the opponent's cards.

use cardwar_core::{
    Action, CardWar, Game, GameRng, ParseActionError, PlayerId, Rules, Turn, ACTION_SPACE,
};
use game_traits::rand::SeedableRng;

#[test]
fn every_action_round_trips_its_display() {
    for id in 0..ACTION_SPACE {
        let a = Action::from_id(id).unwrap();
        assert_eq!(a.to_string().parse::<Action>(), Ok(a), "id {id}");
        assert_eq!(a.to_string().to_uppercase().parse::<Action>(), Ok(a));
    }
}

#[test]
fn short_card_forms_are_accepted() {
    let kb: Action = "place Kb".parse().unwrap();
    for text in ["kb", "KB", "Kb", " lay kb ", "PLACE KB"] {
        assert_eq!(text.parse(), Ok(kb), "{text}");
    }
    assert_eq!("10a".parse::<Action>().unwrap().to_string(), "place 10a");
    assert_eq!("end".parse(), Ok(Action::EndLine));
    assert_eq!("Pray".parse(), Ok(Action::Pray));
}

#[test]
fn unreadable_actions_get_a_typed_error() {
    assert_eq!(" ".parse::<Action>(), Err(ParseActionError::Empty));
    assert!(matches!(
        "place 1a".parse::<Action>(),
        Err(ParseActionError::NotASoldier(_))
    ));
    assert!(matches!(
        "die 7".parse::<Action>(),
        Err(ParseActionError::NotARoll(_))
    ));
    assert!(matches!(
        "dice 1".parse::<Action>(),
        Err(ParseActionError::NotARoll(_))
    ));
    assert!(matches!(
        "hello".parse::<Action>(),
        Err(ParseActionError::Unrecognised(_))
    ));
    assert!("place".parse::<Action>().is_err());
    assert!("ka kb".parse::<Action>().is_err());
}

#[test]
fn fights_and_dice_are_told_in_words() {
    let mut rng = GameRng::seed_from_u64(9);
    let mut game = CardWar::new(&Rules::default()).unwrap();
    let (mut fights, mut initiative) = (0, 0);
    let mut legal = Vec::new();
    while game.turn() != Turn::Terminal {
        let action = match game.turn() {
            Turn::Chance => game.sample_chance(&mut rng).unwrap(),
            _ => game.sample_legal(&mut legal, &mut rng).unwrap(),
        };
        let mut after = game.clone();
        after.apply(action).unwrap();
        for viewer in PlayerId::BOTH {
            let view = game.action_view(viewer, action);
            let told = CardWar::narrate(
                viewer,
                &game.observation(viewer),
                &view,
                &after.observation(viewer),
            );
            assert!(
                !told.starts_with("P0: ") && !told.starts_with("P1: "),
                "{told}"
            );
            if matches!(action, Action::Die(_) | Action::Dice(_)) {
                assert!(told.contains(" roll"), "{action}: {told}");
            }
            if told.contains("(defender) roll") {
                fights += 1;
                assert!(
                    told.contains(" beats ") || told.contains(" kill each other"),
                    "{told}"
                );
                assert!(told.contains(" total "), "{told}");
            }
            initiative += usize::from(told.contains("for the initiative"));
            // The opponent's face-down cards are never named.
            if let Action::Place(c) = action {
                if game.action_view(viewer, action) != game.action_view(viewer.other(), action) {
                    assert!(
                        told.contains("you lay") || !told.contains(&c.to_string()),
                        "{told}"
                    );
                }
            }
        }
        game = after;
    }
    assert!(
        fights > 0 && initiative > 0,
        "{fights} fights, {initiative} initiative rolls"
    );
}
