//! The static half of a game: what its rule set decides before any state
//! exists (the action space and its ids, the bounds of a game, the rule
//! options as data, the named presets). A registry registers a game's type
//! and reads all of this from its [`RuleSet`].

use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::parameter::same_name;
use crate::{ChanceMode, Parameter, ParameterError, ParameterValue};

/// A game's rule set: one value per combination of rule options, with what
/// follows from it. Implemented by each game's `Rules`, and named by
/// [`Game::Rules`](crate::Game::Rules).
///
/// The rule options are data: [`RuleSet::parameters`] lists them with
/// their kinds and ranges, [`RuleSet::get`] and [`RuleSet::set`] read and
/// write them by name (games write the three with
/// [`parameter_table!`](crate::parameter_table)), and
/// [`RuleSet::validate`] refuses combinations that do not fit together.
pub trait RuleSet:
    Clone + PartialEq + Debug + Default + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// The actions of games under these rules.
    type Action: Copy;
    /// Why these rules were refused ([`RuleSet::validate`]): the game's
    /// error.
    type Error: std::error::Error + Clone + PartialEq + Send + Sync + 'static;

    /// `Ok` when the options fit together and every number is within its
    /// range; otherwise the game's invalid-rules error. Every constructor
    /// and deserialiser of a game calls it.
    fn validate(&self) -> Result<(), Self::Error>;

    /// Size of the dense action-id space: every action id is below it.
    fn action_space(&self) -> usize;

    /// The dense, stable id of `action`, below [`RuleSet::action_space`].
    fn action_id(&self, action: Self::Action) -> usize;

    /// The action with id `id`, if any.
    fn action_from_id(&self, id: usize) -> Option<Self::Action>;

    /// Whether `action` is a chance outcome rather than a player's
    /// decision. Every action is one or the other, so the decisions' ids
    /// are the action space without these: what a learner's policy ranges
    /// over.
    fn is_chance_outcome(&self, action: Self::Action) -> bool;

    /// Upper bound on the number of actions (decisions and chance
    /// outcomes) of any game under these rules.
    fn max_game_length(&self) -> u32;

    /// Whether games under these rules have chance events (by default they
    /// do).
    fn chance_mode(&self) -> ChanceMode {
        ChanceMode::ExplicitStochastic
    }

    /// Lowest and highest return a player can get (by default -1 and 1).
    fn return_bounds(&self) -> (f64, f64) {
        (-1.0, 1.0)
    }

    /// What the returns of all players add up to at the end (by default 0:
    /// a zero-sum game).
    fn returns_sum(&self) -> f64 {
        0.0
    }

    /// The named rule sets, the default first. Their names are
    /// snake_case, as OpenSpiel's names are (`troops_only`,
    /// `classic_milton_bradley`); the kit's
    /// `testkit::check_preset_names` holds every game to it.
    fn presets() -> Vec<Preset<Self>>;

    /// The preset named `name`, in any case and with or without `_` and
    /// `-` between its words, as choice values are read
    /// ([`Parameter::parse`]): a specification stored or typed with the
    /// kebab-case names Battle Line's presets had before they became
    /// snake_case (`troops-only`) still finds `troops_only`. `None` when
    /// no preset has that name.
    ///
    /// ```
    /// use game_traits::kuhn::KuhnRules;
    /// use game_traits::RuleSet;
    ///
    /// assert_eq!(KuhnRules::preset("HIGH").map(|p| p.name), Some("high"));
    /// assert!(KuhnRules::preset("low").is_none());
    /// ```
    fn preset(name: &str) -> Option<Preset<Self>> {
        Self::presets()
            .into_iter()
            .find(|p| same_name(p.name, name.trim()))
    }

    /// The title of the preset these rules are (`International`), as every
    /// screen names them; `None` for rules that are no preset's.
    fn preset_title(&self) -> Option<&'static str> {
        Self::presets()
            .into_iter()
            .find(|p| p.rules == *self)
            .map(|p| p.title)
    }

    /// Every rule option, in the order of the rule set's fields.
    fn parameters() -> &'static [Parameter];

    /// The value of the option `name`, `None` when there is no such
    /// option.
    fn get(&self, name: &str) -> Option<ParameterValue>;

    /// Sets the option `name` to `value`, refusing an unknown name or a
    /// value not of its kind or out of its range (and leaving the rules
    /// unchanged then). The combination is checked by
    /// [`RuleSet::validate`], not here.
    fn set(&mut self, name: &str, value: ParameterValue) -> Result<(), ParameterError>;
}

/// A named rule set: a rule text, or a well-known reading of one.
///
/// It carries its own words for people (a title, one line on what sets it
/// apart), so every screen (the page, the terminal, an arena's report)
/// names it the same way and none keeps a table of its own.
#[derive(Clone, Debug, PartialEq)]
pub struct Preset<R> {
    /// Its name in specifications (`classic`, `troops_only`).
    pub name: &'static str,
    /// Its name as a person reads it (`International`, `Troops only`).
    pub title: &'static str,
    /// One sentence for a player on what sets it apart from the other
    /// rule sets of its game.
    pub differences: &'static str,
    /// One line citing its source and what sets it apart.
    pub doc: &'static str,
    /// The rules.
    pub rules: R,
}

impl<R> Preset<R> {
    /// A preset named `name` in specifications and `title` for people,
    /// `differences` saying what sets it apart to a player, `doc` citing
    /// its source.
    pub const fn new(
        name: &'static str,
        title: &'static str,
        differences: &'static str,
        doc: &'static str,
        rules: R,
    ) -> Self {
        Preset {
            name,
            title,
            differences,
            doc,
            rules,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RuleSet;
    use crate::kuhn::KuhnRules;

    #[test]
    fn preset_title_names_the_preset_the_rules_are_and_none_for_own_rules() {
        for preset in KuhnRules::presets() {
            assert_eq!(preset.rules.preset_title(), Some(preset.title));
        }
        assert_eq!(KuhnRules { ante: 7 }.preset_title(), None);
    }
}
