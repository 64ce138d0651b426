//! Tampering: serialised states, observations and records with a value
//! changed must be refused or give a state the engine can play on; they must
//! never make it panic.

use std::panic::{catch_unwind, AssertUnwindSafe};

use rand::{Rng, SeedableRng};

use crate::RuleSet;
use crate::{Game, GameRng, PlayerId, Record, Turn};

/// A byte range of the JSON text.
type Span = (usize, usize);

/// Spans of JSON number literals and of string literals in `text`.
fn tokens(text: &str) -> (Vec<Span>, Vec<Span>) {
    let bytes = text.as_bytes();
    let (mut numbers, mut strings) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'"' {
            let start = i;
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            strings.push((start, (i + 1).min(bytes.len())));
        } else if b == b'-' || b.is_ascii_digit() {
            let start = i;
            i += 1;
            while i < bytes.len() && (bytes[i].is_ascii_digit() || b".eE+-".contains(&bytes[i])) {
                i += 1;
            }
            numbers.push((start, i));
            continue;
        }
        i += 1;
    }
    (numbers, strings)
}

/// One random edit of `text` that keeps it likely to parse as JSON.
fn mutate(text: &str, rng: &mut GameRng) -> String {
    let (numbers, strings) = tokens(text);
    let splice =
        |(s, e): (usize, usize), with: &str| format!("{}{}{}", &text[..s], with, &text[e..]);
    match rng.random_range(0..5) {
        0 | 1 if !numbers.is_empty() => {
            let span = numbers[rng.random_range(0..numbers.len())];
            let old: i128 = text[span.0..span.1].parse().unwrap_or(0);
            // Off by one, the edges of the integer types a state is likely
            // made of (where counters overflow), or anything small.
            let new = match rng.random_range(0..10) {
                0 => old + 1,
                1 => old - 1,
                2 => 0,
                3 => -1,
                4 => i128::from(u8::MAX),
                5 => i128::from(u16::MAX),
                6 => i128::from(u32::MAX),
                7 => 1 << 32,
                _ => rng.random_range(0..200),
            };
            splice(span, &new.to_string())
        }
        2 if numbers.len() > 1 => {
            let a = numbers[rng.random_range(0..numbers.len())];
            let b = numbers[rng.random_range(0..numbers.len())];
            let (a, b) = if a.0 <= b.0 { (a, b) } else { (b, a) };
            if a == b || a.1 > b.0 {
                return text.to_owned();
            }
            format!(
                "{}{}{}{}{}",
                &text[..a.0],
                &text[b.0..b.1],
                &text[a.1..b.0],
                &text[a.0..a.1],
                &text[b.1..]
            )
        }
        3 if strings.len() > 1 => {
            let to = strings[rng.random_range(0..strings.len())];
            let from = strings[rng.random_range(0..strings.len())];
            splice(to, &text[from.0..from.1])
        }
        _ => {
            // Drop one element of a list: the commas between values.
            let commas: Vec<usize> = text.match_indices(',').map(|(i, _)| i).collect();
            if commas.is_empty() {
                return text.to_owned();
            }
            let at = commas[rng.random_range(0..commas.len())];
            let end = text[at + 1..]
                .find([',', ']'])
                .map_or(text.len(), |e| at + 1 + e);
            format!("{}{}", &text[..at], &text[end..])
        }
    }
}

fn guarded<T>(what: &str, f: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result.map_err(|e| format!("{what}: {e}")),
        Err(_) => Err(format!("{what}: the engine panicked")),
    }
}

/// Steps of an accepted state's random play on which both players' own
/// observations are determinised (each draw can cost milliseconds).
fn determinise_at(step: usize) -> bool {
    step < 12 || step.is_multiple_of(40)
}

