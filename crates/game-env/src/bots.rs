//! Bots chosen by name (`random`, `flat:N`, `ismcts:N`, `heuristic`,
//! `expert[:B]`, or a name of the game's own sparring bots), built for any
//! game from what the game knows of itself.

use std::fmt;
use std::str::FromStr;

use game_agents::{
    Budget, Evaluator, FlatMonteCarlo, FlatMonteCarloConfig, Ismcts, IsmctsConfig, RandomAgent,
};
use game_traits::{Agent, Game, Policy};

use crate::opponent::Opponent;

/// A bot by name: `random`, `flat[:B]`, `ismcts[:B]` or `heuristic`, where
/// the budget `B` of a search bot is per decision, in playouts or
/// iterations (`ismcts:300`, reproducible) or in milliseconds
/// (`ismcts:50ms`, to compare bots at equal time); without it the game's
/// default iterations. `random` and `heuristic` decide at once and take no
/// budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BotSpec {
    /// Uniform random ([`RandomAgent`]).
    Random,
    /// [`FlatMonteCarlo`] with this budget, or the game's default playouts.
    Flat(Option<Budget>),
    /// [`Ismcts`] with this budget, or the game's default iterations.
    Ismcts(Option<Budget>),
    /// The game's own heuristic bot, where it has one.
    Heuristic,
    /// The game's expert (its strongest bot) with this budget, or the
    /// expert's own default, where the game has one.
    Expert(Option<Budget>),
    /// One of the game's sparring bots ([`Knowledge::sparring`]) by its
    /// name, with this budget or its own default.
    Sparring(BotName, Option<Budget>),
}

/// The name of a game's own bot beyond the generic ones (`prob`,
/// `expert-v1`): 1 to [`BotName::MAX_LEN`] lowercase ASCII letters, digits
/// and `-`, starting with a letter. Kept inline so that [`BotSpec`] stays
/// `Copy`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BotName {
    bytes: [u8; BotName::MAX_LEN],
    len: u8,
}

impl BotName {
    /// The longest name.
    pub const MAX_LEN: usize = 24;

    /// `name` if it is a valid bot name (lowercased), else `None`.
    pub fn new(name: &str) -> Option<BotName> {
        let name = name.as_bytes();
        let valid = (1..=Self::MAX_LEN).contains(&name.len())
            && name[0].is_ascii_alphabetic()
            && name.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'-');
        if !valid {
            return None;
        }
        let mut bytes = [0; Self::MAX_LEN];
        for (to, from) in bytes.iter_mut().zip(name) {
            *to = from.to_ascii_lowercase();
        }
        Some(BotName {
            bytes,
            len: name.len() as u8,
        })
    }

    /// The name as text.
    pub fn as_str(&self) -> &str {
        // Only ASCII bytes are ever stored (checked in `new`).
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }
}

impl fmt::Debug for BotName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for BotName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl BotSpec {
    /// The budget the name gives, if any.
    pub fn budget(self) -> Option<Budget> {
        match self {
            BotSpec::Flat(b)
            | BotSpec::Ismcts(b)
            | BotSpec::Expert(b)
            | BotSpec::Sparring(_, b) => b,
            BotSpec::Random | BotSpec::Heuristic => None,
        }
    }

    /// The bot as a person reads its name on a screen: what it is, never
    /// its budget (`expert:96` is "the expert, the game's strongest bot").
    pub fn plain_name(self) -> String {
        match self {
            BotSpec::Random => "a random bot".to_owned(),
            BotSpec::Heuristic => "the heuristic bot".to_owned(),
            BotSpec::Flat(_) => "flat Monte Carlo search".to_owned(),
            BotSpec::Ismcts(_) => "ISMCTS search".to_owned(),
            BotSpec::Expert(_) => "the expert, the game's strongest bot".to_owned(),
            BotSpec::Sparring(name, _) => format!("the bot {name}"),
        }
    }

    /// This bot with `budget` where the name gave none (a search bot
    /// without a budget); every other name unchanged.
    pub fn or_budget(self, budget: Budget) -> Self {
        match self {
            BotSpec::Flat(None) => BotSpec::Flat(Some(budget)),
            BotSpec::Ismcts(None) => BotSpec::Ismcts(Some(budget)),
            BotSpec::Expert(None) => BotSpec::Expert(Some(budget)),
            BotSpec::Sparring(name, None) => BotSpec::Sparring(name, Some(budget)),
            other => other,
        }
    }
}

