//! Game specifications by name with parameters, as OpenSpiel's
//! `load_game("name(key=value,...)")` takes them.

use std::fmt;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::EnvError;

/// A parsed `name(key=value,...)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// The game's name.
    pub name: String,
    /// The parameters in the order given.
    pub params: Vec<(String, String)>,
}

/// Longest specification accepted: no real one comes near it.
const MAX_SPEC: usize = 4096;

impl GameSpec {
    /// Parses `name` or `name(key=value,...)`; spaces around the parts are
    /// ignored, names and keys are lower-cased.
    pub fn parse(text: &str) -> Result<Self, EnvError> {
        let bad = || EnvError::BadSpec(text.chars().take(200).collect());
        if text.len() > MAX_SPEC {
            return Err(bad());
        }
        let text_trim = text.trim();
        let (name, rest) = match text_trim.find('(') {
            Some(open) => {
                let inner = text_trim[open + 1..].strip_suffix(')').ok_or_else(bad)?;
                (&text_trim[..open], Some(inner))
            }
            None => (text_trim, None),
        };
        let name = name.trim().to_ascii_lowercase();
        let simple = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '/'))
        };
        if !simple(&name) {
            return Err(bad());
        }
        let mut params = Vec::new();
        if let Some(inner) = rest.filter(|r| !r.trim().is_empty()) {
            for part in inner.split(',') {
                let (key, value) = part.split_once('=').ok_or_else(bad)?;
                let key = key.trim().to_ascii_lowercase();
                let value = value.trim().to_owned();
                if !simple(&key) || value.is_empty() || value.contains(['(', ')', '=']) {
                    return Err(bad());
                }
                if params.iter().any(|(k, _)| *k == key) {
                    return Err(bad());
                }
                params.push((key, value));
            }
        }
        Ok(GameSpec { name, params })
    }
}

impl fmt::Display for GameSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        if !self.params.is_empty() {
            let parts: Vec<String> = self
                .params
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            write!(f, "({})", parts.join(","))?;
        }
        Ok(())
    }
}

/// The parameters of a rules type: its serialised field names with their
/// values in `base`, in field order, then those of `documented` that the
/// serialisation leaves out at their defaults (serde's
/// `skip_serializing_if`), with the default found by trying values.
pub fn parameters<R: Serialize + DeserializeOwned>(
    base: &R,
    documented: &[&str],
) -> Vec<(String, String)> {
    let Ok(Value::Object(map)) = serde_json::to_value(base) else {
        return Vec::new();
    };
    let mut out: Vec<(String, String)> = map.iter().map(|(k, v)| (k.clone(), render(v))).collect();
    for &name in documented {
        if !map.contains_key(name) {
            out.push((name.to_owned(), skipped_default::<R>(&map, name)));
        }
    }
    out
}

/// The value of a field that serialises to nothing at its default: the
/// candidate (a boolean, or an option's name as serde lists them) that
/// disappears again on a round trip.
fn skipped_default<R: Serialize + DeserializeOwned>(
    map: &serde_json::Map<String, Value>,
    name: &str,
) -> String {
    let with = |value: Value| {
        let mut trial = map.clone();
        trial.insert(name.to_owned(), value);
        Value::Object(trial)
    };
    let mut candidates = vec![Value::Bool(true), Value::Bool(false)];
    if let Err(e) = serde_json::from_value::<R>(with(Value::String("\u{1}".into()))) {
        let message = e.to_string();
        if let Some((_, expected)) = message.split_once("expected") {
            candidates.extend(
                expected
                    .split('`')
                    .skip(1)
                    .step_by(2)
                    .map(|v| Value::String(v.to_owned())),
            );
        }
    }
    candidates
        .into_iter()
        .find(|candidate| {
            serde_json::from_value::<R>(with(candidate.clone()))
                .ok()
                .and_then(|r| serde_json::to_value(r).ok())
                .is_some_and(|v| v.get(name).is_none())
        })
        .map_or_else(|| "default".to_owned(), |v| render(&v))
}

/// A parameter value as a user writes it.
fn render(value: &Value) -> String {
    match value {
        Value::Null => "none".to_owned(),
        Value::String(s) => s.to_ascii_lowercase(),
        other => other.to_string(),
    }
}

