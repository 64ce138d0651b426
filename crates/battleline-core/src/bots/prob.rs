//! The probability bot `prob`: per-flag odds in the style of the published
//! Battle Line bots (Deep Barca, McCulloch et al. 2017), kept as a
//! sparring partner for the expert.

use std::time::{Duration, Instant};

use game_traits::{Agent, Budget, GameRng, PlayerId};

use crate::action::Action;
use crate::bots::expert::{self, Futures, Scenario, Weights};
use crate::card::Tactic;
use crate::flag::{Flag, FLAGS};
use crate::formation::Strength;
use crate::observation::Observation;
use crate::state::BattleLine;

/// Futures per decision when no budget is given: well under a millisecond
/// a decision.
const DEFAULT_SAMPLES: u32 = 32;

/// Troop draws credited to each player at most (half the deck when fewer
/// are left): against the expert at 16 futures, 2 and 4 draws lost more
/// games than 12, 16 and 24, which did alike (docs/strength.md).
const DRAWS: usize = 16;

/// A probability bot: each flag's odds, judged alone, and the move that
/// gives the best chance of winning the game.
///
/// Each decision it draws futures consistent with its observation (the
/// opponent's hidden hand from the cards nobody has seen and the cards he
/// has shown, and up to 16 troop draws of each player); in each it shares
/// each player's cards out among his sides once (the sides holding most
/// cards first, each as strong as the cards left allow) and counts the
/// share of futures in which it wins each flag. A play is judged on the
/// same share-out, only the sides it touches completed again (which is
/// what makes it fast). The chance of winning the game follows from the flags'
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
    /// 32 futures.
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
            odds.add(&f, &scenarios);
            n += 1;
        }
        let mut v = expert::Victory::new();
        let values: Vec<Option<f64>> = (0..scenarios.len())
            .map(|k| scenarios[k].as_ref().map(|_| odds.victory(&mut v, Some(k))))
            .collect();
        let cost = |t: Tactic| Weights::V1.cost(t);
        let base = odds.victory(&mut v, None);
        let (scores, _) = expert::score(legal, &scenarios, base, &values, None, cost);
        let index: Vec<usize> = (0..legal.len()).collect();
        legal[game_traits::best_scored(&index, rng, |i| scores[i] * 1e3)]
    }
}

/// One player's cards shared out among his sides in one future: per flag
/// the strength his side reaches and the cards it takes, and the cards no
/// side took.
struct Shared {
    sides: [(Option<Strength>, u64); FLAGS],
    left: u64,
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
    fn side(&self, flag: &Flag, player: PlayerId, pool: u64) -> (Option<Strength>, u64) {
        match expert::best_side(flag, player, pool, self.obs.rules(), self.off_table) {
            Some((s, used)) => (Some(s), used),
            None => (None, 0),
        }
    }

    /// `player`'s `pool` shared out among his sides of `flags`, the sides
    /// holding most cards first (equal ones in the future's `tie` order),
    /// each as strong as the cards left allow.
    fn share_out(
        &self,
        flags: &[Flag; FLAGS],
        player: PlayerId,
        pool: u64,
        tie: &[u8; FLAGS],
    ) -> Shared {
        let mut out = Shared {
            sides: [(None, 0); FLAGS],
            left: pool,
        };
        for g in expert::allocation_order(flags, player, tie) {
            if flags[g].claimed().is_none() {
                out.sides[g] = self.side(&flags[g], player, out.left);
                out.left &= !out.sides[g].1;
            }
        }
        out
    }

    /// Adds one future. Each player's cards are shared out among his sides
    /// once; after a play, the sides it changes and the side whose share
    /// held the card it spends are completed again from their own share and
    /// the cards no side took (the other sides keep theirs).
    fn add(&mut self, futures: &Futures, scenarios: &[Option<Scenario>]) {
        let me = self.obs.viewer();
        let w = Weights::V1;
        let flags = self.obs.table().flags();
        let mine = self.share_out(flags, me, futures.mine, &futures.tie);
        let theirs = self.share_out(flags, me.other(), futures.theirs, &futures.tie);
        let shares: [f64; FLAGS] = std::array::from_fn(|g| {
            expert::share(&flags[g], me, mine.sides[g].0, theirs.sides[g].0, &w)
        });
        for (sum, x) in self.base.iter_mut().zip(shares) {
            *sum += x;
        }
        for (k, s) in scenarios.iter().enumerate() {
            let Some(s) = s else { continue };
            for (g, f) in s.flags.iter().enumerate() {
                let changed = s.changed >> g & 1 == 1;
                let again = |p: &Shared, player, spent: u64| {
                    self.side(f, player, (p.sides[g].1 | p.left) & !spent).0
                };
                let share = if changed && s.tactic.is_some() {
                    let t = again(&theirs, me.other(), 0);
                    expert::share(f, me, again(&mine, me, s.spent), t, &w)
                } else if changed || mine.sides[g].1 & s.spent != 0 {
                    expert::share(f, me, again(&mine, me, s.spent), theirs.sides[g].0, &w)
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
    fn victory(&self, v: &mut expert::Victory, k: Option<usize>) -> f64 {
        let sums = k.map_or(&self.base, |k| &self.after[k]);
        let n = f64::from(self.samples.max(1));
        v.of(&sums.map(|x| x / n))
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
        expert::by_rule(obs, legal, None).unwrap_or_else(|| self.play(obs, legal, rng))
    }
}
