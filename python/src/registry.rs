//! The games this package knows by name.

use game_env::{GameDef, Registry};
use game_traits::kuhn::{KuhnPoker, KuhnRules};

/// Every game the package offers, with its presets and parameters.
///
/// Everything in the package (the Python API, the OpenSpiel, PettingZoo
/// and Gymnasium adapters, the tests and examples) goes through this one
/// function and is written for whatever it lists.
pub fn registry() -> game_env::Registry {
    let mut r = Registry::new();
    r.register::<KuhnPoker>(GameDef {
        name: "kuhn_poker",
        doc: "Kuhn poker: three cards, one bet, the smallest poker (game theory's test bed)",
        preset_key: Some("variant"),
        presets: vec![
            ("classic", "ante 1, bet 1 (the textbook game)", KuhnRules { ante: 1 }),
            ("high", "ante 3, bet 1", KuhnRules { ante: 3 }),
        ],
        parameter_docs: &[("ante", "chips each player puts in before the deal (1..=100)")],
        aliases: &[],
        value_aliases: &[],
        knowledge: Default::default(),
    });
    r
}
