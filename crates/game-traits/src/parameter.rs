//! Rule options as data: each option of a rule set is a [`Parameter`] with
//! a name, a line of documentation and a [`ParameterKind`] that says which
//! values it takes. A registry reads and checks options by this table
//! (`stratego(two_square_limit=5)`), never by trying a deserialiser.

use std::fmt;

use serde::Serialize;

/// One option of a rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Parameter {
    /// Its name in specifications: the field's name.
    pub name: &'static str,
    /// What it does, in one line.
    pub doc: &'static str,
    /// The values it takes.
    pub kind: ParameterKind,
}

/// The values a [`Parameter`] takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ParameterKind {
    /// `true` or `false`.
    Bool,
    /// A whole number in `min..=max`.
    Int {
        /// The least value.
        min: u32,
        /// The greatest value.
        max: u32,
    },
    /// A whole number in `min..=max`, or `none` to switch the rule off.
    OptionalInt {
        /// The least value.
        min: u32,
        /// The greatest value.
        max: u32,
    },
    /// One of these names (matched without regard to case).
    Choice {
        /// The names, as [`ParameterValue::Choice`] carries them.
        values: &'static [&'static str],
    },
}

/// A value of a [`Parameter`]: what [`RuleSet::get`](crate::RuleSet::get)
/// reads and [`RuleSet::set`](crate::RuleSet::set) writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum ParameterValue {
    /// Of a [`ParameterKind::Bool`].
    Bool(bool),
    /// Of a [`ParameterKind::Int`] or [`ParameterKind::OptionalInt`].
    Int(u32),
    /// `none`: an [`ParameterKind::OptionalInt`] switched off.
    Off,
    /// Of a [`ParameterKind::Choice`]: one of its names, as listed.
    Choice(&'static str),
}

impl fmt::Display for ParameterValue {
    /// As a person writes it in a specification: `true`, `5`, `none`, a
    /// choice's name in lower case.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParameterValue::Bool(b) => write!(f, "{b}"),
            ParameterValue::Int(n) => write!(f, "{n}"),
            ParameterValue::Off => f.write_str("none"),
            ParameterValue::Choice(name) => f.write_str(&name.to_ascii_lowercase()),
        }
    }
}

/// Why an option's name or value was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParameterError {
    /// The rule set has no option of this name.
    #[error("no parameter named {0:?}")]
    Unknown(String),
    /// The value is not one the option takes; `expected` says what it
    /// takes.
    #[error("{value:?} is not a value of {name}: expected {expected}")]
    BadValue {
        /// The option.
        name: &'static str,
        /// The value given (cut to 60 characters).
        value: String,
        /// What the option takes, in words.
        expected: String,
    },
}

impl Parameter {
    /// Reads `text` as a value of this option, checking it against its
    /// kind: `true`/`false`, a number within its range, `none` where the
    /// rule can be switched off, a choice's name in any case and with or
    /// without `_` and `-` between its words (`start-of-turn` for
    /// `StartOfTurn`).
    pub fn parse(&self, text: &str) -> Result<ParameterValue, ParameterError> {
        let text = text.trim();
        let value = match self.kind {
            ParameterKind::Bool => match text.to_ascii_lowercase().as_str() {
                "true" => Some(ParameterValue::Bool(true)),
                "false" => Some(ParameterValue::Bool(false)),
                _ => None,
            },
            ParameterKind::Int { min, max } => text
                .parse::<u32>()
                .ok()
                .filter(|n| (min..=max).contains(n))
                .map(ParameterValue::Int),
            ParameterKind::OptionalInt { min, max } => {
                if text.eq_ignore_ascii_case("none") {
                    Some(ParameterValue::Off)
                } else {
                    text.parse::<u32>()
                        .ok()
                        .filter(|n| (min..=max).contains(n))
                        .map(ParameterValue::Int)
                }
            }
            ParameterKind::Choice { values } => values
                .iter()
                .find(|v| same_name(v, text))
                .map(|v| ParameterValue::Choice(v)),
        };
        value.ok_or_else(|| self.bad_value(text))
    }

    /// The error saying that `value` does not fit this option.
    pub fn bad_value(&self, value: &str) -> ParameterError {
        ParameterError::BadValue {
            name: self.name,
            value: value.chars().take(60).collect(),
            expected: self.kind.to_string(),
        }
    }

    /// Whether `value` is of this option's kind and within its range.
    pub fn admits(&self, value: ParameterValue) -> bool {
        match (self.kind, value) {
            (ParameterKind::Bool, ParameterValue::Bool(_)) => true,
            (ParameterKind::Int { min, max }, ParameterValue::Int(n)) => (min..=max).contains(&n),
            (ParameterKind::OptionalInt { min, max }, ParameterValue::Int(n)) => {
                (min..=max).contains(&n)
            }
            (ParameterKind::OptionalInt { .. }, ParameterValue::Off) => true,
            (ParameterKind::Choice { values }, ParameterValue::Choice(name)) => {
                values.contains(&name)
            }
            _ => false,
        }
    }
}

