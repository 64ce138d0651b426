//! The fuzz targets' seed corpus (`fuzz/corpus/<game>/`): real states,
//! observations, records, rules and action-id sequences of each game, each
//! prefixed with the byte that tells the target what it is. This test runs
//! the fuzz bodies on every corpus input, so the corpus stays readable and
//! every input is held to the whole contract by `cargo test` too;
//! `WRITE_FUZZ_CORPUS=1` writes the corpus anew.
#![cfg(all(feature = "battleline", feature = "stratego", feature = "cardwar"))]

use std::path::PathBuf;

use game_traits::testkit::fuzz;
use game_traits::RuleSet;
use game_traits::{chance_rng, Game, PlayerId, Record, Turn};
use tabletop_rules::{battleline::BattleLine, cardwar::CardWar, stratego::Stratego};

fn corpus_dir(game: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/corpus")
        .join(game)
}

/// Inputs from two seeded random games: states, observations and records at
/// a few steps, the default rules, and the action ids of a whole game.
fn inputs<G: Game>() -> Vec<Vec<u8>> {
    let rules = G::Rules::default();
    let mut out = vec![[&[3u8][..], &serde_json::to_vec(&rules).unwrap()].concat()];
    let mut legal = Vec::new();
    for seed in 0..2 {
        let mut state = G::new(&rules).unwrap();
        let mut record = Record::<G>::new(rules.clone(), seed);
        let mut rng = chance_rng(seed);
        let mut ids = Vec::new();
        let mut step = 0usize;
        loop {
            if step.is_power_of_two() && step >= 8 {
                out.push([&[0u8][..], &serde_json::to_vec(&state).unwrap()].concat());
                let obs = state.observation(PlayerId::BOTH[step % 2]);
                out.push([&[1u8][..], &serde_json::to_vec(&obs).unwrap()].concat());
                out.push([&[2u8][..], &serde_json::to_vec(&record).unwrap()].concat());
            }
            let action = match state.turn() {
                Turn::Terminal => break,
                Turn::Chance => state.sample_chance(&mut rng).unwrap(),
                Turn::Player(_) => state.sample_legal(&mut legal, &mut rng).unwrap(),
            };
            let id = rules.action_id(action) as u16;
            ids.extend_from_slice(&id.to_le_bytes());
            state.apply(action).unwrap();
            record.push(action);
            step += 1;
        }
        out.push([&[4u8][..], &ids[..ids.len().min(4000)]].concat());
    }
    out
}

fn check<G: Game>(name: &str) {
    let dir = corpus_dir(name);
    if std::env::var_os("WRITE_FUZZ_CORPUS").is_some() {
        std::fs::create_dir_all(&dir).unwrap();
        for (i, input) in inputs::<G>().iter().enumerate() {
            std::fs::write(dir.join(format!("seed-{i:02}")), input).unwrap();
        }
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e} (write it with WRITE_FUZZ_CORPUS=1)", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(
        files.len() >= 10,
        "{name}: only {} corpus inputs",
        files.len()
    );
    for path in files {
        fuzz::any::<G>(&std::fs::read(&path).unwrap());
    }
}

#[test]
fn battleline_corpus_holds_every_contract() {
    check::<BattleLine>("battleline");
}

#[test]
fn stratego_corpus_holds_every_contract() {
    check::<Stratego>("stratego");
}

#[test]
fn cardwar_corpus_holds_every_contract() {
    check::<CardWar>("cardwar");
}
