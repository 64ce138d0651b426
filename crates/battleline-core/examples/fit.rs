//! Fits the expert's weights by self-play: plays the expert with given
//! weights against a bot of the pool over seeded games (seats alternating,
//! both at a fixed number of futures, so that every figure is
//! reproducible) and prints its score and both sides' time per decision.
//!
//! `cargo run --release -p battleline-core --example fit -- OPPONENT GAMES SAMPLES RULES [SEED] [weight=value ...]`
//!
//! OPPONENT is `expert-v1`, `prob`, `heuristic` or `expert` (the default
//! weights); RULES is `default`, `troops` (troops only), `gmt` (the
//! published order, claims at the start of the turn, Fog and Mud movable)
//! or `troops-gmt`. The weights are the fields of `Weights`
//! (`draw_cap=10 tactic_cost=0.5 rival_answer=false screen=false
//! finalists=6 final_futures=2 tactics_from=none`); the coordinate search of
//! docs/strength.md ("Fitting the weights") ran this program once per value
//! tried.

use std::time::{Duration, Instant};

use battleline_core::game_traits::{play_alternating, Agent};
use battleline_core::{
    Action, BattleLine, Budget, ClaimTiming, EnvironmentTactics, Expert, ExpertV1, FormationOrder,
    GameRng, Heuristic, Observation, Prob, Rules, Weights,
};

/// An agent that adds up the time it takes to decide.
struct Timed<A> {
    inner: A,
    spent: Duration,
    decisions: u32,
}

impl<A: Agent<BattleLine> + ?Sized> Agent<BattleLine> for Timed<Box<A>> {
    fn name(&self) -> String {
        self.inner.name()
    }

    fn choose(&mut self, obs: &Observation, legal: &[Action], rng: &mut GameRng) -> Action {
        let t = Instant::now();
        let a = self.inner.choose(obs, legal, rng);
        self.spent += t.elapsed();
        self.decisions += 1;
        a
    }
}

fn timed<A: ?Sized>(inner: Box<A>) -> Timed<Box<A>> {
    Timed {
        inner,
        spent: Duration::ZERO,
        decisions: 0,
    }
}

fn rules(name: &str) -> Result<Rules, String> {
    let gmt = Rules {
        formation_order: FormationOrder::Published,
        claim_timing: ClaimTiming::StartOfTurn,
        environment_tactics: EnvironmentTactics::Movable,
        ..Rules::default()
    };
    match name {
        "default" => Ok(Rules::default()),
        "troops" => Ok(Rules::troops_only()),
        "gmt" => Ok(gmt),
        "troops-gmt" => Ok(Rules {
            tactics: false,
            ..gmt
        }),
        _ => Err(format!("unknown rules {name}")),
    }
}

fn weights(args: &[String]) -> Result<Weights, String> {
    let mut w = Weights::default();
    for a in args {
        let (k, v) = a.split_once('=').ok_or(format!("not key=value: {a}"))?;
        match k {
            "draw_cap" => w.draw_cap = v.parse().map_err(|_| format!("bad value in {a}"))?,
            "unknown_base" => {
                w.unknown_base = v.parse().map_err(|_| format!("bad value in {a}"))?
            }
            "unknown_class" => {
                w.unknown_class = v.parse().map_err(|_| format!("bad value in {a}"))?
            }
            "tactic_cost" => w.tactic_cost = v.parse().map_err(|_| format!("bad value in {a}"))?,
            "finalists" => w.finalists = v.parse().map_err(|_| format!("bad value in {a}"))?,
            "final_futures" => {
                w.final_futures = v.parse().map_err(|_| format!("bad value in {a}"))?
            }
            "tactics_from" => {
                w.tactics_from = match v {
                    "none" => None,
                    _ => Some(v.parse().map_err(|_| format!("bad value in {a}"))?),
                }
            }
            "screen" => w.screen = v.parse().map_err(|_| format!("bad value in {a}"))?,
            "rival_answer" => {
                w.rival_answer = v.parse().map_err(|_| format!("bad value in {a}"))?
            }
            _ => return Err(format!("unknown weight {k}")),
        }
    }
    Ok(w)
}

fn opponent(name: &str, samples: u32) -> Result<Box<dyn Agent<BattleLine>>, String> {
    let budget = Some(Budget::Iterations(samples));
    Ok(match name {
        "expert-v1" => Box::new(ExpertV1::new(budget)),
        "expert" => Box::new(Expert::new(budget)),
        "prob" => Box::new(Prob::default()),
        "heuristic" => Box::new(Heuristic),
        _ => return Err(format!("unknown opponent {name}")),
    })
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [opp, games, samples, rules_name, rest @ ..] = args.as_slice() else {
        return Err("usage: fit OPPONENT GAMES SAMPLES RULES [SEED] [weight=value ...]".into());
    };
    let games: u64 = games.parse().map_err(|_| "bad GAMES")?;
    let samples: u32 = samples.parse().map_err(|_| "bad SAMPLES")?;
    let rules = rules(rules_name)?;
    let (seed, rest) = match rest.first().and_then(|s| s.parse::<u64>().ok()) {
        Some(s) => (s, &rest[1..]),
        None => (1, rest),
    };
    let w = weights(rest)?;
    let mut expert = timed::<dyn Agent<BattleLine>>(Box::new(Expert::with_weights(
        Some(Budget::Iterations(samples)),
        w,
    )));
    let mut other = timed(opponent(opp, samples)?);
    let score =
        play_alternating::<BattleLine>(&rules, &mut expert, &mut other, games, seed * 100_000)
            .map_err(|e| format!("{e:?}"))?;
    let ms = |t: &Timed<Box<dyn Agent<BattleLine>>>| {
        t.spent.as_secs_f64() * 1e3 / f64::from(t.decisions.max(1))
    };
    println!(
        "{w:?} vs {opp} {rules_name}: {score}/{games} = {:.1} %  ms/decision {:.3} / {:.3}",
        100.0 * score / games as f64,
        ms(&expert),
        ms(&other)
    );
    Ok(())
}
