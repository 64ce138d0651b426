//! The rule set's table of options against what it stores: every option
//! reads and writes by name, every value the table admits is taken, every
//! other refused, and the presets are distinct, valid and named in
//! snake_case.

use crate::{FromParameter, ParameterKind, ParameterValue, RuleSet};

/// Checks rule set `R`'s [`RuleSet::parameters`], [`RuleSet::get`],
/// [`RuleSet::set`] and [`RuleSet::presets`] against each other and
/// against its serialisation:
///
/// - the options are exactly the fields the default serialises (when it
///   serialises as a record), each named once, each with one line of
///   documentation;
/// - each option's value reads back, within its kind;
/// - every value the kind admits (both booleans, each choice, a range's
///   ends) is taken by `set` and read back by `get`, and changes only that
///   option; values of another kind or out of range, and unknown names, are
///   refused with the rules unchanged;
/// - the presets start with the default, have distinct names and rules,
///   and all validate, and their names are snake_case
///   ([`check_preset_names`]).
///
/// Panics with a message naming the first failure.
pub fn check_rule_set<R: RuleSet>() {
    check_preset_names::<R>();
    let parameters = R::parameters();
    let mut names: Vec<&str> = parameters.iter().map(|p| p.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), parameters.len(), "an option named twice");
    if let Ok(serde_json::Value::Object(map)) = serde_json::to_value(R::default()) {
        for key in map.keys() {
            assert!(
                names.contains(&key.as_str()),
                "the serialised field {key} is no option"
            );
        }
    }
    for p in parameters {
        assert!(
            !p.doc.is_empty() && !p.doc.contains('\n'),
            "{}: one line of documentation",
            p.name
        );
    }
    let base = R::default();
    assert!(base.get("no such option").is_none());
    let mut unchanged = base.clone();
    assert!(unchanged
        .set("no such option", ParameterValue::Bool(true))
        .is_err());
    assert!(unchanged == base, "a refused name changed the rules");
    for p in parameters {
        let current = base
            .get(p.name)
            .unwrap_or_else(|| panic!("{} does not read back", p.name));
        assert!(
            p.admits(current),
            "{}: {current} is outside its kind",
            p.name
        );
        assert_eq!(
            p.parse(&current.to_string()),
            Ok(current),
            "{}: its value does not parse back",
            p.name
        );
        for value in admitted(p.kind) {
            let mut rules = base.clone();
            rules
                .set(p.name, value)
                .unwrap_or_else(|e| panic!("{}: {value} refused: {e}", p.name));
            assert_eq!(rules.get(p.name), Some(value), "{}", p.name);
            for other in parameters.iter().filter(|o| o.name != p.name) {
                assert_eq!(
                    rules.get(other.name),
                    base.get(other.name),
                    "setting {} changed {}",
                    p.name,
                    other.name
                );
            }
        }
        for value in refused(p.kind) {
            let mut rules = base.clone();
            assert!(
                rules.set(p.name, value).is_err(),
                "{}: {value} taken",
                p.name
            );
            assert!(
                rules == base,
                "{}: a refused value changed the rules",
                p.name
            );
        }
    }
    let presets = R::presets();
    assert!(!presets.is_empty(), "no preset");
    assert!(
        presets[0].rules == R::default(),
        "the first preset is not the default"
    );
    for (i, a) in presets.iter().enumerate() {
        assert!(
            a.rules.validate().is_ok(),
            "preset {} does not validate",
            a.name
        );
        assert!(!a.doc.is_empty(), "preset {} has no doc", a.name);
        for b in &presets[i + 1..] {
            assert_ne!(a.name, b.name, "two presets of one name");
            assert!(
                a.rules != b.rules,
                "{} and {} are the same rules",
                a.name,
                b.name
            );
        }
    }
}

/// Preset names are snake_case: lower-case ASCII words of letters and
/// digits joined by single `_`, starting with a letter (`troops_only`,
/// `classic_milton_bradley`), as OpenSpiel spells its names; so a
/// specification, a Gymnasium or OpenSpiel id and a database row spell a
/// preset one way. No two names are the same up to case and separators,
/// so [`RuleSet::preset`], which also reads `troops-only`, finds one
/// preset. [`check_game`](crate::testkit::check_game) and
/// [`check_rule_set`] both run it, so every game and every game to come is
/// held to it.
///
/// Panics naming the first preset that breaks the rule and its snake_case
/// spelling.
pub fn check_preset_names<R: RuleSet>() {
    let presets = R::presets();
    for p in &presets {
        if let Some(fault) = snake_case_fault(p.name) {
            panic!(
                "preset names are snake_case: {:?} {fault}; write {:?}",
                p.name,
                snake_case(p.name)
            );
        }
        let found = R::preset(p.name).map(|found| found.name);
        assert_eq!(
            found,
            Some(p.name),
            "preset {} is found as {found:?}: two names differ only in case or separators",
            p.name
        );
    }
}

/// What keeps `name` from being snake_case, if anything.
fn snake_case_fault(name: &str) -> Option<&'static str> {
    if !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        return Some("does not start with a lower-case letter");
    }
    if name
        .chars()
        .any(|c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'))
    {
        return Some("has a character other than a-z, 0-9 and _");
    }
    if name.contains("__") || name.ends_with('_') {
        return Some("has an empty word");
    }
    None
}

/// `name` in snake_case, for the message of a name that is not.
fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_uppercase() && !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_owned()
}

/// Values of `kind` that it admits.
fn admitted(kind: ParameterKind) -> Vec<ParameterValue> {
    match kind {
        ParameterKind::Bool => vec![ParameterValue::Bool(false), ParameterValue::Bool(true)],
        ParameterKind::Int { min, max } => vec![ParameterValue::Int(min), ParameterValue::Int(max)],
        ParameterKind::OptionalInt { min, max } => vec![
            ParameterValue::Int(min),
            ParameterValue::Int(max),
            ParameterValue::Off,
        ],
        ParameterKind::Choice { values } => {
            values.iter().map(|v| ParameterValue::Choice(v)).collect()
        }
    }
}

/// Values of `kind` that it refuses.
fn refused(kind: ParameterKind) -> Vec<ParameterValue> {
    let mut out = vec![ParameterValue::Choice("no such value")];
    match kind {
        ParameterKind::Bool => out.push(ParameterValue::Int(1)),
        ParameterKind::Int { min, max } => {
            out.push(ParameterValue::Off);
            out.push(ParameterValue::Bool(true));
            out.extend(min.checked_sub(1).map(ParameterValue::Int));
            out.extend(max.checked_add(1).map(ParameterValue::Int));
        }
        ParameterKind::OptionalInt { min, max } => {
            out.push(ParameterValue::Bool(true));
            out.extend(min.checked_sub(1).map(ParameterValue::Int));
            out.extend(max.checked_add(1).map(ParameterValue::Int));
        }
        ParameterKind::Choice { .. } => out.push(ParameterValue::Bool(true)),
    }
    out
}

/// Keeps [`FromParameter`] honest for the names a [`Named`](crate::Named)
/// type lists: each name reads back as itself.
pub fn check_named<T: crate::Named + std::fmt::Debug>() {
    assert_eq!(
        T::NAMES.len(),
        T::NAMED.len(),
        "NAMES and NAMED differ in length"
    );
    for (name, (named, value)) in T::NAMES.iter().zip(T::NAMED) {
        assert_eq!(name, named, "NAMES and NAMED differ in order");
        assert_eq!(T::from_name(name), Some(*value), "{name}");
        assert_eq!(value.to_parameter(), ParameterValue::Choice(name));
    }
}
