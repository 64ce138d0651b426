//! The probability bot `prob`: per-flag odds in the style of the published
//! Battle Line bots (Deep Barca, McCulloch et al. 2017), kept as a
//! sparring partner for the expert.

use std::time::{Duration, Instant};

use game_agents::Budget;
use game_traits::{Agent, GameRng};

use crate::action::Action;
use crate::card::Tactic;
use crate::expert::{self, Scenario, Weights};
use crate::flag::{Flag, FLAGS};
use crate::formation::Strength;
use crate::observation::Observation;
use crate::state::BattleLine;

/// Futures per decision when no budget is given: well under a millisecond
/// a decision.
const DEFAULT_SAMPLES: u32 = 16;

/// Troop draws credited to each player: a flag is decided by the cards a
/// player holds and the next few he draws.
const DRAWS: usize = 4;

/// A probability bot: each flag's odds, judged alone, and the move that
/// gives the best chance of winning the game.
///
/// Each decision it draws futures consistent with its observation (the
/// opponent's hidden hand from the cards nobody has seen and the cards he
/// has shown, and the next four troop draws of each player); in each it
/// completes every side of every flag as strongly as its player's cards
/// allow, each flag on its own (a card may serve several flags, which is
/// what makes it fast), and counts the share of futures in which it wins
/// each flag. The chance of winning the game follows from the flags'
/// (five flags or three adjacent, the flags independent). Every play,
/// tactics included, is judged by that chance after it; a tactic must
/// gain more than it costs. It claims every flag it can prove.
///
/// ```
/// use battleline_core::{BattleLine, Heuristic, Prob, Rules};
/// use battleline_core::game_traits::play_match;
/// let (mut prob, mut heuristic) = (Prob::default(), Heuristic);
/// let (game, _) = play_match::<BattleLine>(&Rules::default(), 3, &mut [&mut prob, &mut heuristic]).unwrap();
/// # use battleline_core::Game;
/// assert!(game.outcome().is_some());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Prob {
    samples: u32,
    time: Option<Duration>,
}

impl Default for Prob {
    fn default() -> Prob {
        Prob::new(None)
    }
}

impl Prob {
    /// A probability bot with `budget` a decision: [`Budget::Iterations`]
    /// counts futures, [`Budget::Time`] the time to draw them in; `None` is
    /// 16 futures.
    pub fn new(budget: Option<Budget>) -> Prob {
        let (samples, time) = match budget {
            None => (DEFAULT_SAMPLES, None),
            Some(Budget::Iterations(n)) => (n.max(1), None),
            Some(Budget::Time(t)) => (u32::MAX, Some(t)),
        };
        Prob { samples, time }
    }

    fn play(&self, obs: &Observation, legal: &[Action], rng: &mut GameRng) -> Action {
        let start = Instant::now();
        let me = obs.viewer();
        let flags = obs.table().flags();
        let scenarios: Vec<Option<Scenario>> = legal
            .iter()
            .map(|&a| expert::apply_play(flags, me, a))
            .collect();
        let mut odds = FlagOdds::new(obs, scenarios.len());
        let draws = expert::draws(obs, DRAWS);
        let mut n = 0;
        while n < self.samples && self.time.is_none_or(|t| n == 0 || start.elapsed() < t) {
            let Some(f) = expert::sample(obs, draws, false, rng) else {
                break;
            };
            odds.add(f.mine, f.theirs, &scenarios);
            n += 1;
        }
        let values: Vec<Option<f64>> = (0..scenarios.len())
            .map(|k| scenarios[k].as_ref().map(|_| odds.victory(Some(k))))
            .collect();
        let cost = |t: Tactic| Weights::V1.cost(t);
        let (scores, _) = expert::score(legal, &scenarios, odds.victory(None), &values, None, cost);
        let index: Vec<usize> = (0..legal.len()).collect();
        legal[game_traits::best_scored(&index, rng, |i| scores[i] * 1e3)]
    }
}

/// Per flag, the viewer's share summed over the futures, as the table
/// stands and after each play.
struct FlagOdds<'a> {
    obs: &'a Observation,
    off_table: u64,
    base: [f64; FLAGS],
    after: Vec<[f64; FLAGS]>,
    samples: u32,
}

impl<'a> FlagOdds<'a> {
    fn new(obs: &'a Observation, plays: usize) -> FlagOdds<'a> {
        FlagOdds {
            obs,
            off_table: expert::off_table(obs),
            base: [0.0; FLAGS],
            after: vec![[0.0; FLAGS]; plays],
            samples: 0,
        }
    }

    /// The strongest formation `player`'s side of `flag` can become with
    /// `pool`, and the cards it takes.
    fn side(
        &self,
        flag: &Flag,
        player: game_traits::PlayerId,
        pool: u64,
    ) -> (Option<Strength>, u64) {
        match expert::best_side(flag, player, pool, self.obs.rules(), self.off_table) {
            Some((s, used)) => (Some(s), used),
            None => (None, 0),
        }
    }

    /// Adds one future: the viewer's cards `mine`, the opponent's `theirs`
    /// (troop bits). After a play only the flags it changes, and those
    /// whose best completion took the card it spends, are completed again.
    fn add(&mut self, mine: u64, theirs: u64, scenarios: &[Option<Scenario>]) {
        let me = self.obs.viewer();
        let w = Weights::V1;
        let flags = self.obs.table().flags();
        let my: [(Option<Strength>, u64); FLAGS] =
            std::array::from_fn(|g| self.side(&flags[g], me, mine));
        let their: [Option<Strength>; FLAGS] =
            std::array::from_fn(|g| self.side(&flags[g], me.other(), theirs).0);
        let shares: [f64; FLAGS] =
            std::array::from_fn(|g| expert::share(&flags[g], me, my[g].0, their[g], &w));
        for g in 0..FLAGS {
            self.base[g] += shares[g];
        }
        for (k, s) in scenarios.iter().enumerate() {
            let Some(s) = s else { continue };
            let pool = mine & !s.spent;
            for (g, f) in s.flags.iter().enumerate() {
                let changed = s.changed >> g & 1 == 1;
                let share = if changed && s.tactic.is_some() {
                    let t = self.side(f, me.other(), theirs).0;
                    expert::share(f, me, self.side(f, me, pool).0, t, &w)
                } else if changed || my[g].1 & s.spent != 0 {
                    expert::share(f, me, self.side(f, me, pool).0, their[g], &w)
                } else {
                    shares[g]
                };
                self.after[k][g] += share;
            }
        }
        self.samples += 1;
    }

    /// The chance of winning the game as the table stands (`None`) or
    /// after play `k`.
    fn victory(&self, k: Option<usize>) -> f64 {
        let sums = k.map_or(&self.base, |k| &self.after[k]);
        let n = f64::from(self.samples.max(1));
        expert::victory(&sums.map(|x| x / n))
    }
}

impl Agent<BattleLine> for Prob {
    fn name(&self) -> String {
        match self.time {
            Some(t) => format!("prob:{}ms", t.as_millis()),
            None => format!("prob:{}", self.samples),
        }
    }

    fn choose(&mut self, obs: &Observation, legal: &[Action], rng: &mut GameRng) -> Action {
        expert::by_rule(obs, legal).unwrap_or_else(|| self.play(obs, legal, rng))
    }
}
