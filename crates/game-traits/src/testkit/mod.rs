//! The conformance test-kit: one call checks that a game keeps every
//! contract of [`Game`] over many seeded random games.
//!
//! ```
//! use game_traits::kuhn::KuhnPoker;
//! use game_traits::testkit::check_game;
//! check_game::<KuhnPoker>(&Default::default());
//! ```
//!
//! Before the games it checks that the rule set's preset names are
//! snake_case ([`check_preset_names`]). At every step of every game it checks turn and terminality, the legal
//! list (non-empty, sorted by id and by [`Ord`], no duplicates, ids
//! round-trip, each action legal and applicable, equal results on clones and
//! through [`Game::apply_unchecked`]), that illegal actions are refused and
//! leave the state equal to a clone; every few steps it decides
//! [`Game::is_legal`] and [`Game::check_action`] for every id of the action
//! space against the listed set (and applies every illegal one to a clone
//! when the space is small), and checks that no viewer's
//! [`Game::action_view`] tells apart two actions that leave him with the
//! same observation, nor depends on what he cannot see; chance outcomes (distinct, probabilities in
//! (0, 1] summing to 1, sampling within them), serde round trips of state and
//! observations, observations under determinisation (same observation back,
//! same legal actions for the player to move, the generator really used),
//! and that tampered serialised data never makes the engine panic. At the end
//! it checks length, returns, the winner, and that the record round-trips
//! and replays to the final state. A failure panics with the game, seed and
//! step.
//!
//! The number of games comes from `CONFORMANCE_GAMES` (default 30), the first
//! seed from `CONFORMANCE_SEED` (default 0).

mod actions;
mod encoding;
mod events;
pub mod fuzz;
mod golden;
mod hostile;
pub mod nim;
mod rule_set;
mod tamper;
mod wire;

use std::fmt::Write as _;

use rand::{Rng, SeedableRng};

use crate::{chance_rng, Game, GameRng, Outcome, PlayerId, Record, Turn};

use crate::RuleSet;
pub use encoding::check_encoding;
pub use events::{
    check_events, check_events_are_their_views, event_kinds, events_of, random_steps,
};
pub use golden::check_golden;
pub use hostile::{determinise_final_positions, hostile_run, HostileReport};
pub use rule_set::{check_named, check_preset_names, check_rule_set};
pub use tamper::check_accepted;
pub use wire::{assert_safe_integers, check_wire};

/// How much the kit does; [`KitConfig::default`] reads the environment.
#[derive(Clone, Debug)]
pub struct KitConfig {
    /// Random games to play.
    pub games: u64,
    /// Seed of the first game; game `i` uses `seed + i`.
    pub seed: u64,
    /// Determinisations drawn per player and step.
    pub determinizations: usize,
    /// Tampered copies of the state, an observation and the record tried per
    /// game.
    pub tampers: usize,
    /// Legal actions applied on clones per step (all when the list is
    /// shorter).
    pub applied_per_step: usize,
    /// The game hides something from some player: then some determinisation
    /// must differ from the true state, or the observations leak it all.
    /// Set to `false` for a game of perfect information.
    pub hidden_information: bool,
    /// Every this many steps, every id of the action space is decided by
    /// `is_legal` and `check_action` against the listed set, and the action
    /// views of each viewer are compared. 1 checks every step.
    pub full_check_every: usize,
}

/// A count read from the environment variable `name` (such as
/// `CONFORMANCE_GAMES` or `HOSTILE_INPUTS`), or `default` when it is unset
/// or not a number: how every heavy run of the kit and of the games' tests
/// is scaled.
pub fn env_count(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

impl Default for KitConfig {
    fn default() -> Self {
        KitConfig {
            games: env_count("CONFORMANCE_GAMES", 30),
            seed: env_count("CONFORMANCE_SEED", 0),
            determinizations: 3,
            tampers: 24,
            applied_per_step: 12,
            hidden_information: true,
            full_check_every: 4,
        }
    }
}

/// Runs the kit with the default configuration; panics on the first
/// failure.
pub fn check_game<G: Game>(rules: &G::Rules) {
    check_game_with::<G>(rules, &KitConfig::default());
}

/// Runs the kit with `config`; panics on the first failure, naming the seed
/// and step.
pub fn check_game_with<G: Game>(rules: &G::Rules, config: &KitConfig) {
    check_preset_names::<G::Rules>();
    let (lo, hi) = rules.return_bounds();
    assert!(lo <= hi, "{}: return bounds {lo} > {hi}", G::NAME);
    assert!(rules.action_space() > 0, "{}: empty action space", G::NAME);
    let mut seen = Resampling::default();
    for i in 0..config.games {
        let seed = config.seed.wrapping_add(i);
        let mut run = Run::<G>::new(rules, seed, config);
        if let Err(msg) = run.play(&mut seen) {
            panic!(
                "conformance failure in {} (rules {rules:?}), seed {seed}, step {}: {msg}\n\
                 state:\n{}",
                G::NAME,
                run.record.actions().len(),
                run.state
            );
        }
    }
    assert!(
        seen.hidden || !config.hidden_information,
        "{}: every determinisation equals the true state over {} games: \
         the observations reveal everything hidden",
        G::NAME,
        config.games
    );
    assert!(
        !seen.hidden || seen.differed,
        "{}: determinisation never differed from the true state over {} games: \
         hidden information is never resampled",
        G::NAME,
        config.games
    );
}

#[derive(Default)]
struct Resampling {
    /// Some determinisation differed from the true state: something was
    /// hidden.
    hidden: bool,
    /// Determinisations with different seeds differed from each other.
    differed: bool,
}

struct Run<'a, G: Game> {
    rules: &'a G::Rules,
    config: &'a KitConfig,
    state: G,
    record: Record<G>,
    rng: GameRng,
    legal: Vec<G::Action>,
    outcomes: Vec<(G::Action, f64)>,
}

