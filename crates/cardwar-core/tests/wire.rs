//! The wire schema of card war: actions read back from their structs,
//! codes outside the rules refused, observations and views as JSON whose
//! numbers every reader keeps exact and which carry every fact of the
//! observation, determinisations that give the viewer the same JSON, and a
//! pinned example (shown in docs/cardwar.md).

mod common;

use std::collections::BTreeSet;

use cardwar_core::game_traits::testkit::{assert_safe_integers, check_wire, env_count};
use cardwar_core::game_traits::Wire;
use cardwar_core::rand::SeedableRng;
use cardwar_core::{
    Action, ActionView, CardCode, CardSet, CardWar, CardWarActionStruct, CardWarObservationStruct,
    CardWarViewStruct, Game, GameRng, Observation, Open, Phase, PlayerId, Rules, Turn,
    ACTION_SPACE,
};
use game_traits::Preset;
use game_traits::RuleSet;
use proptest::prelude::*;
use serde_json::{json, Value};

/// Every preset, and every switch flipped (states the presets rarely
/// reach: bombs on the hand, guards sniped).
fn rule_sets() -> Vec<(String, Rules)> {
    let mut sets: Vec<(String, Rules)> = Rules::presets()
        .into_iter()
        .map(|p| (p.name.to_owned(), p.rules))
        .collect();
    sets.push((
        "every_switch_flipped".into(),
        common::every_switch_flipped(),
    ));
    sets
}

/// `CamelCase` as `snake_case`: the wire's tag of a type's variant, from
/// its `Debug` name.
fn snake(camel: &str) -> String {
    let mut out = String::new();
    for (i, ch) in camel.chars().enumerate() {
        if ch.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(ch.to_ascii_lowercase());
    }
    out
}

/// The variant name of a value's `Debug` form, as the wire tags it.
fn tag_of(value: &impl std::fmt::Debug) -> String {
    let debug = format!("{value:?}");
    let name: String = debug
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    snake(&name)
}

/// The set a list of codes names, checked to be in id order without
/// repeats (as the schema promises).
fn set_of(codes: &[CardCode]) -> CardSet {
    let cards: Vec<_> = codes
        .iter()
        .map(|c| c.soldier().unwrap_or_else(|| panic!("{c} is no soldier")))
        .collect();
    assert!(
        cards.windows(2).all(|w| w[0] < w[1]),
        "{codes:?} not in id order"
    );
    cards.into_iter().collect()
}

fn seat(json: &Value) -> Option<PlayerId> {
    json.as_u64().and_then(|i| PlayerId::from_index(i as usize))
}

