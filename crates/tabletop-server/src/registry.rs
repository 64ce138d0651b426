//! The games this server offers.
//!
//! One function, [`registry`], so that the umbrella crate's full registry
//! (`tabletop_rules::registry()`) replaces its body when the real games
//! join; every test of this crate loops over whatever it lists.

use game_env::{GameDef, Registry};
use game_traits::kuhn::{KuhnPoker, KuhnRules};

/// The registry of games served: for now Kuhn poker, the workspace's
/// reference game with chance and hidden information.
pub fn registry() -> Registry {
    let mut r = Registry::new();
    r.register::<KuhnPoker>(GameDef {
        name: "kuhn",
        doc: "Kuhn poker, the smallest poker: three cards, one bet",
        preset_key: Some("variant"),
        presets: vec![
            ("classic", "ante 1", KuhnRules { ante: 1 }),
            ("high", "ante 3", KuhnRules { ante: 3 }),
        ],
        parameter_docs: &[("ante", "chips each player puts in before the deal")],
        aliases: &[],
        value_aliases: &[],
        knowledge: game_env::Knowledge {
            legend: "J < Q < K: your card; pass = check or fold, bet = bet or call; \
                     ? = a card you cannot see",
            ..Default::default()
        },
    });
    r
}
