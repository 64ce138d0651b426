//! The expert bot: card counting, flag odds built on the engine's
//! completion solver, every tactic judged by what it does to those odds,
//! and a one-ply search over sampled hands and draws on top.

mod counting;
mod odds;
mod scenario;

use std::time::{Duration, Instant};

use game_agents::Budget;
use game_traits::{Agent, GameRng, PlayerId};

use crate::action::Action;
use crate::card::{CardKind, Deck, Tactic};
use crate::flag::{Flag, FLAGS};
use crate::formation::Strength;
use crate::observation::Observation;
use crate::state::BattleLine;

use counting::Futures;
use scenario::Scenario;

/// Futures per decision when no budget is given: 3 to 11 ms a decision in
/// troops-only games, about 20 with tactics (more plays to judge), on the
/// project's loaded 2-core machine (docs/strength.md).
const DEFAULT_SAMPLES: u32 = 96;

/// Future troop draws credited to each player at most (tuned against the
/// heuristic: 9 and 16 did worse than 12).
const DRAW_CAP: usize = 12;

/// How much a tactics card must gain, in chance of winning the game,
/// before the expert spends it: it counts against the tactics limit and
/// could do more later.
fn tactic_cost(tactic: Tactic) -> f64 {
    match tactic {
        Tactic::Alexander | Tactic::Darius => 0.04,
        Tactic::Traitor | Tactic::Deserter => 0.03,
        _ => 0.02,
    }
}

/// The Battle Line expert: wins most games against the heuristic and the
/// public bots it has met (docs/strength.md has the figures).
///
/// Each decision it draws futures consistent with its observation (the
/// opponent's hidden hand and both players' next troop draws, from the
/// cards no one has seen) and, in each, completes every side of every flag
/// as well as its player's future cards allow, with the engine's
/// completion solver. The share of futures in which it wins a flag is its
/// chance there; the game's chance follows from the flags' (five flags or
/// three adjacent). Every play (troops, morale tactics, Fog, Mud,
/// Redeploy, Deserter, Traitor) is judged by the game's chance after it,
/// all against the same futures, and the six best again against fresh
/// ones; a tactic must gain more than it costs.
/// It claims every flag it can prove and draws a tactics card when it has
/// none in hand and may still play one.
///
/// It reads only its observation. The budget is the number of futures
/// (reproducible) or a time per decision.
///
/// ```
/// use battleline_core::{BattleLine, Expert, Heuristic, Rules};
/// use battleline_core::game_traits::play_match;
/// let (mut expert, mut heuristic) = (Expert::with_samples(8), Heuristic);
/// let (game, _) = play_match::<BattleLine>(&Rules::default(), 3, &mut [&mut expert, &mut heuristic]).unwrap();
/// # use battleline_core::Game;
/// assert!(game.outcome().is_some());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Expert {
    samples: u32,
    time: Option<Duration>,
}

impl Default for Expert {
    fn default() -> Expert {
        Expert::with_samples(DEFAULT_SAMPLES)
    }
}

impl Expert {
    /// An expert with `budget` a decision: [`Budget::Iterations`] counts
    /// futures, [`Budget::Time`] the time to draw them in; `None` is the
    /// default, about 10 ms a decision.
    pub fn new(budget: Option<Budget>) -> Expert {
        match budget {
            None => Expert::default(),
            Some(Budget::Iterations(n)) => Expert::with_samples(n),
            Some(Budget::Time(t)) => Expert::with_time(t),
        }
    }

    /// An expert judging every play against `samples / 2` futures, then the
    /// six best against `2 * samples` more (at least one each).
    pub fn with_samples(samples: u32) -> Expert {
        Expert {
            samples: samples.max(1),
            time: None,
        }
    }

    /// An expert drawing futures for `time` a decision: half of it for
    /// every play, half for the six best (at least one future each).
    pub fn with_time(time: Duration) -> Expert {
        Expert {
            samples: u32::MAX,
            time: Some(time),
        }
    }

