//! Plays a seeded game between two bots and prints the final board and why
//! the game ended.
//!
//! `cargo run -p stratego-core --example stratego_game -- [preset] [seed]`, the
//! preset one of `Rules::presets()` (`classic`, the default,
//! `classic_milton_bradley`, `classic_gravon`, `srazhenie`,
//! `srazhenie_runner_soldiers`, `czech`).
//!
//! The first player uses "Smart" setups, the second "Shuffle" setups; both
//! then play uniformly random legal moves, except that a bot always takes
//! a revealed flag or attacks a piece it knows it beats.

use game_traits::{agent_rng, Game, GameRng, PlayerId, Preset, RuleSet};
use rand::Rng;
use stratego_core::{Action, Fight, ObsCell, Rules, Setup, Stratego};

fn pick(game: &Stratego, legal: &[Action], rng: &mut GameRng) -> Action {
    let Some(p) = game.current_player() else {
        return legal[0];
    };
    let obs = game.observation(p);
    let variant = obs.rules.variant;
    let good = legal.iter().copied().filter(|a| match a {
        Action::Move(m) => match (obs.cells[m.from.index()], obs.cells[m.to.index()]) {
            (
                ObsCell::Own { kind, .. },
                ObsCell::Foe {
                    kind: Some(foe), ..
                },
            ) => variant.fight(kind, foe) == Fight::AttackerWins,
            _ => false,
        },
        Action::Place(_) | Action::Start(_) => false,
    });
    let good: Vec<Action> = good.collect();
    if !good.is_empty() {
        return good[rng.random_range(0..good.len())];
    }
    legal[rng.random_range(0..legal.len())]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let presets = Rules::presets();
    let name = args.next().unwrap_or_else(|| presets[0].name.to_owned());
    let Some(&Preset { name, rules, .. }) = presets.iter().find(|p| p.name == name) else {
        let names: Vec<&str> = presets.iter().map(|p| p.name).collect();
        eprintln!("unknown rule set {name:?}: use one of {}", names.join(", "));
        std::process::exit(2);
    };
    println!("rules: {name}");
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut rngs = [agent_rng(seed, PlayerId::P0), agent_rng(seed, PlayerId::P1)];
    let first = Setup::smart(rules.variant, &mut rngs[0]);
    let second = Setup::shuffle(rules.variant, &mut rngs[1]);
    let mut game = match Stratego::new_with_setups(&rules, &first, &second) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("cannot start: {e}");
            std::process::exit(1);
        }
    };
    let mut legal = Vec::new();
    while let Some(p) = game.current_player() {
        game.legal_actions(&mut legal);
        let action = pick(&game, &legal, &mut rngs[p as usize]);
        if let Err(e) = game.apply(action) {
            eprintln!("engine refused its own move: {e}");
            std::process::exit(1);
        }
    }
    println!("{game}");
    if let Some(end) = game.end() {
        println!(
            "ended: {:?}, winner: {:?}",
            end.reason,
            end.winner.map(|w| format!("P{w}"))
        );
    }
}
