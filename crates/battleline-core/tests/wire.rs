//! The wire schema: actions, action views and observations as the structs
//! clients read, cards as codes, every number safe in a double, nothing
//! hidden leaking, and one pinned observation that the rules document
//! shows.

use battleline_core::{
    Action, ActionStruct, BattleLine, Card, CardKind, ClaimTiming, Deck, EnvironmentTactics,
    FlagId, FormationOrder, Game, GameRng, LastPass, LeaderLimit, ObservationStruct, PlayerId,
    ProofTie, Rules, Turn, WildCards, Wire, CARDS,
};
use game_traits::testkit::{assert_safe_integers, check_wire, env_count};
use game_traits::Preset;
use game_traits::RuleSet;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use serde_json::Value;
use std::collections::BTreeSet;

mod wire_support;
use wire_support::*;

/// The action a JSON text names under `rules`, if it is one.
fn read_action(rules: &Rules, json: &str) -> Option<Action> {
    let s: ActionStruct = serde_json::from_str(json).ok()?;
    BattleLine::action_from_struct(rules, &s)
}

#[test]
fn action_struct_round_trips_every_action() {
    for Preset { name, rules, .. } in Rules::presets() {
        for id in 0..rules.action_space() {
            let a = rules.action_from_id(id).expect("every id names an action");
            let json = serde_json::to_string(&BattleLine::action_struct(a)).unwrap();
            assert_eq!(read_action(&rules, &json), Some(a), "{name}: {json}");
        }
    }
}

