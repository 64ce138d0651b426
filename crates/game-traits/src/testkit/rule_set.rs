//! The rule set's table of options against what it stores: every option
//! reads and writes by name, every value the table admits is taken, every
//! other refused, and the presets are distinct and valid.

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
///   and all validate.
///
/// Panics with a message naming the first failure.
pub fn check_rule_set<R: RuleSet>() {
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