type Check = Result<(), String>;

fn ensure(cond: bool, msg: impl FnOnce() -> String) -> Check {
    if cond {
        Ok(())
    } else {
        Err(msg())
    }
}

fn json<T: serde::Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string(value).map_err(|e| format!("serialisation failed: {e}"))
}

fn round_trip<T>(value: &T, what: &str) -> Check
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let text = json(value)?;
    let back: T =
        serde_json::from_str(&text).map_err(|e| format!("{what} does not deserialise: {e}"))?;
    ensure(back == *value, || {
        format!("{what} changes in a serde round trip")
    })
}

impl<'a, G: Game> Run<'a, G> {
    fn new(rules: &'a G::Rules, seed: u64, config: &'a KitConfig) -> Self {
        Run {
            rules,
            config,
            state: G::new(rules).unwrap_or_else(|e| panic!("{}: rules refused: {e}", G::NAME)),
            record: Record::new(rules.clone(), seed),
            rng: chance_rng(seed),
            legal: Vec::new(),
            outcomes: Vec::new(),
        }
    }

    fn play(&mut self, seen: &mut Resampling) -> Check {
        let max = self.rules.max_game_length() as usize;
        // Spread the tamper trials over the game without knowing its length.
        let mut tamper_budget = self.config.tampers;
        let mut sampler_budget = 6;
        loop {
            let step = self.record.actions().len();
            ensure(step <= max, || {
                format!("game longer than max_game_length {max}")
            })?;
            self.check_turn()?;
            self.state.legal_actions(&mut self.legal);
            self.state.chance_outcomes(&mut self.outcomes);
            let turn = self.state.turn();
            if turn == Turn::Terminal {
                return self.check_end();
            }
            self.check_legal_list()?;
            self.check_illegal_refused()?;
            if step.is_multiple_of(self.config.full_check_every.max(1)) {
                self.check_whole_space()?;
                for p in PlayerId::all() {
                    self.check_views(p)?;
                }
            }
            self.check_applies()?;
            // A few sampler checks a game: each costs 20 draws per action.
            let decision = matches!(turn, Turn::Player(_));
            let due = (decision && self.state.move_count().is_multiple_of(8))
                || (!decision && step.is_multiple_of(16));
            if due && sampler_budget > 0 {
                sampler_budget -= 1;
                self.check_sampler()?;
            }
            round_trip(&self.state, "state")?;
            ensure(!self.state.to_string().is_empty(), || {
                "empty rendering".into()
            })?;
            for p in PlayerId::all() {
                self.check_observation(p, seen)?;
            }
            if tamper_budget > 0 && (step % 7 == 3 || step == 0) {
                tamper_budget -= 1;
                tamper::state::<G>(&self.state, &mut self.rng)?;
                let p = PlayerId::BOTH[self.rng.random_range(0..2)];
                tamper::observation::<G>(&self.state.observation(p), &mut self.rng)?;
            }
            let action = match turn {
                Turn::Chance => self.check_chance()?,
                _ => self.legal[self.rng.random_range(0..self.legal.len())],
            };
            self.state
                .apply(action)
                .map_err(|e| format!("listed action {action} refused: {e}"))?;
            self.record.push(action);
        }
    }

    fn check_turn(&self) -> Check {
        let turn = self.state.turn();
        ensure(
            (turn == Turn::Terminal) == self.state.outcome().is_some(),
            || format!("turn {turn:?} but outcome {:?}", self.state.outcome()),
        )?;
        ensure((turn == Turn::Terminal) == self.state.is_terminal(), || {
            "is_terminal disagrees with turn".into()
        })?;
        Ok(())
    }

