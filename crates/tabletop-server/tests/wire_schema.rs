//! The published wire schema (`wire-schema.json`, served at
//! `/api/wire-schema.json`) is exactly what the engines' types derive:
//! regenerate it with `UPDATE_GOLDEN=1 cargo test -p tabletop-server --test
//! wire_schema` after a change of the wire forms, and bump
//! `game_traits::WIRE_VERSION` when a client could notice.

use tabletop_server::http::WIRE_SCHEMA;
use tabletop_server::registry;

const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/wire-schema.json");

#[test]
fn the_published_wire_schema_is_the_one_the_engines_derive() {
    let derived = registry().wire_schema().unwrap();
    let text = serde_json::to_string_pretty(&derived).unwrap() + "\n";
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(PATH, &text).unwrap();
        return;
    }
    let published: serde_json::Value = serde_json::from_str(WIRE_SCHEMA).unwrap();
    assert!(
        published == derived,
        "wire-schema.json is stale: regenerate it with UPDATE_GOLDEN=1 cargo test -p tabletop-server --test wire_schema, and bump WIRE_VERSION if a client could notice"
    );
}

#[test]
fn every_game_has_its_three_forms_and_every_reference_resolves() {
    let schema: serde_json::Value = serde_json::from_str(WIRE_SCHEMA).unwrap();
    let games = schema["games"].as_object().unwrap();
    for name in ["battleline", "stratego", "cardwar", "kuhn_poker"] {
        for form in ["action", "view", "observation", "event"] {
            assert!(games[name].get(form).is_some(), "{name}: {form}");
        }
    }
    let text = WIRE_SCHEMA.replace(' ', "");
    for reference in text.split("\"$ref\":\"").skip(1) {
        let pointer = reference.split('"').next().unwrap();
        let target = pointer.strip_prefix('#').unwrap_or(pointer);
        assert!(
            schema.pointer(target).is_some(),
            "{pointer} resolves to nothing"
        );
    }
}