#[test]
fn action_struct_names_cards_by_code_and_flags_from_one() {
    let card = |s: &str| s.parse::<Card>().unwrap();
    let flag = |n: usize| FlagId::new(n - 1).unwrap();
    let cases = [
        (
            Action::Play {
                card: card("P10"),
                flag: flag(1),
            },
            r#"{"type":"play","card":"P10","flag":1}"#,
        ),
        (
            Action::Redeploy {
                card: card("AL"),
                to: None,
            },
            r#"{"type":"redeploy","card":"AL","to":null}"#,
        ),
        (
            Action::Traitor {
                card: card("G3"),
                to: flag(9),
            },
            r#"{"type":"traitor","card":"G3","to":9}"#,
        ),
        (Action::Claim(flag(5)), r#"{"type":"claim","flag":5}"#),
        (
            Action::Draw(Deck::Tactics),
            r#"{"type":"draw","deck":"tactics"}"#,
        ),
        (Action::EndTurn, r#"{"type":"end_turn"}"#),
        (
            Action::Return(card("FOG")),
            r#"{"type":"return","card":"FOG"}"#,
        ),
    ];
    for (action, json) in cases {
        assert_eq!(
            serde_json::to_string(&BattleLine::action_struct(action)).unwrap(),
            json
        );
    }
}

#[test]
fn action_struct_refuses_flags_and_cards_outside_the_rules() {
    let rules = Rules::default();
    for good in [
        r#"{"type":"play","card":"R7","flag":1}"#,
        r#"{"type":"play","flag":9,"card":"TRT"}"#,
        r#"{"type":"redeploy","card":"R7","to":null}"#,
    ] {
        assert!(read_action(&rules, good).is_some(), "{good}");
    }
    for bad in [
        r#"{"type":"play","card":"R7","flag":0}"#,
        r#"{"type":"play","card":"R7","flag":10}"#,
        r#"{"type":"play","card":"R7","flag":-1}"#,
        r#"{"type":"play","card":"R7","flag":3.5}"#,
        r#"{"type":"play","card":"R7","flag":"3"}"#,
        r#"{"type":"play","card":"R11","flag":3}"#,
        r#"{"type":"play","card":"R0","flag":3}"#,
        r#"{"type":"play","card":"R07","flag":3}"#,
        r#"{"type":"play","card":"X7","flag":3}"#,
        r#"{"type":"play","card":"fog","flag":3}"#,
        r#"{"type":"play","card":"Fog","flag":3}"#,
        r#"{"type":"play","card":7,"flag":3}"#,
        r#"{"type":"play","card":"R7","flag":3,"extra":1}"#,
        r#"{"type":"play","card":"R7"}"#,
        r#"{"type":"redeploy","card":"R7"}"#,
        r#"{"type":"redeploy","card":"R7","to":0}"#,
        r#"{"type":"traitor","card":"R7","to":10}"#,
        r#"{"type":"claim","flag":0}"#,
        r#"{"type":"claim","flag":256}"#,
        r#"{"type":"draw","deck":"Troop"}"#,
        r#"{"type":"draw","deck":"discards"}"#,
        r#"{"type":"scout","card":"SCT"}"#,
        r#"{"type":"fly"}"#,
        r#"{"card":"R7","flag":3}"#,
        r#"{"type":"Play","card":"R7","flag":3}"#,
        r#"["play","R7",3]"#,
    ] {
        assert_eq!(read_action(&rules, bad), None, "{bad}");
    }
}

const TYPES: [&str; 13] = [
    "play", "scout", "redeploy", "deserter", "traitor", "pass", "claim", "draw", "end_turn",
    "return", "deal", "Play", "dealt",
];

fn json_field() -> impl Strategy<Value = Option<Value>> {
    prop::option::of(prop_oneof![
        (-2i64..12).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        "[ROYGBPX][0-9]{1,2}".prop_map(Value::from),
        prop::sample::select(vec!["AL", "FOG", "SCT", "troop", "tactics", "Fog", ""])
            .prop_map(Value::from),
        Just(Value::Null),
        any::<f64>().prop_map(Value::from),
    ])
}

proptest! {
    #[test]
    fn action_struct_from_arbitrary_text_never_panics(text in ".{0,80}") {
        for Preset { rules, .. } in Rules::presets() {
            let _ = read_action(&rules, &text);
        }
    }

    /// Whatever is read is canonical: the struct of the action it names
    /// is the very JSON read, so no two texts name one action.
    #[test]
    fn action_struct_read_is_the_struct_written(
        ty in prop::sample::select(TYPES.to_vec()),
        card in json_field(),
        flag in json_field(),
        to in json_field(),
        deck in json_field(),
    ) {
        let mut object = serde_json::Map::new();
        object.insert("type".into(), ty.into());
        for (name, value) in [("card", card), ("flag", flag), ("to", to), ("deck", deck)] {
            if let Some(v) = value {
                object.insert(name.into(), v);
            }
        }
        let input = Value::Object(object);
        let rules = Rules::default();
        if let Some(a) = read_action(&rules, &input.to_string()) {
            let written = serde_json::to_value(BattleLine::action_struct(a)).unwrap();
            prop_assert_eq!(written, input);
        }
    }
}

#[test]
fn observation_and_view_structs_carry_the_facts_in_safe_numbers() {
    // Three games of each preset reach every part of the schema.
    let games = env_count("CONFORMANCE_GAMES", 20).max(3);
    let mut legal = Vec::new();
    let mut reached = BTreeSet::new();
    for Preset { name, rules, .. } in Rules::presets() {
        for seed in 0..games {
            let mut rng = GameRng::seed_from_u64(seed);
            let mut guess = GameRng::seed_from_u64(seed ^ 0x5eed);
            let mut s = BattleLine::new(&rules).unwrap();
            loop {
                for p in PlayerId::all() {
                    let o = s.observation(p);
                    let wire = BattleLine::observation_struct(&o);
                    let json = serde_json::to_value(&wire).unwrap();
                    assert_safe_integers(&json, name);
                    assert_carries(&s, &o, &wire);
                    note_parts(&json, &mut reached);
                    // Hidden information: any state the viewer cannot tell
                    // from this one gives him the same struct.
                    let d = BattleLine::determinize(&o, &mut guess).unwrap();
                    let again = BattleLine::observation_struct(&d.observation(p));
                    assert_eq!(
                        serde_json::to_value(&again).unwrap(),
                        json,
                        "{name} seed {seed}"
                    );
                }
                let a = match s.turn() {
                    Turn::Terminal => break,
                    Turn::Chance => s.sample_chance(&mut rng).unwrap(),
                    Turn::Player(_) => {
                        s.legal_actions(&mut legal);
                        legal[rng.random_range(0..legal.len())]
                    }
                };
                for p in PlayerId::all() {
                    let view = s.action_view(p, a);
                    let json = serde_json::to_value(BattleLine::view_struct(&view)).unwrap();
                    assert_safe_integers(&json, name);
                    assert_view_carries(view, &json);
                    let shown = match json.get("card") {
                        Some(Value::Null) => "hidden",
                        Some(_) => "shown",
                        None => "public",
                    };
                    reached.insert(format!("view {} {shown}", json["type"]));
                }
                s.apply(a).unwrap();
            }
        }
    }
    let phases = ["setup", "play", "claim", "draw", "return", "over"];
    let views = ["dealt", "drew", "returned"];
    let mut every: BTreeSet<String> = [
        "claimed_by",
        "discards",
        "first_complete",
        "fog",
        "fog_by",
        "leaders_played",
        "mud",
        "mud_by",
        "outcome",
        "returns hidden",
        "returns shown",
        "revealed",
        "scout_by",
        "settled",
        "view \"public\" public",
    ]
    .map(String::from)
    .into();
    every.extend(phases.map(|p| format!("phase {}", serde_json::json!({"type": p}))));
    every.extend(
        ["troop", "tactics"]
            .map(|d| format!("phase {}", serde_json::json!({"type": "deal", "deck": d}))),
    );
    every.extend(views.map(|v| format!("view \"{v}\" hidden")));
    every.extend(views.map(|v| format!("view \"{v}\" shown")));
    assert_eq!(
        reached, every,
        "the playouts reach every part of the schema"
    );
}

#[test]
fn rules_struct_names_every_ruling() {
    let flipped = Rules {
        formation_order: FormationOrder::Published,
        claim_timing: ClaimTiming::StartOfTurn,
        leader_limit: LeaderLimit::OneOnTable,
        proof_tie: ProofTie::Blocks,
        first_player: PlayerId::P1,
        environment_tactics: EnvironmentTactics::Movable,
        wild_cards: WildCards::UnseenOnly,
        tactics: false,
        last_pass: LastPass::SettleAtOnce,
    };
    let rules_of = |r: Rules| {
        let o = BattleLine::new(&r).unwrap().observation(PlayerId::P0);
        serde_json::to_value(BattleLine::observation_struct(&o).rules).unwrap()
    };
    assert_eq!(
        rules_of(Rules::default()),
        serde_json::json!({
            "formation_order": "text", "claim_timing": "before_draw",
            "leader_limit": "once_per_game", "proof_tie": "claimant_wins", "first_player": 0,
            "environment_tactics": "fixed", "wild_cards": "copy_table", "tactics": true,
            "last_pass": "claim_first"
        })
    );
    assert_eq!(
        rules_of(flipped),
        serde_json::json!({
            "formation_order": "published", "claim_timing": "start_of_turn",
            "leader_limit": "one_on_table", "proof_tie": "blocks", "first_player": 1,
            "environment_tactics": "movable", "wild_cards": "unseen_only", "tactics": false,
            "last_pass": "settle_at_once"
        })
    );
}

/// The pinned example: the first JSON block of the rules document's
/// section "Wire format", P1's observation after the deal and P0's first
/// turn (R7 to flag 3, a troop card drawn) under the default rules. The
/// document is the pin, so that a change of the schema is a visible diff
/// there.
fn pinned() -> &'static str {
    let doc = include_str!("../docs/battleline.md");
    let section = &doc[doc.find("\n## Wire format\n").expect("the section")..];
    let block = &section[section.find("```json\n").expect("a JSON block") + 8..];
    &block[..block.find("\n```").expect("the block's end")]
}

/// P1's state after the deal and P0's first turn.
fn early_game() -> BattleLine {
    let card = |s: &str| s.parse::<Card>().unwrap();
    let mut s = BattleLine::new(&Rules::default()).unwrap();
    // The deal alternates, P0 first.
    let deal = [
        "R7", "R2", "O3", "O5", "Y8", "Y9", "G4", "G1", "B6", "G2", "P1", "B10", "P9", "P4",
    ];
    for c in deal {
        s.apply(Action::Deal(card(c))).unwrap();
    }
    for a in [
        Action::Play {
            card: card("R7"),
            flag: FlagId::new(2).unwrap(),
        },
        Action::Draw(Deck::Troop),
        Action::Deal(card("Y1")),
    ] {
        s.apply(a).unwrap();
    }
    s
}

#[test]
fn pinned_observation_struct_is_the_documented_example() {
    let wire = BattleLine::observation_struct(&early_game().observation(PlayerId::P1));
    assert_eq!(layout(&wire), pinned());
}

fn keys(object: &Value) -> BTreeSet<String> {
    object
        .as_object()
        .expect("an object")
        .keys()
        .cloned()
        .collect()
}

#[test]
fn json_schema_names_every_field_and_code_sent() {
    use game_traits::schemars::schema_for;
    let schema = serde_json::to_value(schema_for!(ActionStruct)).unwrap();
    let variants = schema["oneOf"].as_array().unwrap();
    let rules = Rules::default();
    let mut tags = BTreeSet::new();
    for id in 0..rules.action_space() {
        let a = rules.action_from_id(id).unwrap();
        let sent = serde_json::to_value(BattleLine::action_struct(a)).unwrap();
        let variant = variants
            .iter()
            .find(|v| v["properties"]["type"]["const"] == sent["type"])
            .unwrap_or_else(|| panic!("no variant in the schema for {sent}"));
        assert_eq!(keys(&variant["properties"]), keys(&sent), "{sent}");
        let required: BTreeSet<String> = variant["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k.as_str().unwrap().to_string())
            .collect();
        assert_eq!(required, keys(&sent), "{sent}");
        for (key, value) in sent.as_object().unwrap() {
            let admitted = &variant["properties"][key]["type"];
            let kind = match value {
                Value::Null => "null",
                Value::Number(_) => "integer",
                _ => "string",
            };
            assert!(
                admitted.is_null()
                    || *admitted == kind
                    || admitted
                        .as_array()
                        .is_some_and(|a| a.contains(&kind.into())),
                "{sent}: the schema of {key} admits {admitted}, not {kind}"
            );
        }
        tags.insert(sent["type"].to_string());
    }
    assert_eq!(tags.len(), variants.len());
    let codes: Vec<Value> = (0..battleline_core::CARDS)
        .map(|i| Value::from(Card::from_index(i).unwrap().to_string()))
        .collect();
    assert_eq!(
        schema["$defs"]["BattleLineCard"]["enum"],
        Value::from(codes)
    );

    let schema = serde_json::to_value(schema_for!(ObservationStruct)).unwrap();
    let sent = serde_json::to_value(BattleLine::observation_struct(
        &early_game().observation(PlayerId::P1),
    ))
    .unwrap();
    assert_eq!(keys(&schema["properties"]), keys(&sent));
    let defs = &schema["$defs"];
    assert_eq!(
        keys(&defs["BattleLineFlag"]["properties"]),
        keys(&sent["flags"][0])
    );
    assert_eq!(
        keys(&defs["BattleLineDeckView"]["properties"]),
        keys(&sent["troop_deck"])
    );
    assert_eq!(
        keys(&defs["BattleLineRules"]["properties"]),
        keys(&sent["rules"])
    );
}

#[test]
fn the_kit_checks_the_wire_forms_of_every_preset() {
    for Preset { name, rules, .. } in Rules::presets() {
        eprintln!("{name}");
        check_wire::<BattleLine>(&rules, env_count("CONFORMANCE_GAMES", 30).min(10));
    }
}

#[test]
fn the_glossary_names_every_card_by_its_code_once() {
    let glossary = BattleLine::glossary(&Rules::default());
    let codes: Vec<String> = (0..CARDS)
        .filter_map(Card::from_index)
        .map(|c| c.to_string())
        .collect();
    assert_eq!(
        glossary.iter().map(|t| t.code.clone()).collect::<Vec<_>>(),
        codes
    );
    let term = |code: &str| glossary.iter().find(|t| t.code == code).unwrap();
    assert_eq!(
        (term("R7").name.as_str(), term("R7").group),
        ("Red 7", "troop")
    );
    assert_eq!(term("P10").name, "Purple 10");
    for card in (0..CARDS).filter_map(Card::from_index) {
        if let CardKind::Tactic(t) = card.kind() {
            let entry = term(&card.to_string());
            assert_eq!((entry.name.as_str(), entry.group), (t.name(), "tactic"));
        }
    }
    assert_eq!(term("C8").name, "Companion Cavalry");
    // Every rule set names its cards alike.
    for preset in <Rules as game_traits::RuleSet>::presets() {
        assert_eq!(
            BattleLine::glossary(&preset.rules),
            glossary,
            "{}",
            preset.name
        );
    }
}