/// Why a bot name was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown bot {0:?}: expected random, heuristic, flat[:B], ismcts[:B], expert[:B] or a \
     game's own bot name[:B] (B = iterations such as 300, or milliseconds such as 50ms)"
)]
pub struct BotSpecError(pub String);

impl FromStr for BotSpec {
    type Err = BotSpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || BotSpecError(s.chars().take(60).collect());
        let lower = s.trim().to_ascii_lowercase();
        let (name, budget) = match lower.split_once(':') {
            Some((name, b)) => (name, Some(b.parse::<Budget>().map_err(|_| err())?)),
            None => (lower.as_str(), None),
        };
        match (name, budget) {
            ("random", None) => Ok(BotSpec::Random),
            ("heuristic", None) => Ok(BotSpec::Heuristic),
            ("flat" | "flat-mc", b) => Ok(BotSpec::Flat(b)),
            ("ismcts", b) => Ok(BotSpec::Ismcts(b)),
            ("expert", b) => Ok(BotSpec::Expert(b)),
            ("random" | "heuristic", Some(_)) => Err(err()),
            (name, b) => BotName::new(name)
                .map(|name| BotSpec::Sparring(name, b))
                .ok_or_else(err),
        }
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpec::Random => f.write_str("random"),
            BotSpec::Heuristic => f.write_str("heuristic"),
            BotSpec::Flat(None) => f.write_str("flat"),
            BotSpec::Flat(Some(b)) => write!(f, "flat:{b}"),
            BotSpec::Ismcts(None) => f.write_str("ismcts"),
            BotSpec::Ismcts(Some(b)) => write!(f, "ismcts:{b}"),
            BotSpec::Expert(None) => f.write_str("expert"),
            BotSpec::Expert(Some(b)) => write!(f, "expert:{b}"),
            BotSpec::Sparring(name, None) => write!(f, "{name}"),
            BotSpec::Sparring(name, Some(b)) => write!(f, "{name}:{b}"),
        }
    }
}

/// A game's search settings when the bot name gives no budget: what makes a
/// decision quick enough for a short arena round in that game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchDefaults {
    /// ISMCTS iterations per decision.
    pub ismcts_iterations: u32,
    /// Flat Monte Carlo playouts per decision.
    pub flat_playouts: u32,
    /// Cut playouts off after this many actions (`None`: play to the end).
    pub playout_limit: Option<u32>,
    /// With a [`Knowledge::policy`]: the share of ISMCTS playout decisions
    /// the policy plays (the rest are uniform draws).
    pub greed: f64,
}

impl Default for SearchDefaults {
    fn default() -> Self {
        SearchDefaults {
            ismcts_iterations: 200,
            flat_playouts: 200,
            playout_limit: None,
            greed: 0.0,
        }
    }
}

/// A game's heuristic bot, if it has one.
pub type HeuristicFactory<G> = fn() -> Box<dyn Agent<G> + Send>;

/// A game's expert bot with a per-decision budget (`None`: the expert's
/// own default), if it has one.
pub type ExpertFactory<G> = fn(Option<Budget>) -> Box<dyn Agent<G> + Send>;

/// A game's playout policy for the search bots, if it has one.
pub type PolicyFactory<G> = fn() -> Box<dyn Policy<G>>;

/// What a game brings to the generic bots: search settings, a value of
/// cut-off playouts and its own heuristic bot, each optional.
pub struct Knowledge<G: Game> {
    /// Budgets and playout limit.
    pub defaults: SearchDefaults,
    /// Values playouts cut off by [`SearchDefaults::playout_limit`].
    pub evaluator: Option<Evaluator<G>>,
    /// The game's heuristic bot.
    pub heuristic: Option<HeuristicFactory<G>>,
    /// The game's expert: its strongest bot, which plays under a budget.
    pub expert: Option<ExpertFactory<G>>,
    /// The game's other bots by name (`prob`, `expert-v1`): sparring
    /// partners kept to measure the expert against, built by
    /// [`BotSpec::Sparring`].
    pub sparring: &'static [Sparring<G>],
    /// Gives ISMCTS its prior over the bot's moves and plays the share
    /// [`SearchDefaults::greed`] of its playouts' decisions.
    pub policy: Option<PolicyFactory<G>>,
    /// Decisions the search bots leave to a game policy (Stratego's
    /// setup, which playouts cut off early cannot judge).
    pub delegate: Option<Delegate<G>>,
    /// What every code of the game's rendering means, for screens.
    pub legend: &'static str,
    /// The move forms a person may type beyond the listed notation (`R7
    /// F1`, `e4e5`, `10a`), for a help screen; empty when the game reads
    /// only its notation.
    pub move_forms: &'static str,
    /// Bot programs of older protocols that play this game.
    pub legacy: &'static [LegacyProtocol<G>],
    /// A question the game asks again and again with the same usual answer
    /// (card war's offer to pray before every fight): at this observation,
    /// the question's key (one key per occasion, e.g. per battle) and the
    /// answer that declines it. A play session asks a person once per key.
    pub routine: Option<Routine<G>>,
    /// The time control the game is played under unless its players ask
    /// for another.
    pub clock: crate::StandardClock,
    /// The game's setup generator, if it has a setup phase to suggest
    /// setups for.
    pub setups: Option<crate::SetupSuggester<G>>,
    /// How a person writes a setup and names its squares, if the game has
    /// a setup phase a terminal sets up in one step.
    pub setup_forms: Option<crate::SetupForms<G>>,
}