/// Whether two names are the same up to case, `_` and `-`.
pub(crate) fn same_name(a: &str, b: &str) -> bool {
    fn squash(s: &str) -> impl Iterator<Item = char> + '_ {
        s.chars()
            .filter(|c| !matches!(c, '_' | '-'))
            .map(|c| c.to_ascii_lowercase())
    }
    squash(a).eq(squash(b))
}

impl fmt::Display for ParameterKind {
    /// What the option takes, in words: `true or false`, `a number in
    /// 1..=100`, `one of text, published`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParameterKind::Bool => f.write_str("true or false"),
            ParameterKind::Int { min, max } => write!(f, "a number in {min}..={max}"),
            ParameterKind::OptionalInt { min, max } => {
                write!(f, "a number in {min}..={max}, or none")
            }
            ParameterKind::Choice { values } => {
                f.write_str("one of ")?;
                for (i, v) in values.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str(&v.to_ascii_lowercase())?;
                }
                Ok(())
            }
        }
    }
}

/// A rule option whose values have names: the enums of rule sets. The
/// names are what [`ParameterKind::Choice`] lists.
pub trait Named: Copy + PartialEq + 'static {
    /// Every value with its name.
    const NAMED: &'static [(&'static str, Self)];

    /// The names, in order: a [`ParameterKind::Choice`]'s list.
    const NAMES: &'static [&'static str];

    /// This value's name.
    fn name(self) -> &'static str {
        Self::NAMED
            .iter()
            .find(|(_, v)| *v == self)
            .map_or("", |(n, _)| n)
    }

    /// The value named `name` (up to case, `_` and `-`).
    fn from_name(name: &str) -> Option<Self> {
        Self::NAMED
            .iter()
            .find(|(n, _)| same_name(n, name))
            .map(|(_, v)| *v)
    }
}

/// Implements [`Named`] for a fieldless enum whose value names are its
/// variant names, writing the two lists from one: the names cannot drift
/// from the values.
///
/// ```
/// #[derive(Clone, Copy, Debug, PartialEq)]
/// enum Order {
///     Text,
///     Published,
/// }
/// game_traits::named!(Order { Text, Published });
///
/// use game_traits::Named;
/// assert_eq!(Order::NAMES, ["Text", "Published"]);
/// assert_eq!(Order::from_name("published"), Some(Order::Published));
/// ```
#[macro_export]
macro_rules! named {
    ($ty:ident { $($variant:ident),+ $(,)? }) => {
        impl $crate::Named for $ty {
            const NAMED: &'static [(&'static str, Self)] =
                &[$((stringify!($variant), $ty::$variant)),+];
            const NAMES: &'static [&'static str] = &[$(stringify!($variant)),+];
        }
    };
}

/// Reads a [`ParameterValue`] into the typed field it sets, for
/// [`RuleSet::set`](crate::RuleSet::set): `Err` when the value is not of
/// the field's kind.
pub trait FromParameter: Sized {
    /// The field's value, if `value` is of its kind.
    fn from_parameter(value: ParameterValue) -> Option<Self>;
    /// The field as a parameter value.
    fn to_parameter(&self) -> ParameterValue;
}

impl FromParameter for bool {
    fn from_parameter(value: ParameterValue) -> Option<Self> {
        match value {
            ParameterValue::Bool(b) => Some(b),
            _ => None,
        }
    }
    fn to_parameter(&self) -> ParameterValue {
        ParameterValue::Bool(*self)
    }
}

macro_rules! int_parameter {
    ($($t:ty),*) => {$(
        impl FromParameter for $t {
            fn from_parameter(value: ParameterValue) -> Option<Self> {
                match value {
                    ParameterValue::Int(n) => <$t>::try_from(n).ok(),
                    _ => None,
                }
            }
            fn to_parameter(&self) -> ParameterValue {
                ParameterValue::Int(u32::from(*self))
            }
        }
        impl FromParameter for Option<$t> {
            fn from_parameter(value: ParameterValue) -> Option<Self> {
                match value {
                    ParameterValue::Int(n) => <$t>::try_from(n).ok().map(Some),
                    ParameterValue::Off => Some(None),
                    _ => None,
                }
            }
            fn to_parameter(&self) -> ParameterValue {
                self.map_or(ParameterValue::Off, |n| ParameterValue::Int(u32::from(n)))
            }
        }
    )*};
}

int_parameter!(u8, u16, u32);