/// `base` with each of `params` set: a field's value written as the user
/// would (`true`, `5`, `none`, an option's name in any case). Unknown
/// fields and values that do not fit are refused with a message naming
/// the game, the parameter and what it takes. The caller still validates
/// the rules as a whole (through the game's constructor). `extra` names the
/// parameters the serialisation may leave out at their defaults.
pub fn rules_with<R: Serialize + DeserializeOwned>(
    game: &str,
    base: &R,
    params: &[(String, String)],
    extra: &[&str],
) -> Result<R, EnvError> {
    let Ok(Value::Object(mut map)) = serde_json::to_value(base) else {
        return Err(EnvError::InvalidRules(format!(
            "{game}: rules are not a record"
        )));
    };
    for (key, text) in params {
        let current = match map.get(key) {
            Some(value) => value.clone(),
            None if extra.contains(&key.as_str()) => Value::Null,
            None => {
                let mut known: Vec<String> = map.keys().cloned().collect();
                known.extend(
                    extra
                        .iter()
                        .filter(|e| !map.contains_key(**e))
                        .map(|e| (*e).to_owned()),
                );
                return Err(EnvError::UnknownParameter {
                    game: game.to_owned(),
                    given: key.clone(),
                    known: known.join(", "),
                });
            }
        };
        let mut trial = map.clone();
        trial.insert(key.clone(), parse_value(&current, text));
        if let Err(e) = serde_json::from_value::<R>(Value::Object(trial.clone())) {
            // An option's name in another spelling: serde lists the names
            // it expects, so take the one that matches.
            let message = e.to_string();
            let fixed = variant_named(&message, text).map(|v| {
                trial.insert(key.clone(), Value::String(v));
                trial.clone()
            });
            match fixed {
                Some(t) if serde_json::from_value::<R>(Value::Object(t.clone())).is_ok() => {
                    trial = t
                }
                _ => {
                    return Err(EnvError::BadParameter {
                        game: game.to_owned(),
                        name: key.clone(),
                        value: text.clone(),
                        reason: message,
                    })
                }
            }
        }
        map = trial;
    }
    serde_json::from_value(Value::Object(map)).map_err(|e| EnvError::InvalidRules(e.to_string()))
}

/// Reads `text` as the kind of value `current` is: booleans and numbers
/// as such, `none` as an absent option, anything else as a name (an enum
/// option, matched in any case by trying the spellings serde uses).
fn parse_value(current: &Value, text: &str) -> Value {
    let lower = text.to_ascii_lowercase();
    if matches!(lower.as_str(), "none" | "null" | "off") && !current.is_boolean() {
        return Value::Null;
    }
    if let Ok(b) = lower.parse::<bool>() {
        return Value::Bool(b);
    }
    if let Ok(n) = text.parse::<u64>() {
        return Value::from(n);
    }
    if let Ok(n) = text.parse::<i64>() {
        return Value::from(n);
    }
    if let Ok(x) = text.parse::<f64>() {
        if x.is_finite() {
            return Value::from(x);
        }
    }
    match current {
        // Enum options serialise as their names: keep the known spelling
        // when it matches in another case.
        Value::String(s) if s.eq_ignore_ascii_case(text) => Value::String(s.clone()),
        _ => Value::String(capitalised(text)),
    }
}

/// The name among those serde's "expected `A` or `B`" lists that is
/// `text` up to case, `_` and `-`.
fn variant_named(message: &str, text: &str) -> Option<String> {
    let (_, expected) = message.split_once("expected")?;
    let squash = |s: &str| -> String {
        s.chars()
            .filter(|c| !matches!(c, '_' | '-'))
            .flat_map(char::to_lowercase)
            .collect()
    };
    let wanted = squash(text);
    expected
        .split('`')
        .skip(1)
        .step_by(2)
        .find(|name| squash(name) == wanted)
        .map(str::to_owned)
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => {
            first.to_ascii_uppercase().to_string() + &chars.as_str().to_ascii_lowercase()
        }
        None => String::new(),
    }
}