/// A game's own bot beyond the generic ones, chosen by its name.
pub struct Sparring<G: Game> {
    /// Its name in bot lists ([`BotName`]'s form).
    pub name: &'static str,
    /// What it is, in a few words, for `--help` and reports.
    pub about: &'static str,
    /// Builds it with a per-decision budget (`None`: its own default).
    pub make: ExpertFactory<G>,
}

/// A bot program of an older text protocol that plays some rule sets of a
/// game (the spelinski Battle Line engine's, the UCC 2012 Stratego
/// competition's): named by its prefix (`ucc:PROGRAM ARGS`), refereed by
/// the game's own code on the one process driver.
pub struct LegacyProtocol<G: Game> {
    /// The prefix of its bot names (`spelinski`, `ucc`).
    pub prefix: &'static str,
    /// `Ok` for the rule sets its programs play, else why not.
    pub plays: fn(&G::Rules) -> Result<(), String>,
    /// Starts the program `argv` with a per-decision time limit.
    pub spawn: LegacySpawn,
}

/// Starts a legacy protocol's program with its arguments and a
/// per-decision time limit.
pub type LegacySpawn =
    fn(Vec<String>, std::time::Duration) -> Result<Box<dyn Opponent>, crate::BotFailure>;

/// See [`Knowledge::routine`].
pub type Routine<G> = fn(&<G as Game>::Observation) -> Option<(u64, <G as Game>::Action)>;

/// Which decisions go to which policy instead of the search.
pub struct Delegate<G: Game> {
    /// Whether the decision at this observation is delegated.
    pub applies: fn(&G::Observation) -> bool,
    /// The policy that takes it.
    pub policy: HeuristicFactory<G>,
}

impl<G: Game> Clone for Delegate<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Delegate<G> {}

/// A search bot that hands the decisions of a [`Delegate`] to its policy.
struct Delegating<G: Game> {
    search: Box<dyn Agent<G> + Send>,
    applies: fn(&G::Observation) -> bool,
    policy: Box<dyn Agent<G> + Send>,
}

impl<G: Game> Agent<G> for Delegating<G> {
    fn name(&self) -> String {
        self.search.name()
    }

    fn choose(
        &mut self,
        observation: &G::Observation,
        legal: &[G::Action],
        rng: &mut game_traits::GameRng,
    ) -> G::Action {
        if (self.applies)(observation) {
            self.policy.choose(observation, legal, rng)
        } else {
            self.search.choose(observation, legal, rng)
        }
    }
}

impl<G: Game> Default for Knowledge<G> {
    fn default() -> Self {
        Knowledge {
            defaults: SearchDefaults::default(),
            evaluator: None,
            heuristic: None,
            expert: None,
            sparring: &[],
            policy: None,
            delegate: None,
            legend: "",
            move_forms: "",
            legacy: &[],
            routine: None,
            clock: crate::StandardClock::default(),
            setups: None,
            setup_forms: None,
        }
    }
}

impl<G: Game> Clone for Knowledge<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Knowledge<G> {}

