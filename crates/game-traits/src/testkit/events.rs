//! The kit's checks of a game's events ([`Wire::events`]): what every
//! game promises the clients that read them and the screens that word
//! them.

use std::collections::{BTreeMap, BTreeSet};

use rand::SeedableRng;
use serde_json::Value;

use super::wire::assert_safe_integers;
use crate::RuleSet;
use crate::{chance_rng, tell_all, Game, GameRng, PlayerId, Turn, Wire};

/// The kinds of `G`'s events, read from their JSON Schema (each variant's
/// `"kind"` tag).
pub fn event_kinds<G: Wire>() -> BTreeSet<String> {
    fn collect(value: &Value, out: &mut BTreeSet<String>) {
        match value {
            Value::Object(map) => {
                if let Some(kind) = map.get("properties").and_then(|p| p.get("kind")) {
                    let consts = kind.get("const").into_iter();
                    let listed = kind
                        .get("enum")
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten();
                    out.extend(
                        consts
                            .chain(listed)
                            .filter_map(Value::as_str)
                            .map(str::to_owned),
                    );
                }
                map.values().for_each(|v| collect(v, out));
            }
            Value::Array(items) => items.iter().for_each(|v| collect(v, out)),
            _ => {}
        }
    }
    let schema =
        serde_json::to_value(schemars::schema_for!(G::Event)).expect("a JSON Schema is JSON");
    let mut kinds = BTreeSet::new();
    collect(&schema, &mut kinds);
    kinds
}

/// Plays `games` seeded random games of `G` under `rules` (chance as
/// [`chance_rng`] draws it, decisions uniformly at random) and calls
/// `visit` with every state, the action played in it and the state after
/// it: the walk the event checks, and each game's own tests of its
/// events' fields, go through.
pub fn random_steps<G: Game>(
    rules: &G::Rules,
    games: u64,
    mut visit: impl FnMut(&G, G::Action, &G),
) {
    let mut legal = Vec::new();
    for seed in 0..games {
        let mut state = G::new(rules).unwrap_or_else(|e| panic!("{}: rules refused: {e}", G::NAME));
        let mut chance = chance_rng(seed);
        let mut pick = GameRng::seed_from_u64(seed ^ 0x5EED);
        for _ in 0..rules.max_game_length() {
            let action = match state.turn() {
                Turn::Terminal => break,
                Turn::Chance => state.sample_chance(&mut chance),
                Turn::Player(_) => state.sample_legal(&mut legal, &mut pick),
            };
            let Some(action) = action else {
                panic!("{} seed {seed}: nothing to play", G::NAME)
            };
            let mut next = state.clone();
            next.apply_unchecked(action);
            visit(&state, action, &next);
            state = next;
        }
    }
}

/// `action`, played in `state` (giving `next`), as events told to
/// `viewer`: what a server sends him.
pub fn events_of<G: Wire>(
    state: &G,
    action: G::Action,
    next: &G,
    viewer: PlayerId,
) -> Vec<G::Event> {
    G::events(
        viewer,
        &state.observation(viewer),
        &state.action_view(viewer, action),
        &next.observation(viewer),
    )
}

/// Plays `games` seeded random games of `G` under `rules`
/// ([`random_steps`]) and checks, for both viewers of every action: each
/// event is a JSON object whose `"kind"` is one of [`event_kinds`],
/// holding safe integers only; the action's narration is exactly its
/// events' words ([`tell_all`]: one wording); and, every few steps, on a
/// determinisation of the viewer's observation where the same action is
/// legal, the events differ only if the action leaves the viewer with a
/// different observation (events tell nothing he cannot see). Returns the
/// kinds seen, for the game's own test to compare with [`event_kinds`].
///
/// ```
/// use game_traits::kuhn::KuhnPoker;
/// use game_traits::testkit::{check_events, event_kinds};
/// let seen = check_events::<KuhnPoker>(&Default::default(), 20);
/// assert_eq!(seen, event_kinds::<KuhnPoker>());
/// ```
pub fn check_events<G: Game + Wire>(rules: &G::Rules, games: u64) -> BTreeSet<String> {
    let kinds = event_kinds::<G>();
    assert!(
        !kinds.is_empty(),
        "{}: events have no \"kind\" tag",
        G::NAME
    );
    let mut seen = BTreeSet::new();
    let mut det = GameRng::seed_from_u64(0xE7E);
    let mut step = 0u64;
    random_steps::<G>(rules, games, |state, action, next| {
        step += 1;
        let at = format!("{} step {step} ({action})", G::NAME);
        for viewer in PlayerId::BOTH {
            let before = state.observation(viewer);
            let view = state.action_view(viewer, action);
            let after = next.observation(viewer);
            let events = G::events(viewer, &before, &view, &after);
            assert_eq!(
                G::narrate(viewer, &before, &view, &after),
                tell_all(&events, Some(viewer)),
                "{at}: {viewer}'s narration is not the words of his events"
            );
            for event in &events {
                let json = serde_json::to_value(event)
                    .unwrap_or_else(|e| panic!("{at}: {event:?} not serialisable: {e}"));
                assert_safe_integers(&json, &at);
                match json.get("kind").and_then(Value::as_str) {
                    Some(k) if kinds.contains(k) => seen.insert(k.to_owned()),
                    _ => panic!("{at}: {json} has no kind of {kinds:?}"),
                };
            }
            if step.is_multiple_of(5) {
                let twin = G::determinize(&before, &mut det)
                    .unwrap_or_else(|e| panic!("{at}: determinisation refused: {e}"));
                if twin.is_legal(action) {
                    let mut twin_next = twin.clone();
                    twin_next.apply_unchecked(action);
                    let twin_events = events_of(&twin, action, &twin_next, viewer);
                    assert!(
                        twin_events == events || twin_next.observation(viewer) != after,
                        "{at}: {viewer}'s events depend on what he cannot see: \
                         {events:?} against {twin_events:?}"
                    );
                }
            }
        }
    });
    seen
}

/// Plays `games` seeded random games of `G` under `rules`
/// ([`random_steps`]) and checks, for both viewers of every action whose
/// view struct ([`Wire::view_struct`]) is tagged by one of `kinds`: its
/// first event has that kind and exactly the view's other fields, so that
/// a client reads the two with one type. Returns how many views of each
/// kind were checked.
pub fn check_events_are_their_views<G: Game + Wire>(
    rules: &G::Rules,
    games: u64,
    kinds: &[&str],
) -> BTreeMap<String, usize> {
    let mut checked = BTreeMap::new();
    random_steps::<G>(rules, games, |state, action, next| {
        for viewer in PlayerId::BOTH {
            let view = G::view_struct(&state.action_view(viewer, action));
            let Ok(Value::Object(mut view)) = serde_json::to_value(view) else {
                panic!("{}: {action}'s view is not a JSON object", G::NAME)
            };
            let Some(Value::String(kind)) = view.remove("type") else {
                continue;
            };
            if !kinds.contains(&kind.as_str()) {
                continue;
            }
            let events = events_of(state, action, next, viewer);
            let first = events.first().map(serde_json::to_value);
            let Some(Ok(Value::Object(mut event))) = first else {
                panic!("{}: {action} told to {viewer} as {events:?}", G::NAME)
            };
            assert_eq!(
                event.remove("kind"),
                Some(Value::String(kind.clone())),
                "{}: {action}",
                G::NAME
            );
            assert_eq!(event, view, "{}: {action} told to {viewer}", G::NAME);
            *checked.entry(kind).or_insert(0) += 1;
        }
    });
    checked
}
