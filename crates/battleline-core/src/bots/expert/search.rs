//! The expert's search: every legal play judged by the chance of winning
//! the game after it, against sampled futures, and the best few judged
//! again against fresh ones.

use std::time::{Duration, Instant};

use game_traits::{Budget, GameRng};

use crate::action::Action;
use crate::card::Tactic;
use crate::flag::{Flag, FLAGS};
use crate::formation::Strength;
use crate::observation::Observation;

use super::counting::{self, Futures};
use super::memo::Solver;
use super::odds;
use super::reply::{self, Answers, Arsenal, Board};
use super::scenario::{self, Scenario};
use super::victory::Victory;
use super::{turn, Weights};

/// Futures per decision when no budget is given.
const DEFAULT_SAMPLES: u32 = 96;

/// A budget and weights: what [`super::Expert`] and [`super::ExpertV1`]
/// share.
#[derive(Clone, Copy, Debug)]
pub(super) struct Search {
    pub weights: Weights,
    samples: u32,
    time: Option<Duration>,
}

impl Search {
    /// `budget` a decision: [`Budget::Iterations`] counts futures,
    /// [`Budget::Time`] the time to draw them in; `None` is 96 futures.
    pub(super) fn new(budget: Option<Budget>, weights: Weights) -> Search {
        let (samples, time) = match budget {
            None => (DEFAULT_SAMPLES, None),
            Some(Budget::Iterations(n)) => (n.max(1), None),
            Some(Budget::Time(t)) => (u32::MAX, Some(t)),
        };
        Search {
            weights,
            samples,
            time,
        }
    }

    /// The budget as a bot name's suffix.
    pub(super) fn budget_name(&self) -> String {
        match self.time {
            Some(t) => format!("{}ms", t.as_millis()),
            None => self.samples.to_string(),
        }
    }

    /// The decision: claims, draws and returns by rule, plays by search.
    pub(super) fn choose(&self, obs: &Observation, legal: &[Action], rng: &mut GameRng) -> Action {
        turn::by_rule(obs, legal, self.weights.tactics_from)
            .unwrap_or_else(|| self.play(obs, legal, rng))
    }