/// Asserts that the struct (and its JSON) carries every fact of `obs`.
fn assert_carries(obs: &Observation, s: &CardWarObservationStruct, json: &Value) {
    let p = obs.public();
    let b = &p.battle;
    assert_eq!(s.viewer, obs.viewer());
    let rules: Rules = serde_json::from_value(json["rules"].clone()).unwrap();
    assert_eq!(&rules, obs.rules());
    assert_eq!(
        (s.round, s.battle, s.moves, s.swapped),
        (p.round, p.battle_no, p.moves, p.swapped)
    );
    assert_eq!((s.first_attacker, s.attacker), (p.first, b.attacker));
    assert_eq!(s.last_attacker, p.last_attacker);
    assert_eq!(s.initiative, p.initiative.into_array());
    assert_eq!(s.attack_die, b.attack_die);

    // The phase: its tag and every field it has.
    let phase = &json["phase"];
    assert_eq!(phase["type"], json!(tag_of(&p.phase)), "{:?}", p.phase);
    let (player, left) = match p.phase {
        Phase::Aside { colour, left } => (Some(colour), Some(left)),
        Phase::Draw { player, left } | Phase::Reinforce { player, left } => {
            (Some(player), Some(left))
        }
        Phase::Lay { player, kind, left } => {
            assert_eq!(phase["line"], json!(tag_of(&kind)));
            (Some(player), Some(left))
        }
        Phase::DrawRoll { player }
        | Phase::Pray { player }
        | Phase::PrayerRoll { player }
        | Phase::ParatrooperRoll { player } => (Some(player), None),
        Phase::Initiative { first_die } => {
            assert_eq!(phase["first_die"], json!(first_die));
            (None, None)
        }
        Phase::AttackDie | Phase::DefenceDie | Phase::Over => (None, None),
    };
    assert_eq!(seat(&phase["player"]), player);
    assert_eq!(phase["left"].as_u64(), left.map(u64::from));
    let deciding = matches!(p.phase, Phase::Lay { .. } | Phase::Pray { .. });
    assert_eq!(s.to_move, player.filter(|_| deciding));

    match (b.last_fight, s.last_fight) {
        (None, None) => {}
        (Some(f), Some(w)) => assert_eq!(
            (f.attack_die, f.attack_total, f.defence_die, f.defence_total),
            (w.attack_die, w.attack_total, w.defence_die, w.defence_total)
        ),
        other => panic!("last fight {other:?}"),
    }
    match (b.last_prayer, s.last_prayer) {
        (None, None) => {}
        (Some((who, prayer)), Some(w)) => {
            assert_eq!((who, prayer.sum()), (w.player, w.sum));
            assert_eq!(json["last_prayer"]["result"], json!(tag_of(&prayer)));
        }
        other => panic!("last prayer {other:?}"),
    }
    let winner = p.outcome.and_then(|o| o.winner());
    assert_eq!(seat(&json["outcome"]["winner"]), winner);
    assert_eq!(s.outcome.is_some(), p.outcome.is_some());

    for seat in PlayerId::BOTH {
        let (side, w) = (&p.sides[seat], &s.sides[seat.index()]);
        assert_eq!(
            (w.hand, w.aside, w.pile),
            (side.hand, side.aside, side.pile)
        );
        assert_eq!((w.guards, w.prayed), (side.guards, side.prayed));
        let open = match b.open[seat] {
            Open::Guard(g) => g.to_string(),
            other => tag_of(&other),
        };
        assert_eq!(json["sides"][seat.index()]["open"], json!(open));
        let (f, pending) = (b.fighter[seat], b.pending[seat]);
        assert_eq!(
            (w.kills, w.doubled, w.halved),
            (f.kills, f.doubled, f.halved)
        );
        assert_eq!(
            (w.pending_add, w.pending_doubled),
            (pending.add, pending.doubled)
        );
        assert_eq!(w.asked, b.asked[seat]);
        let slots = side.line.slots();
        assert_eq!(w.line.len(), slots.len());
        for (slot, ws) in slots.iter().zip(&w.line) {
            assert_eq!(ws.card.as_ref().and_then(CardCode::soldier), slot.card);
            assert_eq!(ws.card.is_some(), slot.card.is_some());
            assert_eq!(
                (ws.health, ws.extra, ws.from_pile),
                (slot.health, slot.extra, slot.from_pile)
            );
        }
        assert_eq!(set_of(&w.donors), side.donors);
        assert_eq!(set_of(&w.known_alive), side.known_alive);
        assert_eq!(set_of(&w.known_aside), side.known_aside);
        assert_eq!(set_of(&w.known_pile), side.known_pile);
        assert_eq!(set_of(&w.pile_or_drawn), side.pile_or_drawn);
        assert_eq!(
            (w.unseen_in_pile, w.draw_roll, w.paratroopers),
            (side.unseen_in_pile, side.draw_roll, side.paratroopers)
        );
    }

    let own = obs.own();
    assert_eq!(set_of(&s.own.hand), own.hand);
    assert_eq!(set_of(&s.own.aside), own.aside);
    assert_eq!(set_of(&s.own.pile), own.pile);
    let len = p.sides[obs.viewer()].line.len();
    let line: Vec<_> = s.own.line.iter().map(CardCode::soldier).collect();
    let expected: Vec<_> = own.line[..len].iter().copied().map(Some).collect();
    assert_eq!(line, expected);
}

/// Asserts that a view's struct names the card exactly where the view
/// does, under the view's tag.
fn assert_view_carries(view: &ActionView, json: &Value) {
    assert_eq!(json["type"], json!(tag_of(view)), "{view:?}");
    match *view {
        ActionView::Lay { player, card, .. }
        | ActionView::PutAside { player, card }
        | ActionView::Drew { player, card }
        | ActionView::Reinforcement { player, card } => {
            assert_eq!(seat(&json["player"]), Some(player));
            assert!(
                json.get("card").is_some(),
                "{json}: the card must be present, null when hidden"
            );
            assert_eq!(json["card"], json!(card.map(|c| c.to_string())), "{view:?}");
        }
        ActionView::EndLine { player }
        | ActionView::Pray { player }
        | ActionView::Decline { player } => assert_eq!(seat(&json["player"]), Some(player)),
        ActionView::Die(d) => assert_eq!(json["value"], json!(d)),
        ActionView::Dice(s) => assert_eq!(json["sum"], json!(s)),
        ActionView::Unfit(a) => assert_eq!(
            json["action"],
            serde_json::to_value(CardWar::action_struct(a)).unwrap()
        ),
    }
}

