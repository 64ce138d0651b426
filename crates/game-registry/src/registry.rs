//! Every game of the workspace by name, with its presets and parameters:
//! the one place a game is added.

use game_env::{GameDef, Knowledge, Registry, StandardClock};
use game_traits::kuhn::KuhnPoker;

/// The prefixes of the older bot protocols the registered games know
/// (`ucc:PROGRAM ARGS`), for parsers of bot names that do not know the
/// game yet; which rule sets a protocol's programs play is the game's to
/// say ([`game_env::DynGame::legacy_plays`]).
pub const LEGACY_PREFIXES: &[&str] = &[
    #[cfg(feature = "battleline")]
    crate::spelinski::PREFIX,
    #[cfg(feature = "stratego")]
    crate::ucc::PREFIX,
];

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
        preset_key: "variant",
        aliases: &[],
        value_aliases: &[],
        knowledge: Knowledge {
            // A hand of Kuhn poker is a bet or two: a minute a seat.
            clock: StandardClock::Fischer {
                base_ms: 60_000,
                increment_ms: 1_000,
            },
            ..Knowledge::default()
        },
    });
    r
}

#[cfg(feature = "battleline")]
fn register_battleline(r: &mut Registry) {
    use battleline_core::{BattleLine, Heuristic, LEGEND, MOVE_FORMS};
    r.register::<BattleLine>(GameDef {
        name: "battleline",
        doc: "Battle Line",
        preset_key: "variant",
        aliases: &[("order", "formation_order")],
        value_aliases: &[("formation_order", "gmt", "Published")],
        knowledge: Knowledge {
            // The heuristic's votes steer the search: random playouts alone
            // cannot tell Battle Line's 60-odd card placements apart
            // (docs/strength.md, "Generic search").
            heuristic: Some(|| Box::new(Heuristic)),
            policy: Some(|| Box::new(game_traits::Observing(Heuristic))),
            expert: Some(|b| Box::new(battleline_core::Expert::new(b))),
            // The expert's sparring partners (docs/strength.md, "The
            // Battle Line expert").
            sparring: &[
                game_env::Sparring {
                    name: "prob",
                    about: "per-flag odds, the move for the game's chance (Deep Barca style)",
                    make: |b| Box::new(battleline_core::Prob::new(b)),
                },
                game_env::Sparring {
                    name: "expert-v1",
                    about: "the expert of issue 29, frozen",
                    make: |b| Box::new(battleline_core::ExpertV1::new(b)),
                },
            ],
            legend: LEGEND,
            move_forms: MOVE_FORMS,
            clock: StandardClock::Fischer {
                base_ms: 300_000,
                increment_ms: 5_000,
            },
            legacy: &[game_env::LegacyProtocol {
                prefix: crate::spelinski::PREFIX,
                plays: crate::spelinski::plays,
                spawn: |argv, time_limit| {
                    let config = crate::spelinski::SpelinskiConfig { argv, time_limit };
                    Ok(Box::new(crate::spelinski::SpelinskiBot::spawn(config)?))
                },
            }],
            ..Knowledge::default()
        },
    });
}

