//! Game specifications by name with parameters, as OpenSpiel's
//! `load_game("name(key=value,...)")` takes them.

use std::fmt;

use game_traits::{Parameter, RuleSet};

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

/// The options of rule set `R` with their values in `rules`, as a person
/// writes them in a specification.
pub fn parameters<R: RuleSet>(rules: &R) -> Vec<(&'static Parameter, String)> {
    R::parameters()
        .iter()
        .map(|p| {
            (
                p,
                rules
                    .get(p.name)
                    .map_or_else(String::new, |v| v.to_string()),
            )
        })
        .collect()
}

/// `base` with each of `params` set, each name and value checked against
/// the rule set's table of options ([`RuleSet::parameters`]): a field's
/// value written as a person would (`true`, `5`, `none`, a choice's name in
/// any case). Unknown names and values that do not fit are refused with
/// the game, the parameter and what it takes. The caller still validates
/// the rules as a whole (through the game's constructor).
pub fn rules_with<R: RuleSet>(
    game: &str,
    base: &R,
    params: &[(String, String)],
) -> Result<R, EnvError> {
    let mut rules = base.clone();
    for (key, text) in params {
        let parameter = R::parameters()
            .iter()
            .find(|p| p.name == key)
            .ok_or_else(|| EnvError::UnknownParameter {
                game: game.to_owned(),
                given: key.clone(),
                known: R::parameters()
                    .iter()
                    .map(|p| p.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            })?;
        let bad = |reason: String| EnvError::BadParameter {
            game: game.to_owned(),
            name: key.clone(),
            value: text.clone(),
            reason,
        };
        let value = parameter
            .parse(text)
            .map_err(|_| bad(format!("expected {}", parameter.kind)))?;
        rules.set(key, value).map_err(|e| bad(e.to_string()))?;
    }
    Ok(rules)
}
