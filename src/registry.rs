//! Every game of the workspace by name, with its presets and parameters:
//! the one place a game is added. The arena, `play`, `replay`, the Python
//! package and the server all load games from [`registry`].

use std::sync::Arc;

use game_env::{DynGame, EnvError, GameDef, Knowledge, Registry};
use game_traits::kuhn::{KuhnPoker, KuhnRules};

/// Every game compiled in (features `battleline`, `stratego`, `cardwar`),
/// and Kuhn poker, the smallest game of game theory, for algorithms that
/// need a game small enough to solve.
pub fn registry() -> Registry {
    let mut r = Registry::new();
    #[cfg(feature = "battleline")]
    register_battleline(&mut r);
    #[cfg(feature = "stratego")]
    register_stratego(&mut r);
    #[cfg(feature = "cardwar")]
    register_cardwar(&mut r);
    r.register::<KuhnPoker>(GameDef {
        name: "kuhn_poker",
        doc: "Kuhn poker: three cards, one bet, the smallest poker",
        preset_key: Some("variant"),
        presets: vec![
            (
                "classic",
                "ante 1, bet 1 (the textbook game)",
                KuhnRules { ante: 1 },
            ),
            ("high", "ante 3, bet 1", KuhnRules { ante: 3 }),
        ],
        parameter_docs: &[(
            "ante",
            "chips each player puts in before the deal (1..=100)",
        )],
        aliases: &[],
        value_aliases: &[],
        knowledge: Knowledge::default(),
    });
    r
}

#[cfg(feature = "battleline")]
fn register_battleline(r: &mut Registry) {
    use crate::battleline::{BattleLine, Heuristic, Rules, LEGEND};
    r.register::<BattleLine>(GameDef {
        name: "battleline",
        doc: "Battle Line",
        preset_key: Some("variant"),
        presets: Rules::presets(),
        parameter_docs: Rules::PARAMETER_DOCS,
        aliases: &[("order", "formation_order")],
        value_aliases: &[("formation_order", "gmt", "Published")],
        knowledge: Knowledge {
            // The heuristic's votes steer the search: random playouts alone
            // cannot tell Battle Line's 60-odd card placements apart
            // (docs/strength.md, "Generic search").
            heuristic: Some(|| Box::new(Heuristic)),
            policy: Some(|| Box::new(game_traits::Observing(Heuristic))),
            expert: Some(|b| Box::new(crate::battleline::Expert::new(b))),
            legend: LEGEND,
            ..Knowledge::default()
        },
    });
}

#[cfg(feature = "stratego")]
fn register_stratego(r: &mut Registry) {
    use crate::stratego::{material_evaluation, Heuristic, Observation, Rules, Stratego, LEGEND};
    // Random playouts of Stratego run for hundreds of moves: the search
    // bots cut them short and count the material instead, and leave the
    // setup, which such playouts cannot judge, to the heuristic.
    r.register::<Stratego>(GameDef {
        name: "stratego",
        doc: "Stratego",
        preset_key: Some("variant"),
        // The international classic game (ISF) first, so that `stratego`
        // alone means what it means to most players and in OpenSpiel.
        presets: Rules::presets(),
        parameter_docs: Rules::PARAMETER_DOCS,
        aliases: &[],
        value_aliases: &[],
        knowledge: Knowledge {
            defaults: game_env::SearchDefaults {
                ismcts_iterations: 100,
                flat_playouts: 100,
                playout_limit: Some(40),
                ..game_env::SearchDefaults::default()
            },
            evaluator: Some(material_evaluation),
            heuristic: Some(|| Box::new(Heuristic::default())),
            expert: Some(|b| Box::new(crate::stratego::Expert::new(b))),
            policy: Some(|| Box::new(game_traits::Observing(Heuristic::default()))),
            delegate: Some(game_env::Delegate {
                applies: Observation::in_setup,
                policy: || Box::new(Heuristic::default()),
            }),
            legend: LEGEND,
            routine: None,
        },
    });
}

#[cfg(feature = "cardwar")]
fn register_cardwar(r: &mut Registry) {
    use crate::cardwar::{Action, CardWar, Heuristic, Observation, Phase, Rules, LEGEND};
    // Asked before every fight, a prayer is offered to a person once per
    // battle: declined once, it is declined for him until the next battle.
    fn prayer_offer(obs: &Observation) -> Option<(u64, Action)> {
        let public = obs.public();
        matches!(public.phase, Phase::Pray { player } if player == obs.viewer()).then(|| {
            (
                u64::from(public.round) * 4 + u64::from(public.battle_no),
                Action::Decline,
            )
        })
    }
    // Mostly dice: the choices differ little under random playouts, so
    // ISMCTS needs more iterations to tell them apart (cheap here).
    r.register::<CardWar>(GameDef {
        name: "cardwar",
        doc: "Card war",
        preset_key: Some("variant"),
        presets: Rules::presets(),
        parameter_docs: Rules::PARAMETER_DOCS,
        aliases: &[],
        value_aliases: &[],
        knowledge: Knowledge {
            defaults: game_env::SearchDefaults {
                ismcts_iterations: 1000,
                ..game_env::SearchDefaults::default()
            },
            heuristic: Some(|| Box::new(Heuristic)),
            policy: Some(|| Box::new(game_traits::Observing(Heuristic))),
            legend: LEGEND,
            routine: Some(prayer_offer),
            ..Knowledge::default()
        },
    });
}

/// The tables the arena plays by default: each game's rule sets that
/// players know, one table each (`stratego` alone is the international
/// classic game; «Сражение» and the Czech rules are its named variants).
pub const ARENA_TABLES: &[&str] = &[
    "battleline",
    "stratego",
    "stratego/srazhenie",
    "stratego/czech",
    "cardwar",
];

/// The games of `selection` (comma-separated specifications; a game's name
/// alone is its default preset), or for `None` the arena's default tables
/// of the games compiled in.
pub fn select(
    registry: &Registry,
    selection: Option<&str>,
) -> Result<Vec<Arc<dyn DynGame>>, EnvError> {
    match selection {
        Some(list) => split_specs(list).iter().map(|s| registry.load(s)).collect(),
        None => {
            let compiled: Vec<String> = registry.list().into_iter().map(|g| g.name).collect();
            ARENA_TABLES
                .iter()
                .filter(|spec| {
                    compiled
                        .iter()
                        .any(|name| spec.split('/').next() == Some(name))
                })
                .map(|spec| registry.load(spec))
                .collect()
        }
    }
}

/// Splits a comma-separated list of specifications, keeping the commas
/// inside parentheses: `stratego(variant=czech,two_square_limit=3),cardwar`.
pub fn split_specs(list: &str) -> Vec<String> {
    let mut specs = Vec::new();
    let (mut depth, mut current) = (0i32, String::new());
    for c in list.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                specs.push(std::mem::take(&mut current).trim().to_owned());
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if !current.trim().is_empty() {
        specs.push(current.trim().to_owned());
    }
    specs
}
