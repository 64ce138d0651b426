//! The dynamic API's wire forms, on Kuhn poker: legal actions with their
//! structs, structs read back to ids, observation and view structs, and
//! the JSON Schema they follow.

use game_env::{DynGame, EnvError, TypedGame};
use game_traits::kuhn::{KuhnPoker, KuhnRules};
use game_traits::{PlayerId, WIRE_VERSION};
use serde_json::json;

fn kuhn() -> TypedGame<KuhnPoker> {
    TypedGame::new(KuhnRules::default()).unwrap()
}

#[test]
fn legal_actions_carry_id_text_and_struct() {
    let game = kuhn();
    let mut state = game.new_state();
    let deals = state.legal_actions();
    assert_eq!(deals.len(), 3);
    assert_eq!(deals[2].id, 2);
    assert_eq!(deals[2].text, "deal K");
    assert_eq!(deals[2].action, json!({"type": "deal", "card": "King"}));
    state.apply_id(2).unwrap();
    state.apply_id(0).unwrap();
    let legal = state.legal_actions();
    let texts: Vec<&str> = legal.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(texts, ["pass", "bet"]);
    for l in &legal {
        assert_eq!(game.action_id_of(&l.action), Ok(l.id));
        assert_eq!(state.action_struct(l.id).unwrap(), l.action);
    }
}

#[test]
fn structs_that_name_no_action_are_refused_with_their_reason() {
    let game = kuhn();
    for bad in [
        json!({"type": "raise"}),
        json!({"type": "deal", "card": "Ace"}),
        json!({"type": "deal", "card": "King", "to": 1}),
        // A unit variant with a field serde would let through.
        json!({"type": "pass", "card": "King"}),
        json!("bet"),
        json!(null),
    ] {
        assert!(
            matches!(game.action_id_of(&bad), Err(EnvError::UnknownAction { .. })),
            "{bad}"
        );
    }
}

#[test]
fn observation_structs_hide_the_other_card() {
    let game = kuhn();
    let mut state = game.new_state();
    state.apply_id(2).unwrap();
    state.apply_id(0).unwrap();
    let p0 = state.observation_struct(PlayerId::P0).unwrap();
    assert_eq!(p0["card"], "King");
    assert_eq!(p0["shown"], serde_json::Value::Null);
    let p1 = state.observation_struct(PlayerId::P1).unwrap();
    assert_eq!(p1["card"], "Jack");
    // The deal of the other card: seen as "a card" by the one who did not get it.
    let fresh = game.new_state();
    assert_eq!(
        fresh.view_struct(PlayerId::P1, 2).unwrap(),
        json!({"type": "deal", "to": 0, "card": null})
    );
    assert_eq!(
        fresh.view_struct(PlayerId::P0, 2).unwrap(),
        json!({"type": "deal", "to": 0, "card": "King"})
    );
    assert_eq!(WIRE_VERSION, 1);
}

#[test]
fn the_wire_schema_names_every_form_and_resolves_its_references() {
    let game = kuhn();
    let schema = game.wire_schema("/games/kuhn/$defs");
    for form in ["action", "view", "observation"] {
        assert!(schema.get(form).is_some(), "{form}");
    }
    let text = schema.to_string();
    // Every reference points into the definitions the schema carries.
    for reference in text.split("\"$ref\":\"").skip(1) {
        let target = reference.split('"').next().unwrap();
        let name = target
            .strip_prefix("#/games/kuhn/$defs/")
            .unwrap_or_else(|| panic!("reference {target} outside the game's definitions"));
        assert!(schema["$defs"].get(name).is_some(), "{name}");
    }
}
