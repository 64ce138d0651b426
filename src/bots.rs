//! Bots chosen by name, as the examples' `--bots` flag and the play
//! session take them.

use std::fmt;
use std::str::FromStr;

use game_agents::{
    Budget, FlatMonteCarlo, FlatMonteCarloConfig, Ismcts, IsmctsConfig, RandomAgent,
};
use game_traits::{Agent, Game};

/// A bot by name: `random`, `flat[:N]`, `ismcts[:N]` or `heuristic`
/// (`N` = playouts or iterations per decision; without it the game's
/// default).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BotSpec {
    /// Uniform random ([`RandomAgent`]).
    Random,
    /// [`FlatMonteCarlo`] with this many playouts, or the game's default.
    Flat(Option<u32>),
    /// [`Ismcts`] with this many iterations, or the game's default.
    Ismcts(Option<u32>),
    /// The game's own heuristic bot, where it has one.
    Heuristic,
}

/// Why a bot name was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown bot {0:?}: expected random, flat[:N], ismcts[:N] or heuristic")]
pub struct BotSpecError(pub String);

impl FromStr for BotSpec {
    type Err = BotSpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || BotSpecError(s.to_owned());
        let lower = s.trim().to_ascii_lowercase();
        let (name, count) = match lower.split_once(':') {
            Some((name, n)) => (name, Some(n.parse::<u32>().map_err(|_| err())?)),
            None => (lower.as_str(), None),
        };
        match (name, count) {
            ("random", None) => Ok(BotSpec::Random),
            ("heuristic", None) => Ok(BotSpec::Heuristic),
            ("flat" | "flat-mc", n) => Ok(BotSpec::Flat(n)),
            ("ismcts", n) => Ok(BotSpec::Ismcts(n)),
            _ => Err(err()),
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Random => f.write_str("random"),
            BotSpec::Heuristic => f.write_str("heuristic"),
            BotSpec::Flat(None) => f.write_str("flat"),
            BotSpec::Flat(Some(n)) => write!(f, "flat:{n}"),
            BotSpec::Ismcts(None) => f.write_str("ismcts"),
            BotSpec::Ismcts(Some(n)) => write!(f, "ismcts:{n}"),
        }
    }
}

/// A game's search settings when the bot name gives no budget: what makes a
/// decision quick enough for a short arena round in that game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchDefaults {
    /// ISMCTS iterations per decision.
    pub ismcts_iterations: u32,
    /// Flat Monte Carlo playouts per decision.
    pub flat_playouts: u32,
    /// Cut playouts off after this many actions (`None`: play to the end).
    pub playout_limit: Option<u32>,
}

impl Default for SearchDefaults {
    fn default() -> Self {
        SearchDefaults {
            ismcts_iterations: 200,
            flat_playouts: 200,
            playout_limit: None,
        }
    }
}

/// A game's heuristic bot, if it has one.
pub type HeuristicFactory<G> = fn() -> Box<dyn Agent<G>>;

/// Builds the bot `spec` for game `G`; `None` for `heuristic` when the game
/// has none.
pub fn build_agent<G: Game + 'static>(
    spec: BotSpec,
    defaults: SearchDefaults,
    heuristic: Option<HeuristicFactory<G>>,
) -> Option<Box<dyn Agent<G>>> {
    Some(match spec {
        BotSpec::Random => Box::new(RandomAgent),
        BotSpec::Flat(n) => Box::new(FlatMonteCarlo::<G>::new(FlatMonteCarloConfig {
            budget: Budget::Iterations(n.unwrap_or(defaults.flat_playouts)),
            playout_limit: defaults.playout_limit,
        })),
        BotSpec::Ismcts(n) => Box::new(Ismcts::<G>::new(IsmctsConfig {
            budget: Budget::Iterations(n.unwrap_or(defaults.ismcts_iterations)),
            playout_limit: defaults.playout_limit,
            ..IsmctsConfig::default()
        })),
        BotSpec::Heuristic => heuristic?(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_names_parse_and_print_back() {
        for name in [
            "random",
            "heuristic",
            "flat",
            "flat:50",
            "ismcts",
            "ismcts:300",
        ] {
            let spec: BotSpec = name.parse().unwrap();
            assert_eq!(spec.to_string(), name);
        }
        assert_eq!("ISMCTS:7".parse(), Ok(BotSpec::Ismcts(Some(7))));
        for bad in ["", "mcts", "ismcts:", "ismcts:-1", "random:3", "flat:x"] {
            assert!(bad.parse::<BotSpec>().is_err(), "{bad:?}");
        }
    }
}