    fn play(&self, obs: &Observation, legal: &[Action], rng: &mut GameRng) -> Action {
        let start = Instant::now();
        // One solver for the decision: its answers hold for every future
        // of both rounds.
        let solver = Solver::new(obs.rules(), counting::off_table(obs));
        let flags = obs.table().flags();
        let scenarios: Vec<Option<Scenario>> = legal
            .iter()
            .map(|&a| scenario::apply(flags, obs.viewer(), a))
            .collect();
        // A screened round costs about a quarter of the finalists' full
        // share-outs against their futures: under a time budget it gets a
        // quarter of the time, not half.
        let w = self.weights;
        let first_share = if w.screen { 4 } else { 2 };
        let first_end = self.time.map(|t| start + t / first_share);
        let first = self.round(
            (obs, &solver),
            &scenarios,
            self.samples.div_ceil(2),
            first_end,
            w.screen,
            rng,
        );
        let cost = |t| self.weights.cost(t);
        let (base, values) = first.values(&scenarios);
        let (scores, deferral) = score(legal, &scenarios, base, &values, None, cost);
        // Round two: the best few plays again, against more futures. The
        // best of sixty noisy values is biased up; checking the finalists
        // on fresh futures keeps that bias out of the choice.
        let mut order: Vec<usize> = (0..legal.len())
            .filter(|&i| scenarios[i].is_some())
            .collect();
        order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
        let mut scores = scores;
        if order.len() > 1 {
            order.truncate(self.weights.finalists.max(1));
            let finalists: Vec<Option<Scenario>> = (0..legal.len())
                .map(|i| scenarios[i].filter(|_| order.contains(&i)))
                .collect();
            let end = self.time.map(|t| start + t);
            let futures = self.samples.saturating_mul(w.final_futures.max(1));
            let second = self.round((obs, &solver), &finalists, futures, end, false, rng);
            let (base, values) = second.values(&finalists);
            let (again, _) = score(legal, &finalists, base, &values, Some(deferral), cost);
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
    /// `deadline` under a time budget; troop plays judged by [`screen`]
    /// when `screened`.
    fn round<'a>(
        &self,
        (obs, solver): (&'a Observation, &'a Solver<'a>),
        scenarios: &[Option<Scenario>],
        samples: u32,
        deadline: Option<Instant>,
        screened: bool,
        rng: &mut GameRng,
    ) -> Odds<'a> {
        let w = self.weights;
        let mut odds = Odds::new(obs, solver, w, screened);
        let draws = counting::draws(obs, w.draw_cap);
        let mut n = 0u32;
        while n < samples.max(1) && deadline.is_none_or(|d| n == 0 || Instant::now() < d) {
            let Some(futures) = counting::sample(obs, draws, w.rival_answer, rng) else {
                break;
            };
            odds.add(&futures, scenarios);
            n += 1;
        }
        odds
    }
}

/// Each action's score from the chance of winning the game as the table
/// stands (`base`) and after each play (`values`, `None` for what is no
/// play on the table): that chance, a tactic's less its cost; and the deferral:
/// what the best troop play loses against leaving the table as it is. A
/// troop card must be played sooner or later, so a tactic, which only
/// postpones it, is charged that loss as well (`deferral` when given, else
/// this round's).
pub(crate) fn score(
    legal: &[Action],
    scenarios: &[Option<Scenario>],
    base: f64,
    values: &[Option<f64>],
    deferral: Option<f64>,
    cost: impl Fn(Tactic) -> f64,
) -> (Vec<f64>, f64) {
    let best_troop = legal
        .iter()
        .zip(values)
        .filter(|(a, _)| matches!(a, Action::Play { card, .. } if card.is_troop()))
        .filter_map(|(_, v)| *v)
        .reduce(f64::max)
        .unwrap_or(base);
    let deferral = deferral.unwrap_or(base - best_troop);
    let scores = (0..legal.len())
        .map(
            |i| match (legal[i], values[i], scenarios[i].and_then(|s| s.tactic)) {
                (_, Some(v), None) => v,
                (_, Some(v), Some(t)) => v - deferral - cost(t),
                (Action::Scout, ..) => base - deferral - cost(Tactic::Scout),
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
    solver: &'a Solver<'a>,
    weights: Weights,
    base: [f64; FLAGS],
    after: Vec<[f64; FLAGS]>,
    samples: u32,
    /// Whether troop plays are judged by [`screen`].
    screen: bool,
}

impl<'a> Odds<'a> {
    fn new(obs: &'a Observation, solver: &'a Solver<'a>, w: Weights, screen: bool) -> Odds<'a> {
        Odds {
            obs,
            solver,
            weights: w,
            screen,
            base: [0.0; FLAGS],
            after: Vec::new(),
            samples: 0,
        }
    }

    /// Adds one future: completes every side as the table stands and
    /// after each scenario, each player's future cards shared out among
    /// his sides ([`odds::Dealer`]), then gives the opponent his answer
    /// where the weights ask for it ([`reply`]).
    fn add(&mut self, futures: &Futures, scenarios: &[Option<Scenario>]) {
        let me = self.obs.viewer();
        let flags = self.obs.table().flags();
        let solver = self.solver;
        let w = self.weights;
        let dealer = |player| odds::Dealer {
            solver,
            tie: &futures.tie,
            player,
        };
        let (mine_dealer, their_dealer) = (dealer(me), dealer(me.other()));
        let made = |pool, rival| odds::Made { flags, pool, rival };
        // Each side's cards are shared out twice: first freely, then
        // sparing the flags the first round showed lost.
        let theirs1 = their_dealer.share_out(made(futures.theirs, None));
        let mine1 = mine_dealer.share_out(made(futures.mine, None));
        let theirs_shared = their_dealer.share_out(made(futures.theirs, Some(&mine1.strengths)));
        let theirs1_table = theirs1.strengths;
        let shared = mine_dealer.share_out(made(futures.mine, Some(&theirs1_table)));
        let mine = shared.strengths;
        let theirs = theirs_shared.strengths;
        // What each was made of, for the scenarios' share-outs.
        let theirs1_made = (&theirs1, made(futures.theirs, None));
        let mine1_made = (&mine1, made(futures.mine, None));
        let theirs_made = (&theirs_shared, made(futures.theirs, Some(&mine1.strengths)));
        let shared_made = (&shared, made(futures.mine, Some(&theirs1_table)));
        let answers = Answering::new(self.obs, futures, solver, w);
        let table = answers.on(flags, None);
        let mut base = [0.0; FLAGS];
        for (g, f) in flags.iter().enumerate() {
            base[g] = odds::share(f, me, mine[g], theirs[g], &w);
        }
        answers.apply(&mut base, &table, (&mine, &theirs));
        for (sum, x) in self.base.iter_mut().zip(base) {
            *sum += x;
        }
        self.after.resize(scenarios.len(), [0.0; FLAGS]);
        let mut held = Held::default();
        for (k, s) in scenarios.iter().enumerate() {
            let Some(s) = s else { continue };
            let pool = futures.mine & !s.spent;
            // Each share-out of the scenario starts from the table's.
            let again = |d: &odds::Dealer,
                         before: (&odds::Shared, odds::Made),
                         pool: u64,
                         rival: Option<&[Option<Strength>; FLAGS]>| {
                let after = odds::Made {
                    flags: &s.flags,
                    pool,
                    rival,
                };
                d.share_again(before, after, s.changed).strengths
            };
            // Only a tactic changes the opponent's sides or a flag's
            // environment.
            let (theirs1, theirs) = match s.tactic {
                Some(_) => {
                    let t1 = again(&their_dealer, theirs1_made, futures.theirs, None);
                    let m1 = again(&mine_dealer, mine1_made, pool, None);
                    let t2 = again(&their_dealer, theirs_made, futures.theirs, Some(&m1));
                    (t1, t2)
                }
                None => (theirs1_table, theirs),
            };
            let mine = match s.tactic {
                None if self.screen => screen(&shared, s, &mut held, |g, pool| {
                    solver.best_strength(&s.flags[g], me, pool)
                }),
                _ => again(&mine_dealer, shared_made, pool, Some(&theirs1)),
            };
            let mut after = [0.0; FLAGS];
            for (g, f) in s.flags.iter().enumerate() {
                after[g] = odds::share(f, me, mine[g], theirs[g], &w);
            }
            let answered = answers.after(&table, s);
            answers.apply(&mut after, &answered, (&mine, &theirs));
            for (sum, x) in self.after[k].iter_mut().zip(after) {
                *sum += x;
            }
        }
        self.samples += 1;
    }

    /// The chance of winning the game as the table stands, and after each
    /// scenario.
    fn values(&self, scenarios: &[Option<Scenario>]) -> (f64, Vec<Option<f64>>) {
        let mut v = Victory::new();
        let values = (0..scenarios.len())
            .map(|k| scenarios[k].as_ref().map(|_| self.victory(&mut v, Some(k))))
            .collect();
        (self.victory(&mut v, None), values)
    }

    /// The chance of winning the game as the table stands (`None`) or
    /// after scenario `k`.
    fn victory(&self, v: &mut Victory, k: Option<usize>) -> f64 {
        let sums = match k {
            None => &self.base,
            Some(k) => &self.after[k],
        };
        let n = f64::from(self.samples.max(1));
        v.of(&sums.map(|x| x / n))
    }
}

/// The viewer's sides after the troop play of `s`, judged on the share-out
/// of the table as it stands (`shared`): only the side the card joins and
/// the side whose share held it are completed again (by `complete`, from
/// their own share and the cards no side took); every other side keeps its
/// share. Cheaper than sharing out again, and close to it: the round that
/// screens every play uses it, the finalists are judged by the full
/// share-out.
///
/// The side whose share held the card is completed alike for every flag
/// the card may go to: `held` keeps it, per card, for the next play of it.
fn screen(
    shared: &odds::Shared,
    s: &Scenario,
    held: &mut Held,
    complete: impl Fn(usize, u64) -> Option<Strength>,
) -> [Option<Strength>; FLAGS] {
    let mut out = shared.strengths;
    for (g, (side, taken)) in out.iter_mut().zip(shared.taken).enumerate() {
        let pool = (taken | shared.left) & !s.spent;
        if s.changed >> g & 1 == 1 {
            *side = complete(g, pool);
        } else if taken & s.spent != 0 {
            let slot = &mut held.0[s.spent.trailing_zeros() as usize % 64];
            *side = *slot.get_or_insert_with(|| complete(g, pool));
        }
    }
    out
}

/// Per troop card, the side that held it in a share-out completed again
/// without it ([`screen`]); `None` until asked.
struct Held([Option<Option<Strength>>; 64]);

impl Default for Held {
    fn default() -> Held {
        Held([None; 64])
    }
}

/// The opponent's answer in one future ([`reply`]), where the weights ask
/// for it: his tactics card, played where it takes most from the viewer.
struct Answering<'a> {
    obs: &'a Observation,
    futures: &'a Futures,
    solver: &'a Solver<'a>,
    weights: Weights,
}

/// The opponent's arsenal and what it can do at each flag, when he has
/// one.
type His = Option<(Arsenal, Answers)>;

impl<'a> Answering<'a> {
    fn new(obs: &'a Observation, futures: &'a Futures, solver: &'a Solver<'a>, w: Weights) -> Self {
        Answering {
            obs,
            futures,
            solver,
            weights: w,
        }
    }

    fn board(&self, arsenal: Arsenal, spent: u64) -> Board<'a> {
        Board {
            solver: self.solver,
            player: self.obs.viewer().other(),
            arsenal,
            pool: self.futures.theirs,
            other_pool: self.futures.mine & !spent,
        }
    }

    /// His answers on `flags` after the viewer's `scenario` (`None`: the
    /// table as it stands), all computed afresh.
    fn on(&self, flags: &[Flag; FLAGS], scenario: Option<&Scenario>) -> His {
        if !self.weights.rival_answer {
            return None;
        }
        let arsenal = self.arsenal(scenario);
        let spent = scenario.map_or(0, |s| s.spent);
        (!arsenal.is_empty()).then(|| (arsenal, self.board(arsenal, spent).answers(flags)))
    }

    /// His arsenal after the viewer's `scenario` (`None`: the table as it
    /// stands). A tactic of the viewer's lets him play one more under the
    /// tactics limit.
    fn arsenal(&self, scenario: Option<&Scenario>) -> Arsenal {
        let me = self.obs.viewer();
        let extra = i16::from(scenario.is_some_and(|s| s.tactic.is_some()));
        let table = self.obs.table();
        let rules = self.obs.rules();
        Arsenal::new(self.futures.their_tactics, table, me.other(), rules, extra)
    }

    /// His answers after `s`, from those on the table: only the flags a
    /// play changes are judged again, unless a tactic of the viewer's
    /// changes his arsenal (the tactics limit).
    fn after(&self, table: &His, s: &Scenario) -> His {
        if s.tactic.is_some() && table.is_none_or(|(a, _)| a != self.arsenal(Some(s))) {
            return self.on(&s.flags, Some(s));
        }
        let mut out = *table;
        if let Some((arsenal, answers)) = &mut out {
            self.board(*arsenal, s.spent)
                .refresh(answers, &s.flags, s.changed);
        }
        out
    }

    /// The viewer's shares after the opponent's answer.
    fn apply(
        &self,
        shares: &mut [f64; FLAGS],
        his: &His,
        sides: (&[Option<Strength>; FLAGS], &[Option<Strength>; FLAGS]),
    ) {
        if let Some((_, a)) = his {
            let me = self.obs.viewer();
            reply::answer(shares, a, me, sides, &self.weights);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::{Card, Colour};
    use crate::formation::FormationOrder;
    use game_traits::PlayerId;

    #[test]
    fn screen_completes_again_only_the_side_a_troop_play_joins_and_the_side_that_held_its_card() {
        let me = PlayerId::P0;
        let card = |v| Card::troop(Colour::Red, v).unwrap();
        let mut flag = Flag::new();
        for v in [7, 8, 9] {
            flag.place(me, card(v)).unwrap();
        }
        let wedge = flag.strength(me, FormationOrder::Text);
        let played = card(10);
        let mut taken = [0; FLAGS];
        taken[5] = 1 << played.index();
        let shared = odds::Shared {
            strengths: [wedge; FLAGS],
            uses: taken,
            taken,
            left: 0b1,
            order: std::array::from_fn(|g| g),
        };
        let flags = [Flag::new(); FLAGS];
        let action = Action::Play {
            card: played,
            flag: crate::flag::FlagId::new(2).unwrap(),
        };
        let s = scenario::apply(&flags, me, action).unwrap();
        let asked = std::cell::RefCell::new(Vec::new());
        let sides = screen(&shared, &s, &mut Held::default(), |g, pool| {
            asked.borrow_mut().push((g, pool));
            None
        });
        // Flag 2 gets the card, flag 5 loses it; each is completed again
        // from its own share and the cards left, the card played excluded.
        assert_eq!(asked.into_inner(), [(2, 0b1), (5, 0b1)]);
        for (g, side) in sides.iter().enumerate() {
            assert_eq!(side.is_none(), g == 2 || g == 5, "flag {g}");
        }
    }

    #[test]
    fn screen_completes_the_side_that_held_a_card_once_for_every_flag_it_goes_to() {
        let me = PlayerId::P0;
        let played = Card::troop(Colour::Red, 10).unwrap();
        let mut taken = [0; FLAGS];
        taken[5] = 1 << played.index();
        let shared = odds::Shared {
            strengths: [None; FLAGS],
            uses: taken,
            taken,
            left: 0b1,
            order: std::array::from_fn(|g| g),
        };
        let flags = [Flag::new(); FLAGS];
        let mut held = Held::default();
        let asked = std::cell::RefCell::new(Vec::new());
        for to in [1, 2, 7] {
            let action = Action::Play {
                card: played,
                flag: crate::flag::FlagId::new(to).unwrap(),
            };
            let s = scenario::apply(&flags, me, action).unwrap();
            screen(&shared, &s, &mut held, |g, _| {
                asked.borrow_mut().push(g);
                None
            });
        }
        assert_eq!(asked.into_inner(), [1, 5, 2, 7]);
    }

    #[test]
    fn opponents_answers_after_a_tactic_are_those_judged_afresh() {
        use game_traits::rand::SeedableRng;
        let rules = crate::Rules::default();
        let mut rng = GameRng::seed_from_u64(9);
        let mut tactics = 0;
        for (obs, legal) in odds::tests::midgames(&rules, 0..40) {
            let flags = obs.table().flags();
            let solver = Solver::new(obs.rules(), counting::off_table(&obs));
            for _ in 0..3 {
                let futures = counting::sample(&obs, 14, true, &mut rng).unwrap();
                let answers = Answering::new(&obs, &futures, &solver, Weights::default());
                let table = answers.on(flags, None);
                for &a in &legal {
                    let Some(s) = scenario::apply(flags, obs.viewer(), a) else {
                        continue;
                    };
                    if s.tactic.is_some() {
                        let fresh = answers.on(&s.flags, Some(&s));
                        assert_eq!(answers.after(&table, &s), fresh, "{a:?}");
                        tactics += 1;
                    }
                }
            }
        }
        assert!(tactics > 20, "{tactics}");
    }
}
