//! A one-decision game whose chance event is biased: the bots must weigh
//! outcomes by their listed probabilities, not uniformly.

use std::fmt;

use game_agents::{Budget, FlatMonteCarlo, FlatMonteCarloConfig, Ismcts, IsmctsConfig};
use game_traits::{Agent, Game, GameRng, Outcome, PlayerId, Preset, RuleSet, Turn};
use rand::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};

/// Player 0 calls a side, then a coin that shows heads with probability
/// `heads_per_mille / 1000` is tossed; a right call wins.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct CoinGame {
    rules: CoinRules,
    call: Option<Side>,
    toss: Option<Side>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
struct CoinRules {
    heads_per_mille: u16,
}

impl Default for CoinRules {
    fn default() -> Self {
        CoinRules {
            heads_per_mille: 700,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
enum Side {
    Heads,
    Tails,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
enum CoinAction {
    Call(Side),
    Toss(Side),
}

impl fmt::Display for CoinAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

/// The game's actions read back from their `Debug` text (`Call(Heads)`),
/// as the `Game` trait asks of every action type.
impl std::str::FromStr for CoinAction {
    type Err = Illegal;
    fn from_str(s: &str) -> Result<Self, Illegal> {
        [Side::Heads, Side::Tails]
            .into_iter()
            .flat_map(|side| [CoinAction::Call(side), CoinAction::Toss(side)])
            .find(|a| a.to_string() == s)
            .ok_or(Illegal)
    }
}

impl fmt::Display for CoinGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("illegal")]
struct Illegal;

impl RuleSet for CoinRules {
    type Action = CoinAction;
    type Error = Illegal;
    fn validate(&self) -> Result<(), Illegal> {
        if !(1..1000).contains(&self.heads_per_mille) {
            return Err(Illegal);
        }
        Ok(())
    }
    fn is_chance_outcome(&self, action: CoinAction) -> bool {
        matches!(action, CoinAction::Toss(_))
    }
    fn max_game_length(&self) -> u32 {
        2
    }
    fn action_space(&self) -> usize {
        4
    }
    fn action_id(&self, action: CoinAction) -> usize {
        match action {
            CoinAction::Call(s) => s as usize,
            CoinAction::Toss(s) => 2 + s as usize,
        }
    }
    fn action_from_id(&self, id: usize) -> Option<CoinAction> {
        let side = |i| if i == 0 { Side::Heads } else { Side::Tails };
        match id {
            0 | 1 => Some(CoinAction::Call(side(id))),
            2 | 3 => Some(CoinAction::Toss(side(id - 2))),
            _ => None,
        }
    }
    fn presets() -> Vec<Preset<Self>> {
        vec![Preset::new(
            "loaded",
            "Loaded",
            "Heads 7 times in 10.",
            "heads 7 times in 10",
            CoinRules::default(),
        )]
    }
    game_traits::parameter_table! {
        heads_per_mille: Int { min: 1, max: 999 }, "chance of heads, per mille";
    }
}

impl CoinGame {
    fn heads(&self) -> f64 {
        f64::from(self.rules.heads_per_mille) / 1000.0
    }
}

impl Game for CoinGame {
    type Rules = CoinRules;
    type Action = CoinAction;
    type Observation = CoinGame;
    type Error = Illegal;
    type ActionView = CoinAction;
    const NAME: &'static str = "coin";
    const TITLE: &'static str = "Coin";

    fn new(rules: &CoinRules) -> Result<Self, Illegal> {
        rules.validate()?;
        Ok(CoinGame {
            rules: *rules,
            call: None,
            toss: None,
        })
    }
    fn rules(&self) -> &CoinRules {
        &self.rules
    }
    fn turn(&self) -> Turn {
        match (self.call, self.toss) {
            (None, _) => Turn::Player(PlayerId::P0),
            (Some(_), None) => Turn::Chance,
            _ => Turn::Terminal,
        }
    }
    fn legal_actions(&self, out: &mut Vec<CoinAction>) {
        out.clear();
        match self.turn() {
            Turn::Player(_) => {
                out.extend([CoinAction::Call(Side::Heads), CoinAction::Call(Side::Tails)])
            }
            Turn::Chance => {
                out.extend([CoinAction::Toss(Side::Heads), CoinAction::Toss(Side::Tails)])
            }
            Turn::Terminal => {}
        }
    }
    fn check_action(&self, action: CoinAction) -> Result<(), Illegal> {
        match (self.turn(), action) {
            (Turn::Player(_), CoinAction::Call(_)) | (Turn::Chance, CoinAction::Toss(_)) => Ok(()),
            _ => Err(Illegal),
        }
    }
    fn apply_unchecked(&mut self, action: CoinAction) {
        match action {
            CoinAction::Call(s) => self.call = Some(s),
            CoinAction::Toss(s) => self.toss = Some(s),
        }
    }
    fn action_view(&self, _: PlayerId, action: CoinAction) -> CoinAction {
        // Nothing is hidden in this game.
        action
    }
    fn chance_outcomes(&self, out: &mut Vec<(CoinAction, f64)>) {
        out.clear();
        if self.turn() == Turn::Chance {
            out.push((CoinAction::Toss(Side::Heads), self.heads()));
            out.push((CoinAction::Toss(Side::Tails), 1.0 - self.heads()));
        }
    }
    fn observation(&self, _: PlayerId) -> CoinGame {
        self.clone()
    }
    fn determinize<R: Rng + ?Sized>(obs: &CoinGame, _: &mut R) -> Result<Self, Illegal> {
        Ok(obs.clone())
    }
    fn outcome(&self) -> Option<Outcome> {
        let (call, toss) = (self.call?, self.toss?);
        Some(Outcome::Win(if call == toss {
            PlayerId::P0
        } else {
            PlayerId::P1
        }))
    }
    fn returns(&self, player: PlayerId) -> f64 {
        match self.outcome() {
            Some(Outcome::Win(w)) if w == player => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        }
    }
    fn move_count(&self) -> u32 {
        u32::from(self.call.is_some())
    }
}

fn decide(agent: &mut dyn Agent<CoinGame>, rules: CoinRules, seed: u64) -> CoinAction {
    let state = CoinGame::new(&rules).unwrap();
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    agent.choose(
        &state.observation(PlayerId::P0),
        &legal,
        &mut GameRng::seed_from_u64(seed),
    )
}

#[test]
fn ismcts_weighs_chance_outcomes_by_their_probabilities() {
    for (per_mille, likely) in [(700, Side::Heads), (300, Side::Tails)] {
        let rules = CoinRules {
            heads_per_mille: per_mille,
        };
        for seed in 0..20 {
            let mut bot = Ismcts::new(IsmctsConfig {
                budget: Budget::Iterations(300),
                ..IsmctsConfig::default()
            });
            assert_eq!(
                decide(&mut bot, rules, seed),
                CoinAction::Call(likely),
                "seed {seed}"
            );
        }
    }
}

#[test]
fn flat_monte_carlo_weighs_chance_outcomes_by_their_probabilities() {
    let rules = CoinRules {
        heads_per_mille: 300,
    };
    for seed in 0..20 {
        let mut bot = FlatMonteCarlo::new(FlatMonteCarloConfig {
            budget: Budget::Iterations(400),
            ..FlatMonteCarloConfig::default()
        });
        assert_eq!(
            decide(&mut bot, rules, seed),
            CoinAction::Call(Side::Tails),
            "seed {seed}"
        );
    }
}