#[cfg(feature = "stratego")]
fn register_stratego(r: &mut Registry) {
    use stratego_core::{
        material_evaluation, Heuristic, Observation, Stratego, LEGEND, MOVE_FORMS,
    };
    // Random playouts of Stratego run for hundreds of moves: the search
    // bots cut them short and count the material instead, and leave the
    // setup, which such playouts cannot judge, to the heuristic.
    r.register::<Stratego>(GameDef {
        name: "stratego",
        doc: "Stratego",
        preset_key: "variant",
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
            expert: Some(|b| Box::new(stratego_core::Expert::new(b))),
            policy: Some(|| Box::new(game_traits::Observing(Heuristic::default()))),
            delegate: Some(game_env::Delegate {
                applies: Observation::in_setup,
                policy: || Box::new(Heuristic::default()),
            }),
            legacy: &[game_env::LegacyProtocol {
                prefix: crate::ucc::PREFIX,
                plays: crate::ucc::plays,
                spawn: |argv, time_limit| {
                    let config = crate::ucc::UccConfig { argv, time_limit };
                    Ok(Box::new(crate::ucc::UccBot::spawn(config)?))
                },
            }],
            legend: LEGEND,
            move_forms: MOVE_FORMS,
            routine: None,
            // The ISF clock of Gravon's tournaments.
            clock: StandardClock::Bronstein {
                base_ms: 12 * 60_000,
                delay_ms: 4_000,
            },
            setups: Some(stratego_setup),
            setup_forms: Some(game_env::SetupForms {
                read: |rules, text| {
                    stratego_core::Setup::from_text(
                        rules.variant,
                        &text.trim().to_ascii_uppercase(),
                    )
                    .map(|s| {
                        s.kinds()
                            .iter()
                            .map(|&k| stratego_core::Action::Place(k))
                            .collect()
                    })
                    .map_err(|e| e.to_string())
                },
                write: |rules, placements| {
                    let kinds: Vec<_> = placements
                        .iter()
                        .map(|a| match a {
                            stratego_core::Action::Place(k) => Some(*k),
                            _ => None,
                        })
                        .collect::<Option<_>>()?;
                    let kinds = kinds.try_into().ok()?;
                    Some(
                        stratego_core::Setup::new(rules.variant, kinds)
                            .ok()?
                            .to_text(),
                    )
                },
                square: |_, seat, name| stratego_core::SetupSquare::named(seat, name)?.index(),
                help: |rules| stratego_core::Setup::writing_help(rules.variant),
            }),
            sparring: &[game_env::Sparring {
                name: "expert-v1",
                about:
                    "the first Stratego expert, frozen: a two-ply search over B determinisations",
                make: |b| Box::new(stratego_core::Expert::v1(b)),
            }],
        },
    });
}

/// Stratego's setup editor starts from a uniformly random setup or one
/// drawn from the model of human setups that its expert sets up with.
#[cfg(feature = "stratego")]
fn stratego_setup(
    rules: &stratego_core::Rules,
    kind: game_env::SetupKind,
    rng: &mut game_traits::GameRng,
) -> game_env::SuggestedSetup<stratego_core::Action> {
    use stratego_core::{Action, Setup, SETUP_SQUARES};
    let setup = match kind {
        game_env::SetupKind::Random => Setup::shuffle(rules.variant, rng),
        game_env::SetupKind::Human => Setup::human_like(rules.variant, rng),
    };
    game_env::SuggestedSetup {
        rows: SETUP_SQUARES / 10,
        cols: 10,
        placements: setup.kinds().iter().map(|&k| Action::Place(k)).collect(),
    }
}

#[cfg(feature = "cardwar")]
fn register_cardwar(r: &mut Registry) {
    use cardwar_core::{CardWar, Expert, Heuristic, Observation, LEGEND, MOVE_FORMS};
    // Mostly dice: the choices differ little under random playouts, so
    // ISMCTS needs more iterations to tell them apart (cheap here).
    r.register::<CardWar>(GameDef {
        name: "cardwar",
        doc: "Card war",
        preset_key: "variant",
        aliases: &[],
        value_aliases: &[],
        knowledge: Knowledge {
            defaults: game_env::SearchDefaults {
                ismcts_iterations: 1000,
                ..game_env::SearchDefaults::default()
            },
            heuristic: Some(|| Box::new(Heuristic)),
            // The expert does not search: a budget means nothing to it.
            expert: Some(|_| Box::new(Expert)),
            policy: Some(|| Box::new(game_traits::Observing(Heuristic))),
            legend: LEGEND,
            move_forms: MOVE_FORMS,
            clock: StandardClock::Fischer {
                base_ms: 300_000,
                increment_ms: 3_000,
            },
            // Asked before every fight, a prayer is offered to a person once
            // per battle.
            routine: Some(Observation::prayer_offer),
            ..Knowledge::default()
        },
    });
}