/// Builds the bot `spec` for game `G`; `None` for `heuristic` or `expert`
/// when the game has none.
pub fn build_agent<G: Game + 'static>(
    spec: BotSpec,
    knowledge: &Knowledge<G>,
) -> Option<Box<dyn Agent<G> + Send>> {
    let defaults = knowledge.defaults;
    let search: Box<dyn Agent<G> + Send> = match spec {
        BotSpec::Random => Box::new(RandomAgent),
        BotSpec::Flat(n) => {
            let bot = FlatMonteCarlo::<G>::new(FlatMonteCarloConfig {
                budget: n.unwrap_or(Budget::Iterations(defaults.flat_playouts)),
                playout_limit: defaults.playout_limit,
            });
            match knowledge.evaluator {
                Some(f) => Box::new(bot.with_evaluator(f)),
                None => Box::new(bot),
            }
        }
        BotSpec::Ismcts(n) => {
            let bot = Ismcts::<G>::new(IsmctsConfig {
                budget: n.unwrap_or(Budget::Iterations(defaults.ismcts_iterations)),
                playout_limit: defaults.playout_limit,
                greed: defaults.greed,
                ..IsmctsConfig::default()
            });
            let bot = match knowledge.policy {
                Some(make) => bot.with_policy(make()),
                None => bot,
            };
            match knowledge.evaluator {
                Some(f) => Box::new(bot.with_evaluator(f)),
                None => Box::new(bot),
            }
        }
        BotSpec::Heuristic => return knowledge.heuristic.map(|make| make()),
        BotSpec::Expert(b) => return knowledge.expert.map(|make| make(b)),
        BotSpec::Sparring(name, b) => {
            return knowledge
                .sparring
                .iter()
                .find(|s| s.name == name.as_str())
                .map(|s| (s.make)(b))
        }
    };
    Some(match knowledge.delegate {
        Some(d) if spec != BotSpec::Random => Box::new(Delegating {
            search,
            applies: d.applies,
            policy: (d.policy)(),
        }),
        _ => search,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_never_show_a_budget() {
        for text in ["expert", "expert:96", "expert:20ms"] {
            let spec: BotSpec = text.parse().unwrap();
            assert_eq!(spec.plain_name(), "the expert, the game's strongest bot");
        }
        for (text, budget) in [
            ("ismcts:300", "300"),
            ("flat:50ms", "50"),
            ("prob:12", "12"),
        ] {
            let plain = text.parse::<BotSpec>().unwrap().plain_name();
            assert!(!plain.contains(':') && !plain.contains(budget), "{plain}");
        }
    }

    #[test]
    fn bot_names_parse_and_print_back() {
        for name in [
            "random",
            "heuristic",
            "flat",
            "flat:50",
            "flat:20ms",
            "ismcts",
            "ismcts:300",
            "ismcts:50ms",
            "expert",
            "expert:400",
            "expert:10ms",
            "prob",
            "expert-v1:5ms",
        ] {
            let spec: BotSpec = name.parse().unwrap();
            assert_eq!(spec.to_string(), name);
        }
        assert_eq!(
            "ISMCTS:7".parse(),
            Ok(BotSpec::Ismcts(Some(Budget::Iterations(7))))
        );
        assert_eq!(
            "ismcts:50ms".parse(),
            Ok(BotSpec::Ismcts(Some(Budget::Time(
                std::time::Duration::from_millis(50)
            ))))
        );
        for bad in [
            "",
            "ismcts:",
            "ismcts:-1",
            "ismcts:0",
            "ismcts:0ms",
            "ismcts:5s",
            "random:3",
            "heuristic:50ms",
            "flat:x",
            "-prob",
            "9lives",
            "a_b",
            "a-very-long-bot-name-over-24",
        ] {
            assert!(bad.parse::<BotSpec>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn sparring_bots_are_built_by_their_name_only() {
        use game_traits::kuhn::KuhnPoker;
        const SPARRING: &[Sparring<KuhnPoker>] = &[Sparring {
            name: "always-first",
            about: "the first legal move",
            make: |_| Box::new(RandomAgent),
        }];
        let knowledge = Knowledge::<KuhnPoker> {
            sparring: SPARRING,
            ..Knowledge::default()
        };
        let spec: BotSpec = "Always-First:5".parse().unwrap();
        assert_eq!(spec.to_string(), "always-first:5");
        assert!(build_agent(spec, &knowledge).is_some());
        let other: BotSpec = "prob".parse().unwrap();
        assert!(build_agent(other, &knowledge).is_none());
        assert!(build_agent::<KuhnPoker>(spec, &Knowledge::default()).is_none());
    }

    #[test]
    fn time_budget_fills_only_unbudgeted_search_bots() {
        let ms = Budget::Time(std::time::Duration::from_millis(10));
        let fixed = Some(Budget::Iterations(30));
        assert_eq!(BotSpec::Ismcts(None).or_budget(ms).budget(), Some(ms));
        assert_eq!(BotSpec::Flat(None).or_budget(ms).budget(), Some(ms));
        assert_eq!(BotSpec::Ismcts(fixed).or_budget(ms).budget(), fixed);
        assert_eq!(BotSpec::Heuristic.or_budget(ms), BotSpec::Heuristic);
        assert_eq!(BotSpec::Random.or_budget(ms), BotSpec::Random);
    }
}
