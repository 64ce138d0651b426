//! The wire schema: actions round-trip through their structs under every
//! preset, foreign codes are refused, observation and view structs carry
//! every fact of what they render as exact JSON integers, and a
//! determinisation gives its viewer the same observation struct.

use game_traits::rand::SeedableRng;
use game_traits::testkit::{assert_safe_integers, check_wire, env_count};
use game_traits::Preset;
use game_traits::RuleSet;
use game_traits::{Game, GameRng, PlayerId, Wire};
use proptest::prelude::*;
use serde_json::Value;
use stratego_core::{
    classic, Action, Observation, Rules, Stratego, StrategoActionStruct, StrategoObservationStruct,
    WirePhase,
};

mod wire_support;

use wire_support::layout::layout;
use wire_support::*;

fn through_json(action: &StrategoActionStruct) -> StrategoActionStruct {
    let json = serde_json::to_string(action).expect("an action struct serialises");
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("{json} reads back: {e}"))
}

#[test]
fn action_struct_round_trips_every_action() {
    for Preset { name, rules, .. } in Rules::presets() {
        for id in 0..rules.action_space() {
            let action = Action::from_id(&rules, id).expect("an id of the space");
            let wire = Stratego::action_struct(action);
            let back = through_json(&wire);
            assert_eq!(back, wire, "{name}: {action}");
            assert_eq!(
                Stratego::action_from_struct(&rules, &back),
                Some(action),
                "{name}: id {id} {action}"
            );
        }
    }
}

