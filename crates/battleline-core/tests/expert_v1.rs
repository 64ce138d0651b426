//! `expert-v1`, the expert of issue 29 kept as a sparring partner, plays
//! exactly as it did when it was frozen: its decisions in a few seeded
//! games against the heuristic are the golden record
//! `tests/golden/expert_v1.txt` (written by the expert before the new one
//! replaced it; `BLESS=1` writes it again).

use battleline_core::game_traits::{play_match, Agent};
use battleline_core::{
    BattleLine, Budget, ClaimTiming, EnvironmentTactics, ExpertV1, FormationOrder, Heuristic, Rules,
};

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/expert_v1.txt");

/// Every action of seeded games between expert-v1 (16 futures a
/// decision) and the heuristic, seats alternating, one line a game.
fn record() -> String {
    let rule_sets = [
        Rules::default(),
        Rules::troops_only(),
        Rules {
            formation_order: FormationOrder::Published,
            claim_timing: ClaimTiming::StartOfTurn,
            environment_tactics: EnvironmentTactics::Movable,
            ..Rules::default()
        },
    ];
    let mut out = String::new();
    for rules in &rule_sets {
        for seed in 0..4u64 {
            let mut expert = ExpertV1::new(Some(Budget::Iterations(16)));
            let mut heuristic = Heuristic;
            let mut agents: [&mut dyn Agent<BattleLine>; 2] = if seed % 2 == 0 {
                [&mut expert, &mut heuristic]
            } else {
                [&mut heuristic, &mut expert]
            };
            let (_, log) = play_match::<BattleLine>(rules, 500 + seed, &mut agents).unwrap();
            let line: Vec<String> = log.actions().iter().map(|a| a.to_string()).collect();
            out.push_str(&line.join(" "));
            out.push('\n');
        }
    }
    out
}

#[test]
fn expert_v1_plays_as_it_did_when_frozen() {
    let got = record();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(GOLDEN, &got).unwrap();
    }
    let want = std::fs::read_to_string(GOLDEN).unwrap();
    assert!(got == want, "expert-v1's decisions changed");
}
