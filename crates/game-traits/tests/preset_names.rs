//! The rule "preset names are snake_case", as the kit checks it for every
//! game, and the reading of the kebab-case spelling presets had before.

use game_traits::kuhn::{KuhnAction, KuhnRules};
use game_traits::testkit::check_preset_names;
use game_traits::testkit::nim::NimRules;
use game_traits::{Parameter, ParameterError, ParameterValue, Preset, RuleSet};
use serde::{Deserialize, Serialize};

/// Kuhn poker's rules under presets named by `NAMES`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct Named<const NAMES: usize>(KuhnRules);

/// The second preset's name: snake_case (0), then each way of breaking the
/// rule.
const SECOND: [&str; 5] = [
    "high_stakes",
    "high-stakes",
    "HighStakes",
    "Classic",
    "clas_sic",
];

impl<const NAMES: usize> RuleSet for Named<NAMES> {
    type Action = KuhnAction;
    type Error = <KuhnRules as RuleSet>::Error;
    fn validate(&self) -> Result<(), Self::Error> {
        self.0.validate()
    }
    fn action_space(&self) -> usize {
        self.0.action_space()
    }
    fn action_id(&self, action: KuhnAction) -> usize {
        self.0.action_id(action)
    }
    fn action_from_id(&self, id: usize) -> Option<KuhnAction> {
        self.0.action_from_id(id)
    }
    fn is_chance_outcome(&self, action: KuhnAction) -> bool {
        self.0.is_chance_outcome(action)
    }
    fn max_game_length(&self) -> u32 {
        self.0.max_game_length()
    }
    fn presets() -> Vec<Preset<Self>> {
        KuhnRules::presets()
            .into_iter()
            .zip(["classic", SECOND[NAMES]])
            .map(|(p, name)| Preset {
                name,
                rules: Named(p.rules),
                title: p.title,
                differences: p.differences,
                doc: p.doc,
            })
            .collect()
    }
    fn parameters() -> &'static [Parameter] {
        KuhnRules::parameters()
    }
    fn get(&self, name: &str) -> Option<ParameterValue> {
        self.0.get(name)
    }
    fn set(&mut self, name: &str, value: ParameterValue) -> Result<(), ParameterError> {
        self.0.set(name, value)
    }
}

#[test]
fn preset_names_are_snake_case() {
    check_preset_names::<KuhnRules>();
    check_preset_names::<NimRules>();
    check_preset_names::<Named<0>>();
}

#[test]
#[should_panic(
    expected = "preset names are snake_case: \"high-stakes\" has a character other than a-z, 0-9 and _; write \"high_stakes\""
)]
fn the_kit_refuses_a_kebab_case_preset_name() {
    check_preset_names::<Named<1>>();
}

#[test]
#[should_panic(expected = "write \"high_stakes\"")]
fn the_kit_refuses_a_camel_case_preset_name() {
    check_preset_names::<Named<2>>();
}

#[test]
#[should_panic(expected = "does not start with a lower-case letter")]
fn the_kit_refuses_a_capitalised_preset_name() {
    check_preset_names::<Named<3>>();
}

#[test]
#[should_panic(expected = "two names differ only in case or separators")]
fn the_kit_refuses_two_preset_names_that_read_the_same() {
    check_preset_names::<Named<4>>();
}

#[test]
fn a_preset_is_found_by_its_name_in_any_case_and_with_dashes() {
    for spelling in ["high_stakes", "high-stakes", "HIGH-STAKES", " High_Stakes "] {
        assert_eq!(
            Named::<0>::preset(spelling).map(|p| p.name),
            Some("high_stakes"),
            "{spelling}"
        );
    }
    assert_eq!(NimRules::preset("LONG").map(|p| p.name), Some("long"));
    assert!(KuhnRules::preset("low").is_none());
}