#[test]
fn placement_reads_the_kind_by_its_name_in_the_rule_set() {
    for Preset { name, rules, .. } in Rules::presets() {
        for kind in rules.variant.kinds() {
            let piece = rules.variant.name(kind).split(" (").next().unwrap_or("");
            let json = format!(r#"{{"type":"place","kind":"{piece}"}}"#);
            let wire: StrategoActionStruct = serde_json::from_str(&json).expect("a placement");
            assert_eq!(
                Stratego::action_from_struct(&rules, &wire),
                Some(Action::Place(kind)),
                "{name}: {json}"
            );
        }
    }
}

#[test]
fn codes_squares_and_seats_outside_the_rules_are_refused() {
    let refused = |rules: &Rules, json: &str| {
        serde_json::from_str::<StrategoActionStruct>(json)
            .ok()
            .and_then(|a| Stratego::action_from_struct(rules, &a))
            .is_none()
    };
    let (classic, czech, srazhenie) = (Rules::classic(), Rules::czech(), Rules::srazhenie());
    // Czech has no tenth rank and names its pieces in Czech.
    assert!(refused(&czech, r#"{"type":"place","kind":"R9"}"#));
    assert!(refused(&czech, r#"{"type":"place","kind":"Scout"}"#));
    assert!(!refused(&czech, r#"{"type":"place","kind":"Průzkumník"}"#));
    assert!(refused(&classic, r#"{"type":"place","kind":"Průzkumník"}"#));
    assert!(refused(&classic, r#"{"type":"place","kind":"Scout (2)"}"#));
    assert!(refused(&classic, r#"{"type":"place","kind":"scout"}"#));
    assert!(refused(&classic, r#"{"type":"place","kind":8}"#));
    // Who starts is drawn only in Czech.
    assert!(refused(&classic, r#"{"type":"start","player":0}"#));
    assert!(!refused(&czech, r#"{"type":"start","player":1}"#));
    assert!(refused(&czech, r#"{"type":"start","player":2}"#));
    // Squares off the board, into a lake, or moves no piece can make.
    assert!(refused(
        &classic,
        r#"{"type":"move","from":"a1","to":"k1"}"#
    ));
    assert!(refused(
        &classic,
        r#"{"type":"move","from":"a0","to":"a1"}"#
    ));
    assert!(refused(
        &classic,
        r#"{"type":"move","from":"c4","to":"c5"}"#
    ));
    assert!(refused(
        &classic,
        r#"{"type":"move","from":"a1","to":"b2"}"#
    ));
    assert!(!refused(&czech, r#"{"type":"move","from":"a1","to":"b2"}"#));
    assert!(refused(
        &srazhenie,
        r#"{"type":"move","from":"a1","to":"a3"}"#
    ));
    assert!(!refused(
        &classic,
        r#"{"type":"move","from":"a1","to":"a3"}"#
    ));
    // Unknown types and fields.
    assert!(refused(&classic, r#"{"type":"pass"}"#));
    assert!(refused(
        &classic,
        r#"{"type":"move","from":"a1","to":"a2","piece":"Scout"}"#
    ));
}

proptest! {
    #[test]
    fn arbitrary_json_never_panics(text in ".{0,80}", preset in 0usize..6) {
        let rules = Rules::presets()[preset % Rules::presets().len()].rules;
        if let Ok(wire) = serde_json::from_str::<StrategoActionStruct>(&text) {
            let _ = Stratego::action_from_struct(&rules, &wire);
        }
    }

    #[test]
    fn any_struct_read_is_an_action_of_the_space(
        kind in "[A-Za-z0-9éáš ]{0,12}",
        from in "[a-k][0-9]{1,2}",
        to in "[a-k][0-9]{1,2}",
        player in 0u8..3,
        preset in 0usize..6,
    ) {
        let rules = Rules::presets()[preset % Rules::presets().len()].rules;
        let texts = [
            serde_json::json!({"type": "place", "kind": kind}),
            serde_json::json!({"type": "move", "from": from, "to": to}),
            serde_json::json!({"type": "start", "player": player}),
        ];
        for json in texts {
            let Ok(wire) = serde_json::from_value::<StrategoActionStruct>(json) else {
                continue;
            };
            if let Some(action) = Stratego::action_from_struct(&rules, &wire) {
                prop_assert!(action.id(&rules).is_some());
                let again = Stratego::action_struct(action);
                prop_assert_eq!(Stratego::action_from_struct(&rules, &again), Some(action));
            }
        }
    }
}

fn observation_json(g: &Stratego, p: PlayerId) -> (Observation, StrategoObservationStruct, Value) {
    let o = g.observation(p);
    let s = Stratego::observation_struct(&o);
    let v = serde_json::to_value(&s).expect("an observation struct serialises");
    (o, s, v)
}

#[test]
fn observation_and_view_structs_carry_every_fact_as_safe_integers() {
    let games = env_count("WIRE_GAMES", 4);
    let mut legal = Vec::new();
    let mut seen = Seen::default();
    for Preset { name, rules, .. } in Rules::presets() {
        for seed in 0..games {
            let mut rng = GameRng::seed_from_u64(seed);
            let mut g = Stratego::new(&rules).expect("a preset is valid");
            loop {
                for p in PlayerId::BOTH {
                    let (o, s, v) = observation_json(&g, p);
                    assert_safe_integers(&v, name);
                    check_phase(&g, &s);
                    assert_eq!(observation_back(&s), o, "{name} seed {seed}: {v}");
                    seen.note(&s);
                }
                let action = match g.turn() {
                    game_traits::Turn::Terminal => break,
                    game_traits::Turn::Chance => g.sample_chance(&mut rng),
                    game_traits::Turn::Player(_) => g.sample_legal(&mut legal, &mut rng),
                }
                .expect("a live game has an action");
                for p in PlayerId::BOTH {
                    let view = g.action_view(p, action);
                    let wire = Stratego::view_struct(&view);
                    assert_safe_integers(&serde_json::to_value(&wire).expect("json"), name);
                    assert_eq!(view_back(rules.variant, &wire), view, "{name}: {action}");
                }
                g.apply(action).expect("a sampled action is legal");
            }
        }
    }
    assert_eq!(
        seen,
        Seen::everything(),
        "the playouts reach every part of the schema"
    );
}

/// Which parts of the observation struct the playouts filled, so that the
/// round trip above is known to cover them.
#[derive(Debug, Default, PartialEq)]
struct Seen {
    draw: bool,
    setup: bool,
    play: bool,
    over: bool,
    revealed_foe: bool,
    unknown_moved_foe: bool,
    ruled_out: bool,
    lost: bool,
    hidden_lost: bool,
    shuttle: bool,
    chase: bool,
}

impl Seen {
    fn everything() -> Seen {
        Seen {
            draw: true,
            setup: true,
            play: true,
            over: true,
            revealed_foe: true,
            unknown_moved_foe: true,
            ruled_out: true,
            lost: true,
            hidden_lost: true,
            shuttle: true,
            chase: true,
        }
    }

    fn note(&mut self, s: &StrategoObservationStruct) {
        match s.phase {
            WirePhase::Draw => self.draw = true,
            WirePhase::Setup { .. } => self.setup = true,
            WirePhase::Play { .. } => self.play = true,
            WirePhase::Over { .. } => self.over = true,
        }
        let foes = || s.board.iter().filter(|p| p.owner != s.viewer);
        self.revealed_foe |= foes().any(|p| p.piece.is_some());
        self.unknown_moved_foe |= foes().any(|p| p.piece.is_none() && p.moved);
        self.ruled_out |= s.board.iter().any(|p| !p.ruled_out.is_empty());
        self.lost |= s.lost.iter().any(|l| !l.is_empty());
        self.hidden_lost |= s.hidden_lost.iter().any(|l| !l.is_empty());
        self.shuttle |= s.shuttles.iter().any(Option::is_some);
        self.chase |= s.chase.is_some();
    }
}

#[test]
fn determinisation_gives_its_viewer_the_same_observation_struct() {
    let games = env_count("WIRE_GAMES", 4);
    let mut legal = Vec::new();
    for Preset { name, rules, .. } in Rules::presets() {
        for seed in 0..games {
            let mut rng = GameRng::seed_from_u64(seed);
            let mut g = Stratego::new(&rules).expect("a preset is valid");
            let mut step = 0u64;
            while !g.is_terminal() {
                if step.is_multiple_of(37) {
                    for p in PlayerId::BOTH {
                        let (o, _, v) = observation_json(&g, p);
                        let d = Stratego::determinize(&o, &mut rng).expect("determinisable");
                        let (_, _, dv) = observation_json(&d, p);
                        assert_eq!(
                            dv.to_string(),
                            v.to_string(),
                            "{name} seed {seed} step {step}"
                        );
                    }
                }
                let action = if matches!(g.turn(), game_traits::Turn::Chance) {
                    g.sample_chance(&mut rng)
                } else {
                    g.sample_legal(&mut legal, &mut rng)
                }
                .expect("a live game has an action");
                g.apply(action).expect("a sampled action is legal");
                step += 1;
            }
        }
    }
}

#[test]
fn pinned_example_of_an_early_observation() {
    let mut g = Stratego::new(&Rules::default()).expect("the default rules are valid");
    for kind in [classic::SCOUT, classic::BOMB] {
        g.apply(Action::Place(kind)).expect("a setup placement");
    }
    let s = Stratego::observation_struct(&g.observation(PlayerId::P0));
    let json = serde_json::to_string(&s).expect("an observation struct serialises");
    assert_eq!(json, PINNED);
    let shown = layout(&s);
    assert_eq!(
        serde_json::from_str::<Value>(&shown).ok(),
        serde_json::from_str(&json).ok()
    );
    let doc = include_str!("../docs/stratego.md");
    assert!(
        doc.contains(&shown),
        "docs/stratego.md shows the example as\n{shown}"
    );
}

/// The observation of the first seat after it placed a Scout and a Bomb
/// under the default rules.
const PINNED: &str = r#"{"viewer":0,"rules":{"variant":"classic","runner_soldiers":false,"long_move_attack":true,"czech_scout_steps_diagonally":true,"reveal_attacker":true,"two_square_limit":5,"two_square_partial_moves":true,"more_squares_rule":true,"no_attack_limit":null,"no_move_loses":true,"both_stuck_draw":true,"unreachable_flag_draw":false,"first_player":"seat0","max_moves":3000},"phase":{"type":"setup","player":0,"square":"c4"},"first":0,"placed":[2,0],"to_move":0,"moves":0,"no_attack":0,"army":[{"piece":"Marshal","kind":"R0","rank":10,"count":1},{"piece":"General","kind":"R1","rank":9,"count":1},{"piece":"Colonel","kind":"R2","rank":8,"count":2},{"piece":"Major","kind":"R3","rank":7,"count":3},{"piece":"Captain","kind":"R4","rank":6,"count":4},{"piece":"Lieutenant","kind":"R5","rank":5,"count":4},{"piece":"Sergeant","kind":"R6","rank":4,"count":4},{"piece":"Miner","kind":"R7","rank":3,"count":5},{"piece":"Scout","kind":"R8","rank":2,"count":8},{"piece":"Spy","kind":"R9","rank":1,"count":1},{"piece":"Bomb","kind":"MINE","rank":null,"count":6},{"piece":"Flag","kind":"FLAG","rank":null,"count":1}],"to_place":[{"piece":"Marshal","kind":"R0","rank":10,"count":1},{"piece":"General","kind":"R1","rank":9,"count":1},{"piece":"Colonel","kind":"R2","rank":8,"count":2},{"piece":"Major","kind":"R3","rank":7,"count":3},{"piece":"Captain","kind":"R4","rank":6,"count":4},{"piece":"Lieutenant","kind":"R5","rank":5,"count":4},{"piece":"Sergeant","kind":"R6","rank":4,"count":4},{"piece":"Miner","kind":"R7","rank":3,"count":5},{"piece":"Scout","kind":"R8","rank":2,"count":7},{"piece":"Spy","kind":"R9","rank":1,"count":1},{"piece":"Bomb","kind":"MINE","rank":null,"count":5},{"piece":"Flag","kind":"FLAG","rank":null,"count":1}],"board":[{"square":"a4","owner":0,"piece":"Scout","rank":2,"moved":false,"revealed":false,"ruled_out":[]},{"square":"b4","owner":0,"piece":"Bomb","rank":null,"moved":false,"revealed":false,"ruled_out":[]}],"lakes":["c6","d6","g6","h6","c5","d5","g5","h5"],"lost":[[],[]],"hidden_lost":[[],[]],"last_move":[null,null],"shuttles":[null,null],"chase":null}"#;

#[test]
fn json_schema_names_every_field_the_observation_writes() {
    let schema = game_traits::schemars::schema_for!(StrategoObservationStruct);
    let schema = serde_json::to_value(&schema).expect("a schema serialises");
    let mut named: Vec<&String> = schema["properties"]
        .as_object()
        .expect("an object schema")
        .keys()
        .collect();
    let example: Value = serde_json::from_str(PINNED).expect("the pinned JSON");
    let mut written: Vec<&String> = example.as_object().expect("an object").keys().collect();
    named.sort();
    written.sort();
    assert_eq!(named, written);
    let actions = game_traits::schemars::schema_for!(StrategoActionStruct);
    let actions = serde_json::to_string(&actions).expect("a schema serialises");
    for tag in ["start", "place", "move"] {
        assert!(
            actions.contains(&format!("\"const\":\"{tag}\"")),
            "{tag}: {actions}"
        );
    }
}

#[test]
fn the_kit_checks_the_wire_forms_of_every_preset() {
    for Preset { name, rules, .. } in Rules::presets() {
        eprintln!("{name}");
        check_wire::<Stratego>(&rules, env_count("CONFORMANCE_GAMES", 30).min(4));
    }
}