    fn check_chance(&mut self) -> Result<G::Action, String> {
        ensure(!self.outcomes.is_empty(), || {
            "chance event without outcomes".into()
        })?;
        let mut total = 0.0;
        let mut listed: Vec<G::Action> = Vec::with_capacity(self.outcomes.len());
        for &(a, p) in &self.outcomes {
            ensure(p > 0.0 && p <= 1.0, || {
                format!("outcome {a} has probability {p}")
            })?;
            total += p;
            listed.push(a);
        }
        ensure((total - 1.0).abs() < 1e-9, || {
            format!("probabilities sum to {total}")
        })?;
        listed.sort_by_key(|&a| self.rules.action_id(a));
        let before = listed.len();
        listed.dedup();
        ensure(listed.len() == before, || {
            "duplicate chance outcomes".into()
        })?;
        ensure(listed == self.legal, || {
            "legal list differs from the chance outcomes".into()
        })?;
        let sampled = self
            .state
            .sample_chance(&mut self.rng)
            .ok_or("sample_chance gave nothing at a chance event")?;
        ensure(listed.contains(&sampled), || {
            format!("sampled {sampled} is not an outcome")
        })?;
        Ok(sampled)
    }

    fn check_observation(&mut self, p: PlayerId, seen: &mut Resampling) -> Check {
        let obs = self.state.observation(p);
        round_trip(&obs, "observation")?;
        ensure(!obs.to_string().is_empty(), || {
            "empty observation rendering".into()
        })?;
        let mut first: Option<G> = None;
        let mut any_other = false;
        for _ in 0..self.config.determinizations {
            let mut rng = GameRng::seed_from_u64(self.rng.random());
            let det = G::determinize(&obs, &mut rng)
                .map_err(|e| format!("determinisation for {p} refused: {e}"))?;
            ensure(det.observation(p) == obs, || {
                format!(
                    "determinisation for {p} changes his observation:\n{}\nvs\n{obs}",
                    det.observation(p)
                )
            })?;
            ensure(det.turn() == self.state.turn(), || {
                format!("determinisation for {p} changes whose turn it is")
            })?;
            if self.state.turn() == Turn::Player(p) {
                let mut det_legal = Vec::new();
                det.legal_actions(&mut det_legal);
                ensure(det_legal == self.legal, || {
                    format!("determinisation for {p} changes his legal actions")
                })?;
            }
            match &first {
                None => first = Some(det),
                Some(f) => any_other |= *f != det,
            }
        }
        if let Some(f) = first {
            if f != self.state {
                seen.hidden = true;
                // Two consistent completions exist (the true state and `f`),
                // so a generator that is really used gives different ones.
                seen.differed |= any_other || self.config.determinizations < 2;
            }
        }
        Ok(())
    }

    fn check_end(&mut self) -> Check {
        ensure(self.legal.is_empty(), || {
            "legal actions after the end".into()
        })?;
        ensure(self.outcomes.is_empty(), || {
            "chance outcomes after the end".into()
        })?;
        let (lo, hi) = self.rules.return_bounds();
        let mut sum = 0.0;
        let mut detail = String::new();
        for p in PlayerId::all() {
            let r = self.state.returns(p);
            let _ = write!(detail, " {p}:{r}");
            ensure(r >= lo - 1e-9 && r <= hi + 1e-9, || {
                format!("return {r} of {p} out of bounds")
            })?;
            sum += r;
        }
        let want = self.rules.returns_sum();
        ensure((sum - want).abs() < 1e-6, || {
            format!("returns{detail} sum to {sum}, not {want}")
        })?;
        if let Some(Outcome::Win(w)) = self.state.outcome() {
            ensure(
                self.state.returns(w) > self.state.returns(w.other()),
                || format!("winner {w} does not score more than {}:{detail}", w.other()),
            )?;
        }
        round_trip(&self.record, "record")?;
        let replayed = self
            .record
            .replay()
            .map_err(|e| format!("record does not replay: {e}"))?;
        ensure(replayed == self.state, || {
            "replayed record gives another state".into()
        })?;
        ensure(
            self.state.move_count() as usize <= self.record.actions().len(),
            || "move count exceeds the actions played".into(),
        )?;
        for _ in 0..self.config.tampers.min(8) {
            tamper::record::<G>(&self.record, &mut self.rng)?;
        }
        // A true observation of a final position always determinises, however
        // rare the completions that end the game the same way.
        for p in PlayerId::all() {
            let obs = self.state.observation(p);
            let mut rng = GameRng::seed_from_u64(self.rng.random());
            let det = G::determinize(&obs, &mut rng)
                .map_err(|e| format!("{p}'s final observation does not determinise: {e}"))?;
            ensure(det.observation(p) == obs && det.is_terminal(), || {
                format!("a determinisation of {p}'s final observation is another position")
            })?;
        }
        Ok(())
    }
}
