//! A hostile run: many tampered states, observations and records, each
//! refused or held to the whole contract, with the counts written down.

use std::fmt;

use rand::{Rng, SeedableRng};

use crate::{chance_rng, random_playout, Game, GameRng, PlayerId, Record, Turn};

use super::tamper::{self, Fate};
use crate::RuleSet;

/// What a [`hostile_run`] tried and what became of it. Any panic, hang or
/// broken contract stops the run with a panic instead, so a report exists
/// only for a run that found none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HostileReport {
    /// Random games the inputs were taken from.
    pub games: u64,
    /// Tampered inputs tried (states, observations, records).
    pub inputs: u64,
    /// Of those, refused.
    pub refused: u64,
    /// Of those, accepted and held to the whole contract.
    pub accepted: u64,
    /// Illegal action ids tried on the states the games passed through.
    pub illegal_actions: u64,
    /// True final observations determinised.
    pub final_observations: u64,
}

impl fmt::Display for HostileReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} tampered inputs from {} games: {} refused, {} accepted and kept every \
             contract; {} illegal actions refused; {} final observations determinised; \
             0 panics, 0 hangs, 0 contract violations",
            self.inputs,
            self.games,
            self.refused,
            self.accepted,
            self.illegal_actions,
            self.final_observations
        )
    }
}

/// Tampers with `inputs` serialised values (a third each states,
/// observations and records) taken at random steps of seeded random games
/// under `rules`; panics, naming the input, on the first one that makes the
/// engine panic or is accepted and then breaks a contract.
pub fn hostile_run<G: Game>(rules: &G::Rules, inputs: u64, seed: u64) -> HostileReport {
    let mut report = HostileReport::default();
    let mut rng = GameRng::seed_from_u64(seed);
    let space = rules.action_space();
    let mut legal = Vec::new();
    while report.inputs < inputs {
        let game_seed = seed.wrapping_add(report.games);
        report.games += 1;
        let mut state = G::new(rules).unwrap_or_else(|e| panic!("{}: {e}", G::NAME));
        let mut record = Record::<G>::new(rules.clone(), game_seed);
        let mut chance = chance_rng(game_seed);
        // About 24 inputs a game, spread over its length.
        let per_game = 24u64.min(inputs - report.inputs).max(1);
        let stride = (rules.max_game_length() as u64 / 200).max(1);
        let mut taken = 0;
        loop {
            let step = record.actions().len() as u64;
            if taken < per_game && rng.random_range(0..stride * 4) == 0 {
                taken += 1;
                let what = report.inputs % 3;
                let fate = match what {
                    0 => tamper::state::<G>(&state, &mut rng),
                    1 => {
                        let p = PlayerId::BOTH[rng.random_range(0..2)];
                        tamper::observation::<G>(&state.observation(p), &mut rng)
                    }
                    _ => tamper::record::<G>(&record, &mut rng),
                };
                match fate {
                    Ok(Fate::Refused) => report.refused += 1,
                    Ok(Fate::Accepted) => report.accepted += 1,
                    Err(e) => panic!(
                        "{} hostile run, game seed {game_seed}, step {step}: {e}",
                        G::NAME
                    ),
                }
                report.inputs += 1;
                for _ in 0..8 {
                    let id = rng.random_range(0..space);
                    if let Some(a) = rules.action_from_id(id) {
                        if !state.is_legal(a) {
                            let mut copy = state.clone();
                            assert!(
                                copy.apply(a).is_err() && copy == state,
                                "{} accepted illegal {a}",
                                G::NAME
                            );
                            report.illegal_actions += 1;
                        }
                    }
                }
            }
            let action = match state.turn() {
                Turn::Terminal => break,
                Turn::Chance => match state.sample_chance(&mut chance) {
                    Some(a) => a,
                    None => panic!("{}: chance without outcomes", G::NAME),
                },
                Turn::Player(_) => match state.sample_legal(&mut legal, &mut chance) {
                    Some(a) => a,
                    None => panic!("{}: a decision without legal actions", G::NAME),
                },
            };
            state.apply_unchecked(action);
            record.push(action);
        }
        for p in PlayerId::all() {
            let mut det_rng = GameRng::seed_from_u64(rng.random());
            if let Err(e) = G::determinize(&state.observation(p), &mut det_rng) {
                panic!(
                    "{} game seed {game_seed}: {p}'s final observation refused: {e}",
                    G::NAME
                );
            }
            report.final_observations += 1;
        }
    }
    report
}

/// Plays `games` seeded random games under `rules` and determinises both
/// players' true observations of every final position; panics on the first
/// refusal. Returns the number of observations determinised.
pub fn determinise_final_positions<G: Game>(rules: &G::Rules, games: u64, seed: u64) -> u64 {
    let mut legal = Vec::new();
    let mut count = 0;
    for g in 0..games {
        let game_seed = seed.wrapping_add(g);
        let mut state = G::new(rules).unwrap_or_else(|e| panic!("{}: {e}", G::NAME));
        let mut rng = chance_rng(game_seed);
        random_playout(&mut state, &mut legal, &mut rng, rules.max_game_length());
        for p in PlayerId::all() {
            let obs = state.observation(p);
            let mut det_rng = GameRng::seed_from_u64(game_seed ^ (p.index() as u64 + 1) << 40);
            match G::determinize(&obs, &mut det_rng) {
                Ok(det) if det.observation(p) == obs => count += 1,
                Ok(_) => panic!(
                    "{} seed {game_seed}: determinisation changes {p}'s final view",
                    G::NAME
                ),
                Err(e) => panic!(
                    "{} seed {game_seed}: {p}'s final observation refused: {e}",
                    G::NAME
                ),
            }
        }
    }
    count
}