    fn play(&self, obs: &Observation, legal: &[Action], rng: &mut GameRng) -> Action {
        let start = Instant::now();
        let flags = obs.table().flags();
        let scenarios: Vec<Option<Scenario>> = legal
            .iter()
            .map(|&a| scenario::apply(flags, obs.viewer(), a))
            .collect();
        let half = self.time.map(|t| start + t / 2);
        let first = self.round(obs, &scenarios, self.samples.div_ceil(2), half, rng);
        let (scores, deferral) = score(legal, &scenarios, &first, None);
        // Round two: the best few plays again, against more futures. The
        // best of sixty noisy values is biased up; checking the finalists
        // on fresh futures keeps that bias out of the choice.
        let mut order: Vec<usize> = (0..legal.len())
            .filter(|&i| scenarios[i].is_some())
            .collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        let mut scores = scores;
        if order.len() > 1 {
            order.truncate(FINALISTS);
            let finalists: Vec<Option<Scenario>> = (0..legal.len())
                .map(|i| scenarios[i].filter(|_| order.contains(&i)))
                .collect();
            let end = self.time.map(|t| start + t);
            let second = self.round(obs, &finalists, self.samples.saturating_mul(2), end, rng);
            let (again, _) = score(legal, &finalists, &second, Some(deferral));
            for &i in &order {
                scores[i] = again[i];
            }
            for i in (0..legal.len()).filter(|i| scenarios[*i].is_some() && !order.contains(i)) {
                scores[i] = f64::NEG_INFINITY;
            }
        }
        let index: Vec<usize> = (0..legal.len()).collect();
        legal[game_traits::best_scored(&index, rng, |i| scores[i] * 1e3)]
    }

    /// Flag odds over `samples` futures (at least one), or until
    /// `deadline` under a time budget.
    fn round<'a>(
        &self,
        obs: &'a Observation,
        scenarios: &[Option<Scenario>],
        samples: u32,
        deadline: Option<Instant>,
        rng: &mut GameRng,
    ) -> Odds<'a> {
        let mut odds = Odds::new(obs);
        let draws = counting::draws(obs, DRAW_CAP);
        let mut n = 0u32;
        while n < samples.max(1) && deadline.is_none_or(|d| n == 0 || Instant::now() < d) {
            let Some(futures) = counting::sample(obs, draws, rng) else {
                break;
            };
            odds.add(&futures, scenarios);
            n += 1;
        }
        odds
    }
}

/// Plays judged again in the second round.
const FINALISTS: usize = 6;

/// Each action's score (the chance of winning the game after it, a
/// tactic's less its cost) and the deferral: what the best troop play
/// loses against leaving the table as it is. A troop card must be played
/// sooner or later, so a tactic, which only postpones it, is charged that
/// loss as well (`deferral` when given, else this round's).
fn score(
    legal: &[Action],
    scenarios: &[Option<Scenario>],
    odds: &Odds,
    deferral: Option<f64>,
) -> (Vec<f64>, f64) {
    let base = odds.victory(None);
    let values: Vec<Option<f64>> = (0..scenarios.len())
        .map(|k| scenarios[k].as_ref().map(|_| odds.victory(Some(k))))
        .collect();
    let best_troop = legal
        .iter()
        .zip(&values)
        .filter(|(a, _)| matches!(a, Action::Play { card, .. } if card.is_troop()))
        .filter_map(|(_, v)| *v)
        .reduce(f64::max)
        .unwrap_or(base);
    let deferral = deferral.unwrap_or(base - best_troop);
    let scores = (0..legal.len())
        .map(
            |i| match (legal[i], values[i], scenarios[i].and_then(|s| s.tactic)) {
                (_, Some(v), None) => v,
                (_, Some(v), Some(t)) => v - deferral - tactic_cost(t),
                (Action::Scout, ..) => base - deferral - tactic_cost(Tactic::Scout),
                (Action::Pass, ..) => base,
                _ => f64::NEG_INFINITY,
            },
        )
        .collect();
    (scores, deferral)
}

/// Per flag, the viewer's share summed over the futures: as the table
/// stands and after each scenario.
struct Odds<'a> {
    obs: &'a Observation,
    off_table: u64,
    base: [f64; FLAGS],
    after: Vec<[f64; FLAGS]>,
    samples: u32,
}

