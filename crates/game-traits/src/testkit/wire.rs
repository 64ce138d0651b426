//! The kit's checks of a game's wire forms ([`Wire`]): what every game
//! promises its clients, checked the same way for all of them.

use rand::SeedableRng;
use serde_json::Value;

use crate::RuleSet;
use crate::{chance_rng, Game, GameRng, PlayerId, Turn, Wire, MAX_SAFE_INTEGER};

/// Asserts that every number in `value` is an integer of at most
/// [`MAX_SAFE_INTEGER`] in magnitude: no JSON reader rounds it, and no
/// engine bit set slipped onto the wire. `context` names the place in the
/// panic message.
pub fn assert_safe_integers(value: &Value, context: &str) {
    match value {
        Value::Number(n) => {
            let safe = n.as_u64().is_some_and(|x| x <= MAX_SAFE_INTEGER)
                || n.as_i64()
                    .is_some_and(|x| x.unsigned_abs() <= MAX_SAFE_INTEGER);
            assert!(safe, "{context}: {n} is no safe integer");
        }
        Value::Array(items) => items.iter().for_each(|x| assert_safe_integers(x, context)),
        Value::Object(map) => map.values().for_each(|x| assert_safe_integers(x, context)),
        _ => {}
    }
}

fn json<T: serde::Serialize>(value: &T, context: &str) -> Value {
    serde_json::to_value(value).unwrap_or_else(|e| panic!("{context}: not serialisable: {e}"))
}

/// Plays `games` seeded random games of `G` under `rules` and checks, at
/// every step: every legal action's struct reads back to the action
/// through JSON; both seats' observation structs and the views of the
/// action played hold only safe integers; and a determinisation of a
/// seat's observation gives that seat the identical observation struct
/// (the struct says nothing the seat cannot know). And first, that the
/// glossary of `rules` names each code of a group once, by a name that is
/// not empty (a screen looks a code up by its group and code).
///
/// ```
/// use game_traits::kuhn::KuhnPoker;
/// game_traits::testkit::check_wire::<KuhnPoker>(&Default::default(), 20);
/// ```
pub fn check_wire<G: Game + Wire>(rules: &G::Rules, games: u64) {
    let glossary = G::glossary(rules);
    for (i, term) in glossary.iter().enumerate() {
        assert!(
            !term.name.is_empty() && !term.code.is_empty(),
            "{}: glossary entry {term:?} unnamed",
            G::NAME
        );
        assert!(
            !glossary[..i]
                .iter()
                .any(|t| t.group == term.group && t.code == term.code),
            "{}: the glossary names {} {} twice",
            G::NAME,
            term.group,
            term.code
        );
    }
    let mut legal = Vec::new();
    for seed in 0..games {
        let mut state = G::new(rules).unwrap_or_else(|e| panic!("{}: rules refused: {e}", G::NAME));
        let mut chance = chance_rng(seed);
        let mut pick = GameRng::seed_from_u64(seed ^ 0x5EED);
        let mut det = GameRng::seed_from_u64(seed ^ 0xDE7);
        for step in 0..rules.max_game_length() {
            let at = format!("{} seed {seed} step {step}", G::NAME);
            for viewer in PlayerId::BOTH {
                let observation = state.observation(viewer);
                let wire = json(&G::observation_struct(&observation), &at);
                assert_safe_integers(&wire, &at);
                if step % 7 == 0 {
                    let twin = G::determinize(&observation, &mut det)
                        .unwrap_or_else(|e| panic!("{at}: determinisation refused: {e}"));
                    let seen = json(&G::observation_struct(&twin.observation(viewer)), &at);
                    assert!(
                        seen == wire,
                        "{at}: {viewer}'s struct depends on what he cannot see"
                    );
                }
            }
            let action = match state.turn() {
                Turn::Terminal => break,
                Turn::Chance => state.sample_chance(&mut chance),
                Turn::Player(_) => {
                    state.legal_actions(&mut legal);
                    for &a in &legal {
                        let text = serde_json::to_string(&G::action_struct(a))
                            .unwrap_or_else(|e| panic!("{at}: {a} not serialisable: {e}"));
                        let read: G::ActionStruct = serde_json::from_str(&text)
                            .unwrap_or_else(|e| panic!("{at}: {text} does not read back: {e}"));
                        assert_eq!(G::action_from_struct(rules, &read), Some(a), "{at}: {text}");
                    }
                    state.sample_legal(&mut legal, &mut pick)
                }
            };
            let Some(action) = action else {
                panic!("{at}: nothing to play")
            };
            for viewer in PlayerId::BOTH {
                let view = json(&G::view_struct(&state.action_view(viewer, action)), &at);
                assert_safe_integers(&view, &at);
            }
            state.apply_unchecked(action);
        }
    }
}
