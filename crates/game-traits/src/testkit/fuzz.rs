//! Fuzz bodies for any game: each takes arbitrary bytes, and panics (which
//! a fuzzer reports as a finding) only when the engine panics, accepts
//! something that then breaks a contract, or applies an illegal action.
//! The `fuzz/` targets of the workspace call these.

use rand::SeedableRng;

use crate::{Game, GameRng, Record};

use super::tamper::check_accepted;
use crate::RuleSet;

/// A generator seeded from the input, so a finding reproduces.
fn rng_of(data: &[u8]) -> GameRng {
    let seed = data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    GameRng::seed_from_u64(seed)
}

fn hold(what: &str, result: Result<(), String>) {
    if let Err(e) = result {
        panic!("accepted {what} breaks a contract: {e}");
    }
}

/// `data` as a serialised state: refused, or held to the whole contract.
pub fn state<G: Game>(data: &[u8]) {
    if let Ok(state) = serde_json::from_slice::<G>(data) {
        hold("state", check_accepted(state, &mut rng_of(data)));
    }
}

/// `data` as a serialised observation: refused (by deserialisation or by
/// determinisation), or its determinisation held to the whole contract.
pub fn observation<G: Game>(data: &[u8]) {
    if let Ok(obs) = serde_json::from_slice::<G::Observation>(data) {
        let _ = obs.to_string();
        let mut rng = rng_of(data);
        if let Ok(state) = G::determinize(&obs, &mut rng) {
            hold("observation", check_accepted(state, &mut rng));
        }
    }
}

/// `data` as a serialised record: refused, or its replay held to the whole
/// contract.
pub fn record<G: Game>(data: &[u8]) {
    if let Ok(record) = serde_json::from_slice::<Record<G>>(data) {
        if let Ok(state) = record.replay() {
            hold("record", check_accepted(state, &mut rng_of(data)));
        }
    }
}

/// `data` as serialised rules: refused by deserialisation or by the
/// engine, or a new game under them held to the whole contract.
pub fn rules<G: Game>(data: &[u8]) {
    if let Ok(rules) = serde_json::from_slice::<G::Rules>(data) {
        let _ = (
            rules.max_game_length(),
            rules.action_space(),
            G::info(&rules),
        );
        if let Ok(state) = G::new(&rules) {
            hold("rules", check_accepted(state, &mut rng_of(data)));
        }
    }
}

/// `data` as a sequence of action ids (two bytes each) sent to a new game
/// under `rules`: legal ones are played, illegal ones must be refused with
/// the state unchanged.
pub fn actions<G: Game>(rules: &G::Rules, data: &[u8]) {
    let Ok(mut state) = G::new(rules) else {
        return;
    };
    let space = rules.action_space();
    for pair in data.chunks(2) {
        let id = usize::from(pair[0]) | usize::from(*pair.get(1).unwrap_or(&0)) << 8;
        let Some(action) = rules.action_from_id(id % space.max(1)) else {
            continue;
        };
        let before = state.clone();
        let legal = state.is_legal(action);
        match state.apply(action) {
            Ok(()) => assert!(legal, "{action} applied though is_legal refused it"),
            Err(_) => {
                assert!(!legal, "{action} refused though is_legal accepted it");
                assert!(state == before, "refused {action} changed the state");
            }
        }
    }
    hold("action sequence", check_accepted(state, &mut rng_of(data)));
}

/// `data` as any of the above, by its first byte: 0 a state, 1 an
/// observation, 2 a record, 3 rules, anything else action ids on a game
/// under the default rules. What each `fuzz/` target runs.
pub fn any<G: Game>(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    match mode % 5 {
        0 => state::<G>(rest),
        1 => observation::<G>(rest),
        2 => record::<G>(rest),
        3 => rules::<G>(rest),
        _ => actions::<G>(&Default::default(), rest),
    }
}
