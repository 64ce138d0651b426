//! Fits the searching expert's weights by play: the expert with given
//! weights against a bot of the pool over seeded games (seats alternating,
//! both at iteration budgets, so that every figure is reproducible),
//! printing its score (a draw counts half).
//!
//! `cargo run --release -p stratego-core --example fit -- OPPONENT GAMES DEPTH PRESET [SEED] [weight=value ...]`
//!
//! OPPONENT is `heuristic`, `expert-v1:N` (N determinisations a move) or
//! `expert:D` (the default weights, D plies); DEPTH is the expert's depth
//! in plies; PRESET a rule set's preset name (`classic`, `czech`, ...).
//! The weights are the fields of `Weights` (`hunt=0.08 known_hunt=2
//! flag_attack=0.16 flag_defence=1 known_cost=0.3 exposure=0.1
//! miner_reserve=0.5 high_piece=100 determinisations=6`).
//! docs/strength.md ("Fitting the weights by play") ran it once per value
//! tried.

use stratego_core::game_traits::{play_alternating, Agent, Budget};
use stratego_core::{Expert, Heuristic, RuleSet, Rules, Stratego, Weights};

fn weights(args: &[String]) -> Result<Weights, String> {
    let mut w = Weights::default();
    for a in args {
        let (k, v) = a.split_once('=').ok_or(format!("not key=value: {a}"))?;
        let bad = || format!("bad value in {a}");
        match k {
            "hunt" => w.hunt = v.parse().map_err(|_| bad())?,
            "known_hunt" => w.known_hunt = v.parse().map_err(|_| bad())?,
            "flag_attack" => w.flag_attack = v.parse().map_err(|_| bad())?,
            "flag_defence" => w.flag_defence = v.parse().map_err(|_| bad())?,
            "known_cost" => w.known_cost = v.parse().map_err(|_| bad())?,
            "exposure" => w.exposure = v.parse().map_err(|_| bad())?,
            "miner_reserve" => w.miner_reserve = v.parse().map_err(|_| bad())?,
            "high_piece" => w.high_piece = v.parse().map_err(|_| bad())?,
            "determinisations" => w.determinisations = v.parse().map_err(|_| bad())?,
            _ => return Err(format!("unknown weight {k}")),
        }
    }
    Ok(w)
}

fn opponent(spec: &str) -> Result<Box<dyn Agent<Stratego>>, String> {
    let (name, n) = match spec.split_once(':') {
        Some((name, n)) => (name, Some(n.parse::<u32>().map_err(|_| "bad budget")?)),
        None => (spec, None),
    };
    let budget = n.map(Budget::Iterations);
    Ok(match name {
        "heuristic" => Box::new(Heuristic::default()),
        "expert-v1" => Box::new(Expert::v1(budget)),
        "expert" => Box::new(Expert::new(budget)),
        _ => return Err(format!("unknown opponent {spec}")),
    })
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [opp, games, depth, preset, rest @ ..] = args.as_slice() else {
        return Err("usage: fit OPPONENT GAMES DEPTH PRESET [SEED] [weight=value ...]".into());
    };
    let games: u64 = games.parse().map_err(|_| "bad GAMES")?;
    let depth: u32 = depth.parse().map_err(|_| "bad DEPTH")?;
    let rules = Rules::preset(preset)
        .ok_or(format!("unknown preset {preset}"))?
        .rules;
    let (seed, rest) = match rest.first().and_then(|s| s.parse::<u64>().ok()) {
        Some(s) => (s, &rest[1..]),
        None => (1, rest),
    };
    let w = weights(rest)?;
    let mut expert = Expert::with_weights(Some(Budget::Iterations(depth)), w);
    let mut other = opponent(opp)?;
    let score =
        play_alternating::<Stratego>(&rules, &mut expert, &mut *other, games, seed * 100_000)
            .map_err(|e| format!("{e:?}"))?;
    println!(
        "{w:?} vs {opp} {preset} seed {seed}: {score}/{games} = {:.2} %",
        100.0 * score / games as f64
    );
    Ok(())
}