#[test]
fn action_struct_round_trips_every_action() {
    for (name, rules) in rule_sets() {
        let space = rules.action_space();
        assert_eq!(space, ACTION_SPACE);
        for id in 0..space {
            let action = rules.action_from_id(id).unwrap();
            let json = serde_json::to_string(&CardWar::action_struct(action)).unwrap();
            let back: CardWarActionStruct = serde_json::from_str(&json).unwrap();
            assert_eq!(
                CardWar::action_from_struct(&rules, &back),
                Some(action),
                "{name}: {json}"
            );
        }
    }
}

#[test]
fn action_structs_name_cards_by_their_codes() {
    let cases = [
        (
            Action::Place("10a".parse().unwrap()),
            r#"{"type":"place","card":"10a"}"#,
        ),
        (Action::EndLine, r#"{"type":"end_line"}"#),
        (Action::Pray, r#"{"type":"pray"}"#),
        (Action::Decline, r#"{"type":"decline"}"#),
        (Action::Die(6), r#"{"type":"die","value":6}"#),
        (Action::Dice(2), r#"{"type":"dice","sum":2}"#),
        (
            Action::Draw("Kb".parse().unwrap()),
            r#"{"type":"draw","card":"Kb"}"#,
        ),
    ];
    for (action, expected) in cases {
        let json = serde_json::to_string(&CardWar::action_struct(action)).unwrap();
        assert_eq!(json, expected);
    }
}

#[test]
fn codes_and_rolls_outside_the_rules_are_refused() {
    let rules = Rules::default();
    let refused = [
        json!({"type": "place", "card": "1a"}),
        json!({"type": "place", "card": "Ac"}),
        json!({"type": "place", "card": "Ka "}),
        json!({"type": "place", "card": "kb"}),
        json!({"type": "place", "card": "11a"}),
        json!({"type": "draw", "card": "Jk"}),
        json!({"type": "draw", "card": "A1"}),
        json!({"type": "draw", "card": ""}),
        json!({"type": "die", "value": 0}),
        json!({"type": "die", "value": 7}),
        json!({"type": "dice", "sum": 1}),
        json!({"type": "dice", "sum": 13}),
    ];
    for value in refused {
        let action: CardWarActionStruct = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(
            CardWar::action_from_struct(&rules, &action),
            None,
            "{value}"
        );
    }
    // Malformed structs do not even read.
    let unreadable = [
        json!({"type": "place"}),
        json!({"type": "place", "card": 7}),
        json!({"type": "place", "card": "7a", "flag": 1}),
        json!({"type": "die", "value": 256}),
        json!({"type": "die", "value": -1}),
        json!({"type": "dice", "sum": 1.5}),
        json!({"type": "fold"}),
        json!({"card": "7a"}),
        json!("pray"),
    ];
    for value in unreadable {
        assert!(
            serde_json::from_value::<CardWarActionStruct>(value.clone()).is_err(),
            "{value}"
        );
    }
}

/// The action a text names, if it reads; a named action must write back
/// as the very struct it was read from.
fn check_text(text: &str) -> Result<(), TestCaseError> {
    if let Ok(action) = serde_json::from_str::<CardWarActionStruct>(text) {
        if let Some(a) = CardWar::action_from_struct(&Rules::default(), &action) {
            prop_assert_eq!(CardWar::action_struct(a), action);
            prop_assert!(a.id() < ACTION_SPACE);
        }
    }
    Ok(())
}

proptest! {
    #[test]
    fn arbitrary_json_never_panics(text in "\\PC*") {
        check_text(&text)?;
    }

    #[test]
    fn arbitrary_fields_never_panic(
        kind in prop::sample::select(vec!["place", "draw", "die", "dice", "pray", "end_line"]),
        card in "[0-9JQKAakbc]{0,3}",
        number in any::<i64>(),
    ) {
        let (card_field, number_field) = (json!(card), json!(number));
        for value in [
            json!({"type": kind, "card": card_field}),
            json!({"type": kind, "value": number_field}),
            json!({"type": kind, "sum": number_field}),
            json!({"type": kind}),
        ] {
            check_text(&value.to_string())?;
        }
    }
}

/// Plays seeded random games of every rule set, calling `visit` on each
/// state before its action.
fn along_playouts(games: u64, mut visit: impl FnMut(&CardWar, Action, &mut GameRng)) {
    for (set, (_, rules)) in rule_sets().iter().enumerate() {
        for g in 0..games {
            let mut rng = GameRng::seed_from_u64(1000 * set as u64 + g);
            let mut state = CardWar::new(rules).unwrap();
            let mut legal = Vec::new();
            loop {
                let action = match state.turn() {
                    Turn::Terminal => break,
                    Turn::Chance => state.sample_chance(&mut rng),
                    Turn::Player(_) => state.sample_legal(&mut legal, &mut rng),
                }
                .expect("a live state has an action");
                visit(&state, action, &mut rng);
                state.apply_unchecked(action);
            }
            visit_end(&state);
        }
    }
}

/// The final observations too.
fn visit_end(state: &CardWar) {
    for viewer in PlayerId::BOTH {
        check_observation(&state.observation(viewer));
    }
}

fn check_observation(obs: &Observation) -> String {
    let s = CardWar::observation_struct(obs);
    let json = serde_json::to_value(&s).unwrap();
    assert_safe_integers(&json, "observation");
    assert_carries(obs, &s, &json);
    serde_json::to_string(&s).unwrap()
}

#[test]
fn observation_and_view_structs_carry_every_fact_in_safe_integers() {
    // At least the 20 games that reach every prayer (the rarest, the
    // atomic bomb, is one roll in many): fewer could not meet the coverage
    // asserted below.
    let games = env_count("WIRE_GAMES", 20).max(20);
    // What the games reached, so that the checks above cannot pass by
    // never meeting a prayer, a hidden card or a phase.
    let mut seen = BTreeSet::new();
    along_playouts(games, |state, action, _| {
        seen.insert(format!("phase {}", tag_of(&state.phase())));
        for viewer in PlayerId::BOTH {
            let obs = state.observation(viewer);
            check_observation(&obs);
            if let Some((_, prayer)) = obs.public().battle.last_prayer {
                seen.insert(format!("prayer {}", tag_of(&prayer)));
            }
            let view = state.action_view(viewer, action);
            let json = serde_json::to_value(CardWar::view_struct(&view)).unwrap();
            assert_safe_integers(&json, "view");
            assert_view_carries(&view, &json);
            let hidden = json.get("card").is_some_and(Value::is_null);
            seen.insert(format!("view {} hidden {hidden}", json["type"]));
        }
    });
    let phases = "aside initiative draw_roll draw lay pray prayer_roll reinforce \
                  paratrooper_roll attack_die defence_die";
    let prayers = "grin sniper paratroopers atomic_bomb";
    let hiding = "lay put_aside drew reinforcement";
    let open = "end_line pray decline die dice";
    let tags = (phases.split_whitespace().map(|t| format!("phase {t}")))
        .chain(prayers.split_whitespace().map(|t| format!("prayer {t}")))
        .chain(
            hiding
                .split_whitespace()
                .flat_map(|t| [true, false].map(|hidden| format!("view \"{t}\" hidden {hidden}"))),
        )
        .chain(
            open.split_whitespace()
                .map(|t| format!("view \"{t}\" hidden false")),
        );
    for tag in tags {
        assert!(
            seen.contains(&tag),
            "the playouts never reached {tag}: {seen:?}"
        );
    }
}

#[test]
fn unfit_actions_are_shown_as_given() {
    let game = CardWar::new(&Rules::default()).unwrap();
    let view = game.action_view(PlayerId::P0, Action::Pray);
    assert_eq!(view, ActionView::Unfit(Action::Pray));
    let json = serde_json::to_string(&CardWar::view_struct(&view)).unwrap();
    assert_eq!(json, r#"{"type":"unfit","action":{"type":"pray"}}"#);
}

#[test]
fn view_structs_hide_the_opponents_card() {
    // Setup: P0's first card goes into his pile, face down.
    let game = CardWar::new(&Rules::default()).unwrap();
    let card = "7b".parse().unwrap();
    let shown = |viewer| {
        serde_json::to_string(&CardWar::view_struct(
            &game.action_view(viewer, Action::Draw(card)),
        ))
        .unwrap()
    };
    assert_eq!(
        shown(PlayerId::P0),
        r#"{"type":"put_aside","player":0,"card":"7b"}"#
    );
    assert_eq!(
        shown(PlayerId::P1),
        r#"{"type":"put_aside","player":0,"card":null}"#
    );
}

#[test]
fn a_determinisation_gives_the_viewer_the_same_observation_struct() {
    let games = env_count("WIRE_GAMES", 20) / 4 + 1;
    let mut step = 0u64;
    along_playouts(games, |state, _, rng| {
        step += 1;
        if !step.is_multiple_of(7) {
            return;
        }
        for viewer in PlayerId::BOTH {
            let obs = state.observation(viewer);
            let json = check_observation(&obs);
            let dealt = CardWar::determinize(&obs, rng).unwrap();
            let again =
                serde_json::to_string(&CardWar::observation_struct(&dealt.observation(viewer)))
                    .unwrap();
            assert_eq!(again, json, "determinisation of {viewer}'s observation");
        }
    });
}

/// The observation of the pinned example: default rules, seed 1, the
/// first attacker's opponent once three cards of the attack are laid.
fn pinned_observation() -> Observation {
    let mut rng = GameRng::seed_from_u64(1);
    let mut state = CardWar::new(&Rules::default()).unwrap();
    let mut legal = Vec::new();
    while state.public().moves < 3 {
        let action = match state.turn() {
            Turn::Chance => state.sample_chance(&mut rng),
            _ => state.sample_legal(&mut legal, &mut rng),
        }
        .unwrap();
        state.apply_unchecked(action);
    }
    let Turn::Player(attacker) = state.turn() else {
        panic!("the attacker lays on")
    };
    state.observation(attacker.other())
}

const PINNED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/golden/wire_observation.json"
);

#[test]
fn pinned_observation_struct_of_the_default_rules() {
    let s = CardWar::observation_struct(&pinned_observation());
    let json = serde_json::to_string_pretty(&s).unwrap() + "\n";
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(PINNED, &json).unwrap();
    }
    let pinned = std::fs::read_to_string(PINNED).unwrap();
    assert_eq!(
        json, pinned,
        "the wire schema changed: update {PINNED} (UPDATE_GOLDEN=1) and the docs"
    );
}

#[test]
fn the_rules_document_shows_the_pinned_observation() {
    let doc = include_str!("../docs/cardwar.md");
    let section = doc
        .split("### Wire format")
        .nth(1)
        .expect("docs/cardwar.md has a section \"Wire format\"");
    let block = section
        .split("```json\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("the section shows a JSON example");
    let shown: Value = serde_json::from_str(block).unwrap();
    let pinned: Value =
        serde_json::to_value(CardWar::observation_struct(&pinned_observation())).unwrap();
    assert_eq!(shown, pinned);
    // Every field of the observation is listed by name.
    for key in pinned.as_object().unwrap().keys() {
        assert!(
            section.contains(&format!("`{key}`")),
            "the section lists `{key}`"
        );
    }
    for key in pinned["sides"][0].as_object().unwrap().keys() {
        assert!(
            section.contains(&format!("`{key}`")),
            "the section lists `{key}`"
        );
    }
}

#[test]
fn the_json_schema_names_every_field_of_the_observation() {
    use cardwar_core::game_traits::schemars::{generate::SchemaSettings, schema_for, JsonSchema};
    let generator = SchemaSettings::default().for_serialize().into_generator();
    let schema = generator.into_root_schema_for::<CardWarObservationStruct>();
    let schema = serde_json::to_value(&schema).unwrap();
    if std::env::var_os("PRINT_SCHEMA").is_some() {
        println!("{}", serde_json::to_string_pretty(&schema).unwrap());
    }
    let pinned = serde_json::to_value(CardWar::observation_struct(&pinned_observation())).unwrap();
    let keys = |v: &Value| -> BTreeSet<String> { v.as_object().unwrap().keys().cloned().collect() };
    assert_eq!(keys(&schema["properties"]), keys(&pinned));
    let defs = &schema["$defs"];
    assert_eq!(
        keys(&defs["CardWarSide"]["properties"]),
        keys(&pinned["sides"][0])
    );
    assert_eq!(
        keys(&defs["CardWarRules"]["properties"]),
        keys(&pinned["rules"])
    );
    let codes = defs[CardCode::schema_name().as_ref()]["enum"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(codes, cardwar_core::SOLDIERS);
    // Actions are read: their schema is the reading one, a variant for
    // each kind of action.
    let actions = serde_json::to_value(schema_for!(CardWarActionStruct)).unwrap();
    assert_eq!(actions["oneOf"].as_array().unwrap().len(), 7);
    let views = serde_json::to_value(schema_for!(CardWarViewStruct)).unwrap();
    assert_eq!(views["oneOf"].as_array().unwrap().len(), 10);
}

#[test]
fn the_kit_checks_the_wire_forms_of_every_preset() {
    for Preset { name, rules, .. } in Rules::presets() {
        eprintln!("{name}");
        check_wire::<CardWar>(&rules, env_count("CONFORMANCE_GAMES", 30).min(10));
    }
}