impl<T: Named> FromParameter for T {
    fn from_parameter(value: ParameterValue) -> Option<Self> {
        match value {
            ParameterValue::Choice(name) => T::from_name(name),
            _ => None,
        }
    }
    fn to_parameter(&self) -> ParameterValue {
        ParameterValue::Choice(self.name())
    }
}

/// Implements [`RuleSet::parameters`](crate::RuleSet::parameters),
/// [`RuleSet::get`](crate::RuleSet::get) and
/// [`RuleSet::set`](crate::RuleSet::set) from one table of the rule set's
/// fields, so the three cannot disagree:
///
/// Used inside `impl RuleSet for Rules { ... }`; each field's type
/// implements [`FromParameter`] (bool, u8, u16, u32, their `Option`s, and
/// every [`Named`] enum):
///
/// ```
/// use game_traits::{ParameterValue, Preset, RuleSet};
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
/// struct Rules {
///     tactics: bool,
///     max_rounds: u16,
/// }
///
/// #[derive(Clone, Debug, PartialEq)]
/// struct NoRounds;
///
/// impl std::fmt::Display for NoRounds {
///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
///         f.write_str("a game needs at least one round")
///     }
/// }
///
/// impl std::error::Error for NoRounds {}
///
/// impl RuleSet for Rules {
///     type Action = u8;
///     type Error = NoRounds;
///     fn validate(&self) -> Result<(), NoRounds> {
///         if self.max_rounds == 0 { Err(NoRounds) } else { Ok(()) }
///     }
///     fn action_space(&self) -> usize { 2 }
///     fn action_id(&self, action: u8) -> usize { usize::from(action) }
///     fn action_from_id(&self, id: usize) -> Option<u8> {
///         u8::try_from(id).ok().filter(|&a| a < 2)
///     }
///     fn is_chance_outcome(&self, _: u8) -> bool { false }
///     fn max_game_length(&self) -> u32 { u32::from(self.max_rounds) }
///     fn presets() -> Vec<Preset<Self>> {
///         vec![Preset::new("default", "Standard", "Sixty rounds.", "sixty rounds", Rules { tactics: true, max_rounds: 60 })]
///     }
///     game_traits::parameter_table! {
///         tactics: Bool, "whether the tactics cards are in the game";
///         max_rounds: Int { min: 1, max: 1000 }, "rounds before a draw";
///     }
/// }
///
/// let mut rules = Rules { tactics: false, max_rounds: 60 };
/// rules.set("tactics", ParameterValue::Bool(true)).unwrap();
/// assert_eq!(rules.get("tactics"), Some(ParameterValue::Bool(true)));
/// assert_eq!(Rules::parameters().len(), 2);
/// // Out of range or unknown: refused, and the rules are left as they were.
/// assert!(rules.set("max_rounds", ParameterValue::Int(0)).is_err());
/// assert!(rules.set("speed", ParameterValue::Int(3)).is_err());
/// assert_eq!(rules, Rules { tactics: true, max_rounds: 60 });
/// ```
#[macro_export]
macro_rules! parameter_table {
    ($($field:ident : $kind:expr, $doc:expr;)*) => {
        fn parameters() -> &'static [$crate::Parameter] {
            #[allow(unused_imports)]
            use $crate::ParameterKind::*;
            const TABLE: &[$crate::Parameter] = &[$($crate::Parameter {
                name: stringify!($field),
                doc: $doc,
                kind: $kind,
            }),*];
            TABLE
        }

        fn get(&self, name: &str) -> Option<$crate::ParameterValue> {
            match name {
                $(stringify!($field) => Some($crate::FromParameter::to_parameter(&self.$field)),)*
                _ => None,
            }
        }

        fn set(
            &mut self,
            name: &str,
            value: $crate::ParameterValue,
        ) -> Result<(), $crate::ParameterError> {
            let parameter = <Self as $crate::RuleSet>::parameters()
                .iter()
                .find(|p| p.name == name)
                .ok_or_else(|| $crate::ParameterError::Unknown(name.chars().take(60).collect()))?;
            if !parameter.admits(value) {
                return Err(parameter.bad_value(&value.to_string()));
            }
            match name {
                $(stringify!($field) => {
                    self.$field = $crate::FromParameter::from_parameter(value)
                        .ok_or_else(|| parameter.bad_value(&value.to_string()))?;
                })*
                _ => {}
            }
            Ok(())
        }
    };
}

/// A seat as an option (who starts): `0` or `1`.
impl FromParameter for crate::PlayerId {
    fn from_parameter(value: ParameterValue) -> Option<Self> {
        match value {
            ParameterValue::Int(0) => Some(crate::PlayerId::P0),
            ParameterValue::Int(1) => Some(crate::PlayerId::P1),
            _ => None,
        }
    }
    fn to_parameter(&self) -> ParameterValue {
        ParameterValue::Int(self.index() as u32)
    }
}