/// The whole contract on a state that deserialisation, a builder or
/// determinisation accepted: it round-trips; played on at random to the end
/// every method answers, every listed action applies, each player's own
/// observation determinises into a state that gives it back, and every
/// state reached round-trips too. Nothing may panic (the caller catches
/// panics).
pub fn check_accepted<G: Game>(mut state: G, rng: &mut GameRng) -> Result<(), String> {
    let rules = state.rules().clone();
    let mut legal = Vec::new();
    let mut outcomes = Vec::new();
    for step in 0..=rules.max_game_length() as usize {
        let text = serde_json::to_string(&state).map_err(|e| e.to_string())?;
        let back: G = serde_json::from_str(&text)
            .map_err(|e| format!("step {step}: a reached state is refused: {e}\n{text}"))?;
        if back != state {
            return Err(format!(
                "step {step}: a reached state changes in a round trip"
            ));
        }
        let _ = state.to_string();
        let _ = state.outcome();
        let _ = state.move_count();
        let terminal = state.turn() == Turn::Terminal;
        for p in PlayerId::all() {
            let obs = state.observation(p);
            let _ = obs.to_string();
            let _ = state.returns(p);
            if determinise_at(step) || terminal {
                let mut det_rng = GameRng::seed_from_u64(rng.random());
                let det = G::determinize(&obs, &mut det_rng).map_err(|e| {
                    format!("step {step}: {p}'s own observation does not determinise: {e}")
                })?;
                if det.observation(p) != obs {
                    return Err(format!(
                        "step {step}: a determinisation changes {p}'s observation"
                    ));
                }
            }
        }
        state.legal_actions(&mut legal);
        state.chance_outcomes(&mut outcomes);
        let action = match state.turn() {
            Turn::Terminal => {
                if !legal.is_empty() || state.outcome().is_none() {
                    return Err("an ended game lists actions or has no outcome".into());
                }
                return Ok(());
            }
            Turn::Chance => state
                .sample_chance(rng)
                .ok_or_else(|| format!("step {step}: chance event without outcomes"))?,
            Turn::Player(_) if legal.is_empty() => {
                return Err(format!("step {step}: a decision without legal actions"))
            }
            Turn::Player(p) => {
                for &a in &legal {
                    let _ = state.action_view(p, a);
                    let _ = state.action_view(p.other(), a);
                }
                legal[rng.random_range(0..legal.len())]
            }
        };
        state
            .apply(action)
            .map_err(|e| format!("step {step}: listed action {action} refused: {e}"))?;
    }
    Err("accepted state never reaches the end".into())
}

/// What happened to one tampered input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Fate {
    /// Deserialisation (or replay, or determinisation) refused it.
    Refused,
    /// It was accepted and kept every contract.
    Accepted,
}

/// Tampers with the serialised `state` once; an accepted result must play on.
pub(super) fn state<G: Game>(state: &G, rng: &mut GameRng) -> Result<Fate, String> {
    let text = serde_json::to_string(state).map_err(|e| e.to_string())?;
    let bad = mutate(&text, rng);
    let mut sub = GameRng::seed_from_u64(rng.random());
    guarded(
        &format!("tampered state {bad}"),
        || match serde_json::from_str::<G>(&bad) {
            Ok(s) => check_accepted(s, &mut sub).map(|()| Fate::Accepted),
            Err(_) => Ok(Fate::Refused),
        },
    )
}

/// Tampers with a serialised observation once; an accepted result must
/// determinise into a playable state or be refused.
pub(super) fn observation<G: Game>(
    obs: &G::Observation,
    rng: &mut GameRng,
) -> Result<Fate, String> {
    let text = serde_json::to_string(obs).map_err(|e| e.to_string())?;
    let bad = mutate(&text, rng);
    let mut sub = GameRng::seed_from_u64(rng.random());
    guarded(
        &format!("tampered observation {bad}"),
        || match serde_json::from_str::<G::Observation>(&bad) {
            Ok(o) => {
                // An accepted observation is rendered, as a UI would.
                let _ = o.to_string();
                match G::determinize(&o, &mut sub) {
                    Ok(s) => check_accepted(s, &mut sub).map(|()| Fate::Accepted),
                    Err(_) => Ok(Fate::Refused),
                }
            }
            Err(_) => Ok(Fate::Refused),
        },
    )
}

/// Tampers with a serialised record once; replaying it must give an error or
/// a playable state.
pub(super) fn record<G: Game>(record: &Record<G>, rng: &mut GameRng) -> Result<Fate, String> {
    let text = serde_json::to_string(record).map_err(|e| e.to_string())?;
    let bad = mutate(&text, rng);
    let mut sub = GameRng::seed_from_u64(rng.random());
    guarded(
        &format!("tampered record {bad}"),
        || match serde_json::from_str::<Record<G>>(&bad) {
            Ok(r) => match r.replay() {
                Ok(s) => check_accepted(s, &mut sub).map(|()| Fate::Accepted),
                Err(_) => Ok(Fate::Refused),
            },
            Err(_) => Ok(Fate::Refused),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutations_change_numbers_strings_and_lists() {
        let text = r#"{"a":[1,2,3],"b":"X","c":"Y"}"#;
        let mut rng = GameRng::seed_from_u64(1);
        let variants: std::collections::HashSet<String> =
            (0..200).map(|_| mutate(text, &mut rng)).collect();
        assert!(variants.len() > 10, "{variants:?}");
        assert!(variants
            .iter()
            .any(|v| v.contains(r#"[1,3]"#) || v.contains(r#"[2,3]"#) || v.contains(r#"[1,2]"#)));
    }
}