impl<'a> Odds<'a> {
    fn new(obs: &'a Observation) -> Odds<'a> {
        Odds {
            obs,
            off_table: counting::off_table(obs),
            base: [0.0; FLAGS],
            after: Vec::new(),
            samples: 0,
        }
    }

    /// Adds one future: completes every side as the table stands and
    /// after each scenario, each player's future cards shared out among
    /// his sides ([`odds::allocate`]).
    fn add(&mut self, futures: &Futures, scenarios: &[Option<Scenario>]) {
        let me = self.obs.viewer();
        let rules = self.obs.rules();
        let flags = self.obs.table().flags();
        let off = self.off_table;
        // Each side's cards are shared out twice: first freely, then
        // sparing the flags the first round showed lost.
        let alloc =
            |flags: &[Flag; FLAGS], player, pool, rival: Option<&[Option<Strength>; FLAGS]>| {
                odds::allocate(flags, player, pool, rules, off, rival, &futures.tie)
            };
        let theirs1 = alloc(flags, me.other(), futures.theirs, None);
        let mine1 = alloc(flags, me, futures.mine, None);
        let theirs = alloc(flags, me.other(), futures.theirs, Some(&mine1));
        let mine = alloc(flags, me, futures.mine, Some(&theirs1));
        for (g, f) in flags.iter().enumerate() {
            self.base[g] += odds::share(f, me, mine[g], theirs[g], f.env().slots());
        }
        self.after.resize(scenarios.len(), [0.0; FLAGS]);
        for (k, s) in scenarios.iter().enumerate() {
            let Some(s) = s else { continue };
            let pool = futures.mine & !s.spent;
            // Only a tactic changes the opponent's sides or a flag's
            // environment.
            let (theirs1, theirs) = match s.tactic {
                Some(_) => {
                    let t1 = alloc(&s.flags, me.other(), futures.theirs, None);
                    let m1 = alloc(&s.flags, me, pool, None);
                    let t2 = alloc(&s.flags, me.other(), futures.theirs, Some(&m1));
                    (t1, t2)
                }
                None => (theirs1, theirs),
            };
            let mine = alloc(&s.flags, me, pool, Some(&theirs1));
            for (g, f) in s.flags.iter().enumerate() {
                self.after[k][g] += odds::share(f, me, mine[g], theirs[g], f.env().slots());
            }
        }
        self.samples += 1;
    }

    /// The chance of winning the game as the table stands (`None`) or
    /// after scenario `k`.
    fn victory(&self, k: Option<usize>) -> f64 {
        let sums = match k {
            None => &self.base,
            Some(k) => &self.after[k],
        };
        let n = f64::from(self.samples.max(1));
        odds::victory(&sums.map(|x| x / n))
    }
}

impl Agent<BattleLine> for Expert {
    fn name(&self) -> String {
        match self.time {
            Some(t) => format!("expert:{}ms", t.as_millis()),
            None => format!("expert:{}", self.samples),
        }
    }

    fn choose(&mut self, obs: &Observation, legal: &[Action], rng: &mut GameRng) -> Action {
        if let [only] = legal {
            return *only;
        }
        // A proved claim can only help: the flag is won for good.
        if let Some(&claim) = legal.iter().find(|a| matches!(a, Action::Claim(_))) {
            return claim;
        }
        if legal.iter().any(|a| matches!(a, Action::Draw(_))) {
            return draw(obs, legal);
        }
        if legal.iter().any(|a| matches!(a, Action::Return(_))) {
            return give_back(legal);
        }
        self.play(obs, legal, rng)
    }
}

/// Draws a tactics card when the hand holds none and one could be played
/// (the tactics limit allows it), a troop card otherwise.
fn draw(obs: &Observation, legal: &[Action]) -> Action {
    let me: PlayerId = obs.viewer();
    let table = obs.table();
    let holds_tactic = obs.hand().iter().any(|c| !c.is_troop());
    let may_play = table.tactics_played(me) <= table.tactics_played(me.other());
    let want = if !holds_tactic && may_play {
        Deck::Tactics
    } else {
        Deck::Troop
    };
    let pick = [Action::Draw(want), Action::Draw(Deck::Troop)];
    pick.into_iter()
        .find(|a| legal.contains(a))
        .unwrap_or(legal[0])
}

/// After Scout: gives back the lowest troop cards (the opponent may draw
/// them next), tactics cards only when no troop is left to return.
fn give_back(legal: &[Action]) -> Action {
    let rank = |a: &Action| match a {
        Action::Return(c) => match c.kind() {
            CardKind::Troop(_, v) => i32::from(v),
            CardKind::Tactic(_) => 20,
        },
        _ => 100,
    };
    *legal.iter().min_by_key(|a| rank(a)).unwrap_or(&legal[0])
}
